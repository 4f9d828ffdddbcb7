import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/**
 * How a test runs the CLI: the bundle the global setup built for the edge tier (test/global-setup.ts),
 * else the sources through tsx (about ten times the CPU a start: the whole module graph compiled).
 */
export const cliEntry = (): string[] => {
  const built = inject('builtCli');
  return built ? [built] : ['--import', 'tsx', CLI];
};

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  httpUrl: string;
  output(): string;
  /** The first match of the pattern in the output (stdout and stderr), waiting for it. */
  waitForOutput(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves with the exit code (or the signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs `hud-automation serve` as its own process and waits for its ready line: the CLI as cliEntry
 * runs it, or a built bundle when `built` names one.
 */
export async function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  built?: string,
  /** Start it with this limit of open files (soft and hard, through util-linux's prlimit). */
  openFiles?: number,
): Promise<CliProcess> {
  const entry = built ? [built] : cliEntry();
  const command = [process.execPath, ...entry, 'serve', '--port', '0', '--app-port', '0', ...args];
  const [file, ...rest] = openFiles
    ? ['prlimit', `--nofile=${openFiles}:${openFiles}`, '--', ...command]
    : command;
  const child = spawn(file as string, rest, { env: { ...process.env, ...env } });
  let output = '';
  const waiters = new Set<() => void>();
  const add = (chunk: string) => {
    output += chunk;
    for (const wake of waiters) wake();
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', add);
  child.stderr.on('data', add);
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  const waitForOutput = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const found = pattern.exec(output);
        if (!found) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
      void exited.then(({ code }) =>
        reject(new Error(`hud-automation exited (${code}) before printing ${pattern}:\n${output}`)),
      );
    });
  const httpUrl = (await waitForOutput(/HTTP\s+(http:\/\/\S+)/))[1] ?? '';
  return { child, httpUrl, output: () => output, waitForOutput, exited };
}

export async function post(httpUrl: string, action: string, payload?: unknown) {
  const response = await fetch(`${httpUrl}/api/actions/${action}`, {
    method: 'POST',
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
