/**
 * Builds the pages once before the tests: the application server serves dist/pages, and the
 * browser tests load them. A second or so with Vite.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export default async function setup(): Promise<void> {
  await build({ configFile: fileURLToPath(new URL('../src/pages/vite.config.ts', import.meta.url)) });
}
