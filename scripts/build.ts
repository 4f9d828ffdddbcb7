/**
 * Builds the CLI for `npm start`: dist/server.cjs, one CommonJS bundle of the CLI with its
 * dependencies inlined, so Node reads one file at start instead of several hundred; and dist/cli.js,
 * the launcher that runs it with V8's code cache (src/launcher.ts; start-up and why CommonJS:
 * docs/performance.md, "Start-up"). What only some runs use stays out of the bundle and is loaded
 * from node_modules when first used: the HTML parser of the importers (cheerio, with undici), the
 * readable log lines (pino-pretty) and the inspector's client; our own lazily imported modules
 * (the importers, gsi-config) are in the bundle but evaluated only when first imported.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

// --outdir lets a test build its own copy without racing the bench over dist/.
const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
const outdir = values.outdir;
await rm(outdir, { recursive: true, force: true });
const common = { bundle: true, platform: 'node', target: 'node20.19', logLevel: 'warning' } as const;
await build({
  ...common,
  entryPoints: { server: 'src/cli.ts' },
  outdir,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  sourcemap: true,
  external: [
    // Loaded when first used (above).
    'cheerio',
    'undici',
    'pino-pretty',
    '@statelyai/inspect',
    // ws loads these native speed-ups if present, and works without them.
    'bufferutil',
    'utf-8-validate',
  ],
  // What waits for its first use is require()d then (from node_modules, like any module beside the
  // bundle): a script run through vm.Script with V8's cached data cannot import() on Node 20.
  supported: { 'dynamic-import': false },
  // The sources are ES modules: the one that reads import.meta.url (src/version.ts, to find the package) gets the bundle's.
  define: { 'import.meta.url': '__bundle_url' },
  // One function of CommonJS's wrapper's arguments, which the launcher runs (src/launcher.ts).
  banner: {
    js: [
      '(function (exports, require, module, __filename, __dirname) {',
      "const __bundle_url = require('node:url').pathToFileURL(__filename).href;",
    ].join('\n'),
  },
  footer: { js: '})' },
});
await build({ ...common, entryPoints: { cli: 'src/launcher.ts' }, outdir, format: 'esm' });

// The bundle in ASCII: esbuild escapes what it must in code, but keeps comments as written, and a
// few dependencies' comments hold a dash, a quote mark or an accented name. An ASCII file becomes a
// one-byte string at once; a few such characters make Node decode 3.3 MB as UTF-8 into a two-byte
// string, 10 ms of every start (src/launcher.ts). Escaped: text in a comment, the same character
// in a string or a pattern. (Source maps shift by a few columns on those comment lines only.)
const bundle = join(outdir, 'server.cjs');
const text = await readFile(bundle, 'utf8');
await writeFile(
  bundle,
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
);

// One start of what was built, on ports of its own and a throw-away data directory: the launcher
// keeps the code that start compiled as V8's code cache (src/launcher.ts), so the first start after
// a build (every `npm start`) is as quick as the ones after it. A bundle that cannot start fails the build.
const dataDir = await mkdtemp(join(tmpdir(), 'hud-automation-build-'));
try {
  const flags = ['--headless', '--no-obs', '--port', '0', '--app-port', '0', '--log-level', 'warn'];
  const child = spawn(process.execPath, [join(outdir, 'cli.js'), 'serve', ...flags, '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 60_000,
  });
  const exited = once(child, 'exit');
  const lines: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    lines.push(line);
    if (line === 'hud-automation ready') break;
  }
  if (lines.at(-1) !== 'hud-automation ready')
    throw new Error(`the built CLI did not start:\n${lines.join('\n')}`);
  child.kill('SIGTERM');
  await exited;
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
