import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, expect } from 'vitest';
import type { Caller } from '../../src/core/caller.ts';
import type { RunningServer, ServerOptions } from '../../src/server.ts';
import { startServer } from '../../src/server.ts';

export type BuildOptions = Partial<Omit<ServerOptions, 'logger'>> & {
  /** Receives every log line down to debug (JSON), for tests that check what the operator is told. */
  logSink?: (line: string) => void;
};

const running: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const stop of running.splice(0).reverse()) await stop();
});

export async function tempDir(prefix = 'hud-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  running.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A fully wired service listening on 127.0.0.1 with a free port: real machines, real HTTP, a data
 * directory of its own, OBS switched off unless the test asks for it. Closed after each test.
 */
export async function build(options: BuildOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? (await tempDir());
  const server = await startServer({
    port: 0,
    headless: true,
    subscriptionActive: false,
    ...options,
    appPort: options.appPort ?? 0,
    dataDir,
    overrides: { ...options.overrides, obs: { enabled: false, ...options.overrides?.obs } },
    logger: options.logSink
      ? pino({ level: 'debug' }, { write: options.logSink })
      : pino({ level: process.env.HUD_TEST_LOG ?? 'silent' }),
  });
  running.push(() => server.close());
  return server;
}

/** POSTs a command to a running server and returns status and JSON body. */
export async function command(server: RunningServer, action: string, payload?: unknown) {
  const response = await fetch(`${server.httpUrl}/api/actions/${action}`, {
    method: 'POST',
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A command that must succeed: its answer's body, or the test fails naming the action and the answer. */
export async function ok(server: RunningServer, action: string, payload?: unknown) {
  const answer = await command(server, action, payload);
  expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

export async function get(server: RunningServer, path: string) {
  const response = await fetch(`${server.httpUrl}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A program on this machine, as the automation server's HTTP routes name it: for calls into the service. */
export const PROGRAM: Caller = { transport: 'http', address: '127.0.0.1', role: 'program' };
