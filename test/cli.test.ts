import { execFile } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/build.ts';
import { post, startCli } from './helpers/cli-process.ts';
import { connect } from './helpers/ws-client.ts';
import { fixtureText, unusedPort } from './import/source-server.ts';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', CLI, ...args]).then(({ stdout }) => stdout.trim());

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
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
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
