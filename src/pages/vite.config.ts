/**
 * The pages the application server serves (the operator app, the HUD overlay, the scene pages, /observer, /machines), built by `npm run build` into dist/pages. Everything they load is bundled: no CDN.
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
    // The flags (common/flag.tsx) stay files, loaded one by one when shown, not 271 inlined in the code.
    assetsInlineLimit: (file: string) => (file.includes('/flag-icons/') ? false : undefined),
    rollupOptions: {
      input: {
        operator: fileURLToPath(new URL('./index.html', import.meta.url)),
        hud: fileURLToPath(new URL('./hud.html', import.meta.url)),
        scene: fileURLToPath(new URL('./scene.html', import.meta.url)),
        observer: fileURLToPath(new URL('./observer.html', import.meta.url)),
        // The Machines view alone, for a second screen (/machines).
        machines: fileURLToPath(new URL('./machines.html', import.meta.url)),
      },
    },
  },
});
