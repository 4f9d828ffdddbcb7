import { isAscii } from 'node:buffer';
import { execFile } from 'node:child_process';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/build.ts';
import { post, startCli } from './helpers/cli-process.ts';
import { connect } from './helpers/ws-client.ts';
import { fixtureText, html, startSourceServer } from './import/source-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = 'dist-test';
const run = promisify(execFile);

// What `npm start` runs: the bundle scripts/build.ts makes (built here into its own folder, so the
// bench's dist/ is never raced).
describe('the built CLI', () => {
  beforeAll(async () => {
    await run(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--outdir', OUT], { cwd: ROOT });
  }, 120_000);
  afterAll(async () => {
    await rm(`${ROOT}${OUT}`, { recursive: true, force: true });
  });

  it('serves HTTP and WebSocket, knows its version, logs readable lines, and loads the importers when first used', async () => {
    const page = '/matches/2388098/b8-vs-falcons-starladder-budapest-major-2025';
    const hltv = await startSourceServer({
      [page]: html(
        fixtureText('hltv_match_2388098_b8-vs-falcons_bo1__qa-hltv-parser__teamsbox-and-maps.html'),
      ),
    });
    const cli = await startCli(
      ['--headless', '--no-obs', '--data-dir', await tempDir(), '--log-format', 'pretty'],
      { HUD_HLTV_URL: hltv.url },
      `${ROOT}${OUT}/cli.js`,
    );
    try {
      // pino-pretty runs in the bundle (as a stream: a pino transport would look for its file).
      expect(cli.output()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Automation server listening at http/m);
      expect(await (await fetch(`${cli.httpUrl}/health`)).json()).toEqual({
        ok: true,
        service: 'hud-automation',
      });
      const { version } = JSON.parse(await readFile(`${ROOT}package.json`, 'utf8'));
      const client = await connect(cli.httpUrl.replace('http', 'ws'));
      expect(await client.next()).toMatchObject({ type: 'hello', version });
      client.close();
      const imported = await post(cli.httpUrl, 'import_match_veto', { url: `https://www.hltv.org${page}` });
      expect(imported.status).toBe(200);
      expect(imported.body.result).toMatchObject({
        provider: 'hltv',
        boFormat: 'bo1',
        teamA: { name: 'B8' },
      });
    } finally {
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
      await hltv.close();
    }
  });

  it('starts the inspector relay with --inspect', async () => {
    const cli = await startCli(
      [
        '--headless',
        '--no-obs',
        '--data-dir',
        await tempDir(),
        '--log-level',
        'warn',
        '--inspect',
        '--inspect-port',
        '0',
      ],
      {},
      `${ROOT}${OUT}/cli.js`,
    );
    try {
      const url = /Inspector\s+(http:\/\/\S+)/.exec(cli.output())?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect((await fetch(url ?? '')).status).toBe(200);
    } finally {
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code).toBe(0);
    }
  });

  /** One start of the built CLI (a data directory of its own), answering /health, then stopped cleanly. */
  const startAndStop = async (env: NodeJS.ProcessEnv = {}) => {
    const cli = await startCli(
      ['--headless', '--no-obs', '--data-dir', await tempDir(), '--log-level', 'warn'],
      env,
      `${ROOT}${OUT}/cli.js`,
    );
    expect((await fetch(`${cli.httpUrl}/health`)).status).toBe(200);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
    return cli;
  };

  // What waits for its first use stays out of the bundle and out of a start (docs/performance.md,
  // "Start-up"): one static import of any of them would bring it back into every start.
  it('loads at start none of the packages that wait for their first use', async () => {
    const bytes = await readFile(`${ROOT}${OUT}/server.cjs`);
    // In ASCII, which the launcher decodes into a one-byte string (scripts/build.ts).
    expect(isAscii(bytes)).toBe(true);
    const bundle = bytes.toString('latin1');
    // esbuild names each package's files in a comment: what the start needs is found that way.
    expect(bundle).toContain('node_modules/fastify/');
    // (@fastify/send is in it: @fastify/static serves the pages, as the design asks; and
    // rate-limiter-flexible: loaded with the first remote request, a burst's first frames were read
    // before the limiter could count them.)
    const lazy = ['cheerio', 'undici', 'pino-pretty', '@statelyai/inspect'];
    expect(lazy.filter((name) => bundle.includes(`node_modules/${name}/`))).toEqual([]);
    // Node's module debug log names every file a process loads: a start loads none of them.
    const cli = await startAndStop({ NODE_DEBUG: 'module' });
    expect(cli.output()).toContain('Module._load REQUEST'); // the log is on
    expect(lazy.filter((name) => cli.output().includes(`node_modules/${name}/`))).toEqual([]);
  });

  // src/launcher.ts: a start runs from V8's code cache of an earlier start, and a cache V8 refuses
  // costs one slower start, never the start.
  it('starts from the code cache its build wrote, and writes a new one when V8 refuses it', async () => {
    const cache = `${ROOT}${OUT}/server.cjs.cache`;
    // The build's own start wrote it; a start that V8 takes it for leaves it as it is (a start that
    // compiled from the source would have renamed a new file over it).
    const built = await stat(cache);
    expect(built.size).toBeGreaterThan(100_000);
    await startAndStop();
    expect((await stat(cache)).ino).toBe(built.ino);
    // Damaged; removed; made from another build (its checksum of the bundle is not this one's).
    const otherBuild = async () => {
      const file = await readFile(cache);
      file.writeUInt8(file.readUInt8(3) ^ 1, 3); // one bit of the checksum
      await writeFile(cache, file);
    };
    for (const damage of [() => writeFile(cache, 'not a code cache'), () => rm(cache), otherBuild]) {
      await damage();
      const damaged = await stat(cache).catch(() => null);
      await startAndStop();
      const written = await stat(cache);
      expect(written.ino).not.toBe(damaged?.ino);
      expect(written.size).toBeGreaterThan(100_000);
      await startAndStop();
      expect((await stat(cache)).ino).toBe(written.ino);
    }
  });
});
