/**
 * The real hud-automation server, started through its command line (the stable interface: the
 * module never imports the server's source). Used by the tests, the catalogue generator and the
 * soak bench.
 *
 *   const server = await startHudServer({ lan: true });
 *   await server.command('show_scoreboard');
 *   await server.restart();
 *   await server.stop();
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The server the module is built and tested against: the repository it belongs to, or another
 * checkout of it named by HUD_SERVER_ROOT (one with its node_modules installed).
 */
export const REPO_ROOT = process.env.HUD_SERVER_ROOT
  ? resolve(process.env.HUD_SERVER_ROOT)
  : resolve(fileURLToPath(new URL('../../..', import.meta.url)));
// Import sources point at a closed port on this machine: a test never reaches FACEIT or HLTV.
const NO_INTERNET = 'http://127.0.0.1:9';
const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const READY_TIMEOUT_MS = 60_000;

export interface ServerOptions {
  /** Local network mode for this run (`--lan`). */
  lan?: boolean;
  /** An active subscription (`--subscription`): the smart observer may be enabled. */
  subscription?: boolean;
  /** Log every request (debug, JSON lines): `requests` lists what the server received. */
  logRequests?: boolean;
}

/** A request as the server logged it (its access log line at debug). */
export interface ReceivedRequest {
  request: string;
  status: number;
  address: string;
  error?: string;
}

export interface Answer {
  status: number;
  body: any;
}

export interface HudServer {
  readonly port: number;
  readonly dataDir: string;
  /** What the server printed (its log at warn and above): for failure messages. */
  readonly output: string[];
  /** With `logRequests`: every request the server answered, in order. */
  readonly requests: ReceivedRequest[];
  /** `POST /api/actions/<action>` from this machine, as another client would. */
  command(action: string, payload?: unknown): Promise<Answer>;
  get(path: string): Promise<Answer>;
  /** `POST <path>` with a JSON body, e.g. the panel API's `/internal/overlay_report`. */
  post(path: string, body: unknown): Promise<Answer>;
  /** The access token, as `hud-automation token` prints it. */
  token(): Promise<string>;
  /** Stops the server and starts it again on the same port and data directory. */
  restart(): Promise<void>;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Stops the server and removes its data directory. */
  close(): Promise<void>;
}

export function httpJson(
  url: string,
  {
    method = 'GET',
    body,
    headers = {},
  }: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((done, fail) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        headers: { ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json' }) },
        timeout: 35_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          try {
            done({ status: res.statusCode ?? 0, body: raw === '' ? null : JSON.parse(raw) });
          } catch {
            done({ status: res.statusCode ?? 0, body: raw });
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', fail);
    req.end(text);
  });
}

function startProcess(
  args: string[],
  output: string[],
  onLine: (line: string) => void = () => {},
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(TSX, ['src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      HUD_FACEIT_URL: NO_INTERNET,
      HUD_FACEIT_DATA_API_URL: NO_INTERNET,
      HUD_HLTV_URL: NO_INTERNET,
    },
  });
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      fail(
        new Error(
          `the server did not print its address within ${READY_TIMEOUT_MS} ms:\n${output.join('\n')}`,
        ),
      );
    }, READY_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', onLine);
    lines.on('line', (line) => {
      output.push(line);
      const http = /^\s*HTTP\s+http:\/\/\S+:(\d+)/.exec(line);
      if (http) {
        clearTimeout(timer);
        lines.removeAllListeners('line');
        lines.on('line', onLine);
        lines.on('line', (rest) => output.push(rest));
        done({ child, port: Number(http[1]) });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (${code ?? signal}) before it was ready:\n${output.join('\n')}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

export async function startHudServer(options: ServerOptions = {}): Promise<HudServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hud-companion-'));
  const flags = (port: number) => [
    'serve',
    '--headless',
    '--no-obs',
    '--port',
    String(port),
    '--app-port',
    '0',
    '--data-dir',
    dataDir,
    '--log-level',
    options.logRequests ? 'debug' : 'warn',
    ...(options.logRequests ? ['--log-format', 'json'] : []),
    ...(options.lan ? ['--lan'] : []),
    ...(options.subscription ? ['--subscription'] : []),
  ];
  const requests: ReceivedRequest[] = [];
  const output: string[] = [];
  const read = (line: string) => {
    if (!line.startsWith('{') || !line.includes('"request"')) return;
    try {
      const entry = JSON.parse(line);
      if (entry.msg === 'request' && typeof entry.request === 'string') requests.push(entry);
    } catch {}
  };
  let { child, port } = await startProcess(flags(0), output, read);
  const base = () => `http://127.0.0.1:${port}`;
  return {
    get port() {
      return port;
    },
    dataDir,
    output,
    requests,
    command: (action, payload) =>
      httpJson(`${base()}/api/actions/${action}`, { method: 'POST', body: payload ?? {} }),
    get: (path) => httpJson(`${base()}${path}`),
    post: (path, body) => httpJson(`${base()}${path}`, { method: 'POST', body }),
    token: () =>
      new Promise((done, fail) =>
        execFile(TSX, ['src/cli.ts', 'token', '--data-dir', dataDir], { cwd: REPO_ROOT }, (error, stdout) => {
          const token = /[A-Za-z0-9_-]{43}/.exec(stdout)?.[0];
          if (error || !token) fail(error ?? new Error(`no token in: ${stdout}`));
          else done(token);
        }),
      ),
    restart: async () => {
      await stopProcess(child);
      ({ child, port } = await startProcess(flags(port), output, read));
    },
    stop: () => stopProcess(child),
    close: async () => {
      await stopProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
