import { readFileSync } from 'node:fs';

/** The fixed service identifier of GET /health. */
export const SERVICE_ID = 'hud-automation';

/** The version in package.json: walked up to, as this runs from src/ in development and dist/src/ when built. */
function readPackageVersion(): string {
  let dir = new URL('./', import.meta.url);
  for (let depth = 0; depth < 5; depth += 1) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'hud-automation' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not here: keep walking up.
    }
    dir = new URL('../', dir);
  }
  return '0.0.0';
}

export const VERSION = readPackageVersion();
