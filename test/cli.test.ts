import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/build.ts';
import { startCli } from './helpers/cli-process.ts';
import { unusedPort } from './import/source-server.ts';

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
