/**
 * Builds the CLI for `npm start`: one ESM bundle (dist/cli.js) with its dependencies inlined, so
 * Node loads a few files at start-up instead of several hundred (start-up about 1.35x a bare
 * Fastify server instead of 2.2x, docs/performance.md). What loads lazily (the importers, the
 * inspector) stays in chunks of its own.
 */
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

// --outdir lets a test build its own copy without racing the bench over dist/.
const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
const outdir = values.outdir;
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  // ws loads these native speed-ups if present, and works without them.
  external: ['bufferutil', 'utf-8-validate'],
  // Some dependencies are CommonJS: they call require() for Node's own modules and read __filename.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      "const __dirname = __fileURLToPath(new URL('.', import.meta.url));",
    ].join('\n'),
  },
  logLevel: 'warning',
});
