import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
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
    const { rm } = await import('node:fs/promises');
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

  // What waits for its first use stays out of the files Node compiles at start (docs/performance.md,
  // "Start-up"): one static import of any of them would bring it back into every start.
  it('loads at start none of the packages that wait for their first use', async () => {
    const eager = new Set<string>();
    const visit = async (file: string): Promise<string> => {
      if (eager.has(file)) return '';
      eager.add(file);
      const text = await readFile(`${ROOT}${OUT}/${file}`, 'utf8');
      // Static imports only (`import … from "./x.js"`, `import "./x.js"`), not import("./x.js").
      const imported = [...text.matchAll(/(?:\bfrom|^import)\s*"\.\/([^"]+\.js)"/gm)].map(([, name]) => name);
      return [text, ...(await Promise.all(imported.map((name) => visit(name ?? ''))))].join('\n');
    };
    const loaded = await visit('cli.js');
    // esbuild names each package's files in a comment: what the start needs is found that way.
    expect(loaded).toContain('node_modules/fastify/');
    // (@fastify/send is loaded at start: @fastify/static serves the pages, as the design asks; and
    // rate-limiter-flexible: loaded with the first remote request, a burst's first frames were read
    // before the limiter could count them.)
    const lazy = ['cheerio', 'undici', 'pino-pretty'];
    expect(lazy.filter((name) => loaded.includes(`node_modules/${name}/`))).toEqual([]);
  });
});
