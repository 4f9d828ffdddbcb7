import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as connectTcp, createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { STATE_FILE } from '../src/persistence/data-dir.ts';
import { tempDir } from './helpers/build.ts';
import type { CliProcess } from './helpers/cli-process.ts';
import { cliEntry, post, startCli } from './helpers/cli-process.ts';
import { connect } from './helpers/ws-client.ts';
import { fixtureText, unusedPort } from './import/source-server.ts';

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, [...cliEntry(), ...args]).then(({ stdout }) => stdout.trim());

describe('hud-automation token and lan', () => {
  it('ask the running server: show and regenerate the token, switch local network mode', async () => {
    const server = await startCli([
      '--headless',
      '--no-obs',
      '--data-dir',
      await tempDir(),
      '--log-level',
      'warn',
    ]);
    const port = new URL(server.httpUrl).port;
    try {
      const panel = async (path: string): Promise<any> => (await fetch(`${server.httpUrl}${path}`)).json();
      const shown = await cli('token', '--port', port);
      expect(shown).toBe((await panel('/internal/token')).token);
      const fresh = await cli('token', '--regenerate', '--port', port);
      expect(fresh).not.toBe(shown);
      expect((await panel('/internal/token')).token).toBe(fresh);
      expect(await cli('lan', 'on', '--port', port)).toBe('local network mode on');
      expect((await panel('/internal/settings')).settings.lanMode).toBe(true);
      // The view key the same way: shown, and regenerated through the running server.
      const view = await cli('view-key', '--port', port);
      expect(view).toBe((await panel('/internal/view-key')).viewKey);
      const newView = await cli('view-key', '--regenerate', '--port', port);
      expect(newView).not.toBe(view);
      expect((await panel('/internal/view-key')).viewKey).toBe(newView);
    } finally {
      await stop(server);
    }
  });

  it('without a running server, reads the token file of the data directory', async () => {
    const dataDir = await tempDir();
    const port = String(await unusedPort());
    const first = await cli('token', '--port', port, '--data-dir', dataDir);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await cli('token', '--port', port, '--data-dir', dataDir)).toBe(first);
  });
});

describe('token --regenerate and app-url --regenerate go through the running server, or change nothing', () => {
  const serve = async (dataDir: string) =>
    startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);
  const readToken = async (dataDir: string) => (await readFile(join(dataDir, 'access-token'), 'utf8')).trim();

  it('finds the server of the data directory on its own port, also with the automation server off', async () => {
    const dataDir = await tempDir();
    const server = await serve(dataDir);
    try {
      const old = await readToken(dataDir);
      // No --port: the default port is not this server's; its lock names the right one.
      const fresh = await cli('token', '--regenerate', '--data-dir', dataDir);
      expect(fresh).not.toBe(old);
      const status = async (token: string) =>
        (await fetch(`${server.httpUrl}/api/state`, { headers: { authorization: `Bearer ${token}` } }))
          .status;
      expect(await status(fresh)).toBe(200);
      // With the automation server switched off, through the operator app's panel API.
      await fetch(`${server.httpUrl}/internal/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ automation: { enabled: false } }),
      });
      const third = await cli('token', '--regenerate', '--data-dir', dataDir);
      expect(third).not.toBe(fresh);
      expect(await readToken(dataDir)).toBe(third);
      expect(await cli('lan', 'on', '--data-dir', dataDir)).toBe('local network mode on');
      const before = await cli('app-url', '--data-dir', dataDir);
      const after = await cli('app-url', '--regenerate', '--data-dir', dataDir);
      expect(after).not.toBe(before);
      // The old address signs nobody in any more; the new one does.
      expect((await fetch(before, { redirect: 'manual' })).headers.get('set-cookie')).toBeNull();
      expect((await fetch(after, { redirect: 'manual' })).headers.get('set-cookie')).toContain('HttpOnly');
    } finally {
      await stop(server);
    }
  });

  it('a server that runs but does not answer: exit 1, it says so, and the token file is untouched', async () => {
    const dataDir = await tempDir();
    const server = await serve(dataDir);
    const old = await readToken(dataDir);
    server.child.kill('SIGSTOP');
    try {
      const answer = await runCli(['token', '--regenerate', '--data-dir', dataDir]);
      expect(answer.code).toBe(1);
      expect(answer.stderr).toContain(`the server running on ${dataDir}`);
      expect(answer.stderr).toContain('does not answer');
      expect(answer.stderr).toContain('nothing changed');
      expect(await readToken(dataDir)).toBe(old);
      const wrongPort = await runCli([
        'token',
        '--regenerate',
        '--port',
        String(await unusedPort()),
        '--data-dir',
        await tempDir(),
      ]);
      expect(wrongPort.code).toBe(1);
      expect(wrongPort.stderr).toContain('nothing changed');
    } finally {
      server.child.kill('SIGCONT');
      // `killed` is already true (SIGSTOP was a signal too): stop() would not send SIGTERM.
      server.child.kill('SIGTERM');
      await stop(server);
    }
  });
});

describe('hud-automation app-url', () => {
  it('prints the sign-in address of the server running on the data directory, the one it printed at start', async () => {
    const dataDir = await tempDir();
    const server = await startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);
    try {
      // Not a terminal (a service's log): the banner says where the sign-in address is, not its key.
      const printed = (await server.waitForOutput(/Operator app\s+(.+)/))[1];
      // Issue 33: the command it names works as printed (hud-automation is not on the PATH under npm start).
      const named = /^(http:\/\/127\.0\.0\.1:\d+\/) {2}\(sign-in address: (.+ app-url --data-dir .+)\)$/.exec(
        printed ?? '',
      );
      expect(named, printed).not.toBeNull();
      const asPrinted = (await promisify(execFile)('sh', ['-c', named?.[2] ?? ''])).stdout.trim();
      const url = await cli('app-url', '--data-dir', dataDir);
      expect(asPrinted).toBe(url);
      expect(url.startsWith(`${named?.[1]}?key=`)).toBe(true);
      expect(server.output()).not.toContain(new URL(url).searchParams.get('key'));
      // The address works: it signs a browser in (303 to the app, with the session cookie).
      const signIn = await fetch(url, { redirect: 'manual' });
      expect(signIn.status).toBe(303);
      expect(signIn.headers.get('set-cookie')).toContain('HttpOnly');
    } finally {
      await stop(server);
    }
    const after = await runCli(['app-url', '--data-dir', dataDir]);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain(`no hud-automation server is running on the data directory ${dataDir}`);
  });
});

/** Runs the CLI to its end: exit code, stdout and stderr, whatever the code. */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [...cliEntry(), ...args],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

async function stop(server: CliProcess): Promise<void> {
  if (!server.child.killed) server.child.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null });
}

describe('the command line', () => {
  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  for (const [what, args, problem] of [
    ['an unknown flag', ['serve', '--bogus'], "Unknown option '--bogus'"],
    ['a flag without its value', ['serve', '--port'], "Option '--port <value>' argument missing"],
    ['an unknown command', ['start'], 'unknown command: start'],
  ] as const) {
    it(`${what} prints the problem and the usage on stderr and exits 2`, async () => {
      const { code, stdout, stderr } = await runCli([...args]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(problem);
      expect(stderr).toContain('Usage:\n  hud-automation serve [options]');
    });
  }

  for (const [what, args, env, shown] of [
    ['--obs-url', ['--obs-url', 'localhost:4455'], {}, '--obs-url'],
    ['HUD_OBS_URL', [], { HUD_OBS_URL: 'http://127.0.0.1:4455' }, 'HUD_OBS_URL'],
  ] as const) {
    it(`an OBS address without ws:// in ${what} is refused at start with the right form, exit 2`, async () => {
      const { code, stderr } = await runCli(['serve', ...args, '--data-dir', await tempDir()], env);
      expect(code).toBe(2);
      expect(stderr).toContain(`${shown} must be an OBS WebSocket address of the form ws://host:port`);
    });
  }

  for (const [netcon, said] of [
    ['8.8.8.8:2121', '--netcon: 8.8.8.8 is a public address'],
    ['game-pc:2121', '--netcon: "game-pc" is not an IP address'],
    ['127.0.0.1', '--netcon takes HOST:PORT'],
  ] as const) {
    it(`--netcon ${netcon} is refused at start with the reason, exit 2`, async () => {
      const { code, stderr } = await runCli(['serve', '--netcon', netcon, '--data-dir', await tempDir()]);
      expect(code).toBe(2);
      expect(stderr).toContain(said);
    });
  }

  it('a port in use is named, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const { code, stderr } = await runCli([
        'serve',
        '--no-obs',
        '--port',
        String(port),
        '--app-port',
        '0',
        '--data-dir',
        await tempDir(),
      ]);
      expect(code).toBe(1);
      expect(stderr).toContain(`hud-automation: port ${port} is in use`);
    } finally {
      taken.close();
    }
  });
});

describe('console log', () => {
  it('is JSON when stdout is not a terminal; each request at debug with the code of a failure', async () => {
    const server = await startCli(['--no-obs', '--data-dir', await tempDir(), '--log-level', 'debug']);
    try {
      const listening = JSON.parse((await server.waitForOutput(/^\{.*Automation server listening.*\}$/m))[0]);
      expect(listening).toMatchObject({ level: 30, msg: `Automation server listening at ${server.httpUrl}` });
      expect(await (await fetch(`${server.httpUrl}/no/such/route`)).json()).toMatchObject({
        error: 'not_found',
      });
      const request = JSON.parse((await server.waitForOutput(/^\{.*GET \/no\/such\/route.*\}$/m))[0]);
      expect(request).toMatchObject({ level: 20, msg: 'request', status: 404, error: 'not_found' });
    } finally {
      await stop(server);
    }
  });

  it('is one readable line per entry with --log-format pretty: time, level, message; no requests at info', async () => {
    const server = await startCli(['--no-obs', '--data-dir', await tempDir(), '--log-format', 'pretty']);
    try {
      await server.waitForOutput(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: OBS connection switched off$/m);
      await fetch(`${server.httpUrl}/api/state`);
      server.child.kill('SIGTERM');
      await server.waitForOutput(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: stopped$/m);
      expect(server.output()).not.toContain('GET /api/state');
      expect(server.output()).not.toMatch(/^\{/m);
    } finally {
      await stop(server);
    }
  });
});

/** Whether a TCP connection to the address is accepted. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connectTcp(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const settingsOf = async (server: CliProcess): Promise<any> =>
  ((await (await fetch(`${server.httpUrl}/internal/settings`)).json()) as any).settings;

describe('flags hold for the run they are given to', () => {
  it('serve --lan, then a plain serve on the same data directory listens on loopback only', async () => {
    const dataDir = await tempDir();

    const withFlags = await startCli([
      '--data-dir',
      dataDir,
      '--lan',
      '--no-obs',
      '--obs-url',
      'ws://127.0.0.1:4466',
      '--obs-password',
      'run-only-secret',
    ]);
    const lanPort = Number(new URL(withFlags.httpUrl).port);
    expect(await settingsOf(withFlags)).toMatchObject({
      lanMode: true,
      obs: { url: 'ws://127.0.0.1:4466', enabled: false, passwordSet: true },
    });
    expect(await accepts('::1', lanPort)).toBe(true);
    await stop(withFlags);
    const saved = await readFile(join(dataDir, STATE_FILE), 'utf8');
    expect(JSON.parse(saved).settings).toMatchObject({
      lanMode: false,
      obs: { url: 'ws://127.0.0.1:4455', enabled: true, password: '' },
    });
    expect(saved).not.toContain('run-only-secret');

    const plain = await startCli(['--data-dir', dataDir, '--no-obs']);
    const plainPort = Number(new URL(plain.httpUrl).port);
    try {
      expect(await settingsOf(plain)).toMatchObject({ lanMode: false, obs: { url: 'ws://127.0.0.1:4455' } });
      expect(await accepts('127.0.0.1', plainPort)).toBe(true);
      expect(await accepts('::1', plainPort)).toBe(false);
    } finally {
      await stop(plain);
    }
  });

  it('a change through the settings API lasts across a restart, and wins over the flag for the rest of the run', async () => {
    const dataDir = await tempDir();
    const first = await startCli(['--data-dir', dataDir, '--no-obs', '--lan']);
    const port = new URL(first.httpUrl).port;
    try {
      // The flag turned it on for this run; the operator's word is what is saved.
      expect(await cli('lan', 'off', '--port', port)).toBe('local network mode off');
      expect(await accepts('::1', Number(port))).toBe(false);
      expect(await cli('lan', 'on', '--port', port)).toBe('local network mode on');
    } finally {
      await stop(first);
    }
    const second = await startCli(['--data-dir', dataDir, '--no-obs']);
    try {
      expect((await settingsOf(second)).lanMode).toBe(true);
      expect(await accepts('::1', Number(new URL(second.httpUrl).port))).toBe(true);
    } finally {
      await stop(second);
    }
  });
});

/**
 * An HLTV stand-in that holds every request until the test releases it: "an import is running" is
 * a fact the test waits for.
 */
async function startHeldHltv(page: string) {
  let arrived = () => {};
  const requested = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = createHttpServer((_request, response) => {
    arrived();
    void released.then(() => response.writeHead(200, { 'content-type': 'text/html' }).end(page));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('stopping', () => {
  it('on SIGTERM, WebSocket clients get 1001 with a reason and a request in progress gets its answer', async () => {
    const page = '/matches/2388098/b8-vs-falcons-starladder-budapest-major-2025';
    const hltv = await startHeldHltv(
      fixtureText('hltv_match_2388098_b8-vs-falcons_bo1__qa-hltv-parser__teamsbox-and-maps.html'),
    );
    const server = await startCli(['--headless', '--no-obs', '--data-dir', await tempDir()], {
      HUD_HLTV_URL: hltv.url,
    });
    try {
      const client = await connect(server.httpUrl.replace('http', 'ws'));
      expect(await client.next()).toMatchObject({ type: 'hello' });
      const importing = post(server.httpUrl, 'import_match_veto', { url: `https://www.hltv.org${page}` });
      await hltv.requested;

      server.child.kill('SIGTERM');
      expect(await client.closed).toEqual({ code: 1001, reason: 'the service is stopping' });
      hltv.release();
      const answer = await importing;
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject({ provider: 'hltv', teamA: { name: 'B8' } });
      expect(await server.exited).toEqual({ code: 0, signal: null });
    } finally {
      if (!server.child.killed) server.child.kill('SIGTERM');
      hltv.close();
    }
  });
});
