import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  httpUrl: string;
  output(): string;
  /** Resolves with the exit code (or the signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs `hud-automation serve` as its own process and waits for its ready line: the sources through
 * tsx, or a built bundle when `built` names one.
 */
export async function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  built?: string,
): Promise<CliProcess> {
  const entry = built ? [built] : ['--import', 'tsx', CLI];
  const child = spawn(process.execPath, [...entry, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  const httpUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const found = /HTTP\s+(http:\/\/\S+)/.exec(output);
      if (found?.[1]) resolve(found[1]);
    });
    void exited.then(({ code }) =>
      reject(new Error(`hud-automation exited (${code}) before it was ready:\n${output}`)),
    );
  });
  return { child, httpUrl, output: () => output, exited };
}

export async function post(httpUrl: string, action: string, payload?: unknown) {
  const response = await fetch(`${httpUrl}/api/actions/${action}`, {
    method: 'POST',
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
