import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** How the servers are run: the built CLI with plain node (what `npm start` runs), or the sources through tsx. */
export interface Runtime {
  kind: 'dist' | 'tsx';
  /** node arguments that run the CLI, before `serve`. */
  cli: string[];
  /** node arguments that run the bare Fastify server: started the same way as the CLI. */
  bare: string[];
  /** node arguments that run the floor server (bench/floor-server.mjs), started the same way. */
  floor: string[];
  /** node arguments that run the show's floor (bench/show-floor-server.mjs), started the same way. */
  showFloor: string[];
}

/** Builds dist/ with `npm run build`; when that fails, runs the sources through tsx (and says so). */
export function chooseRuntime(): Runtime {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
  const cli = join(ROOT, 'dist/cli.js');
  const bare = join(ROOT, 'bench/bare-server.mjs');
  const floor = join(ROOT, 'bench/floor-server.mjs');
  const showFloor = join(ROOT, 'bench/show-floor-server.mjs');
  if (build.status === 0 && existsSync(cli))
    return { kind: 'dist', cli: [cli], bare: [bare], floor: [floor], showFloor: [showFloor] };
  process.stderr.write(
    `bench: npm run build failed, running the sources through tsx:\n${build.stdout}${build.stderr}\n`,
  );
  return {
    kind: 'tsx',
    cli: ['--import', 'tsx', join(ROOT, 'src/cli.ts')],
    bare: ['--import', 'tsx', bare],
    floor: ['--import', 'tsx', floor],
    showFloor: ['--import', 'tsx', showFloor],
  };
}

/** Every process the bench started, so that a failing run never leaves one behind. */
const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export function track(child: ChildProcess): ChildProcess {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

/** One GET /health; true on a 200. Refused connections (not listening yet) are false. */
function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/health', agent: false }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode === 200));
    });
    request.once('error', () => resolve(false));
    request.setTimeout(1_000, () => request.destroy());
  });
}

/** Polls /health every 2 ms; resolves with the time it first answered (process.hrtime, ns). */
export async function waitForHealth(port: number, child: ChildProcess, timeoutMs: number): Promise<bigint> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await healthy(port)) return process.hrtime.bigint();
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before /health answered`);
    if (Date.now() > deadline) throw new Error(`/health did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * The project's CLI, the bare route (the ceiling), the floor (the least the design allows for the
 * routes) or the show's floor (the least it allows for a live match: bench/show-floor-server.mjs).
 */
export type ServerKind = 'hud' | 'bare' | 'floor' | 'showFloor';

export interface ServerProcess {
  kind: ServerKind;
  child: ChildProcess;
  pid: number;
  port: number;
  /** The application server's port (operator app); 0 for the bare server. */
  appPort: number;
  httpUrl: string;
  wsUrl: string;
  /** The application server (operator app, HUD pages). */
  appUrl: string;
  /** Time from spawn until /health answered, ms. */
  startMs: number;
  /** The server's resident set size now (VmRSS of /proc/<pid>/status), KiB. */
  rssKb(): number;
  /** CPU time the server has used so far, user + system (/proc/<pid>/stat), ms; 10 ms resolution. */
  cpuMs(): number;
  /** The same, user and system apart. */
  cpuTimes(): CpuTimes;
  output(): string;
  /** The operator app's sign-in address (the hud server; read from its data directory's key). */
  signInUrl(): string;
  /** SIGTERM (the CLI saves and exits; a --cpu-prof profile is written then), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

export interface StartOptions {
  runtime: Runtime;
  kind: ServerKind;
  /** A fresh temporary one (removed on stop) when not given. */
  dataDir?: string;
  port?: number;
  /** Extra node options, e.g. --cpu-prof. */
  nodeOptions?: string[];
  /** Extra flags of `serve` for the hud server (e.g. --subscription), or of the other servers. */
  serveFlags?: string[];
}

/** Starts the real CLI (`serve --headless --no-obs --log-level warn`), the bare or the floor server, and waits for /health. */
export async function startServerProcess(options: StartOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  // Never the default 44554: a server the developer runs, or another bench, may hold it.
  const appPort = await freePort();
  const ownDir = options.dataDir === undefined && options.kind === 'hud';
  const dataDir = options.dataDir ?? (ownDir ? mkdtempSync(join(tmpdir(), 'hud-bench-')) : '');
  const args =
    options.kind === 'hud'
      ? [
          ...options.runtime.cli,
          'serve',
          '--port',
          String(port),
          '--app-port',
          String(appPort),
          '--headless',
          '--no-obs',
          '--data-dir',
          dataDir,
          '--log-level',
          'warn',
          ...(options.serveFlags ?? []),
        ]
      : [...options.runtime[options.kind], '--port', String(port), ...(options.serveFlags ?? [])];
  const spawnedAt = process.hrtime.bigint();
  const child = track(
    spawn(process.execPath, [...(options.nodeOptions ?? []), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit');
  let answered: bigint;
  try {
    answered = await waitForHealth(port, child, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  const pid = child.pid as number;
  return {
    kind: options.kind,
    child,
    pid,
    port,
    appPort: options.kind === 'hud' ? appPort : 0,
    httpUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    appUrl: `http://127.0.0.1:${appPort}`,
    startMs: Number(answered - spawnedAt) / 1e6,
    rssKb: () => rssKbOf(pid),
    cpuMs: () => cpuMsOf(pid),
    cpuTimes: () => cpuTimesOf(pid),
    output: () => output,
    signInUrl: () =>
      `http://127.0.0.1:${appPort}/?key=${readFileSync(join(dataDir, 'sign-in-key'), 'utf8').trim()}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function rssKbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const found = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!found?.[1]) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(found[1]);
}

/** Clock ticks per second of /proc/<pid>/stat: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

export interface CpuTimes {
  userMs: number;
  systemMs: number;
}

export function cpuTimesOf(pid: number): CpuTimes {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    userMs: (Number(fields[11]) * 1000) / CLOCK_TICKS,
    systemMs: (Number(fields[12]) * 1000) / CLOCK_TICKS,
  };
}

export function cpuMsOf(pid: number): number {
  const { userMs, systemMs } = cpuTimesOf(pid);
  return userMs + systemMs;
}
