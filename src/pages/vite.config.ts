/**
 * The pages the application server serves (the operator app now; the HUD overlay and the scene
 * pages later), built by `npm run build` into dist/pages. Everything they load is bundled: no CDN.
 */
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  plugins: [preact()],
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/pages', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: { operator: fileURLToPath(new URL('./index.html', import.meta.url)) },
    },
  },
});
