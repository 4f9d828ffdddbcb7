import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fixed service identifier of GET /health. */
export const SERVICE_ID = 'hud-automation';

/**
 * The package's own folder and its package.json: walked up to, as this runs from src/ in
 * development and from dist/ when built.
 */
function findPackage(): { root: string; version: string } {
  let dir = new URL('./', import.meta.url);
  for (let depth = 0; depth < 5; depth += 1) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'hud-automation' && typeof pkg.version === 'string') {
        return { root: fileURLToPath(dir), version: pkg.version };
      }
    } catch {
      // Not here: keep walking up.
    }
    dir = new URL('../', dir);
  }
  return { root: fileURLToPath(new URL('../', import.meta.url)), version: '0.0.0' };
}

const found = findPackage();
export const VERSION = found.version;
/** The built pages the application server serves (npm run build writes them). */
export const PAGES_DIR = join(found.root, 'dist', 'pages');
