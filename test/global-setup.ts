/**
 * Before the tests: builds the pages (the application server serves dist/pages, and the browser
 * tests load them; a second or so with Vite), and, when the edge tier runs, the CLI once as
 * `npm start` runs it (scripts/build.ts into dist-test-cli/): the tests that run the CLI or a server
 * in a child process start that bundle, about 0.1 s of CPU a start instead of 1.2 s through tsx
 * (docs/testing.md).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the edge tier's CLI is built: its own folder, so neither the bench's dist/ nor build.test.ts's is raced. */
const CLI_OUT = 'dist-test-cli';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built CLI (dist-test-cli/cli.js), or '' when this run has no edge tier. */
    builtCli: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const edge = project.vitest.projects.some((each) => each.name === 'edge');
  await Promise.all([
    build({ configFile: fileURLToPath(new URL('../src/pages/vite.config.ts', import.meta.url)) }),
    edge
      ? promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--outdir', CLI_OUT], {
          cwd: ROOT,
        })
      : null,
  ]);
  project.provide('builtCli', edge ? `${ROOT}${CLI_OUT}/cli.js` : '');
}
