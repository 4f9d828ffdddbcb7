/**
 * A clean install is clean: `npm ci` on the oldest Node the package supports prints no EBADENGINE
 * warning, because every package in the lock file accepts that Node (issue 10, item 9: one
 * dependency once needed Node 22).
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  engines?: { node?: string } | string[];
}
const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const project = read('package.json') as { engines: { node: string } };
const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };

describe('engines', () => {
  it('every locked package accepts the oldest Node this project supports', () => {
    const oldest = semver.minVersion(project.engines.node)?.version;
    expect(oldest).toBe('20.19.0');
    const refusing = Object.entries(lock.packages)
      .map(([path, entry]) => ({
        path,
        node: Array.isArray(entry.engines) ? undefined : entry.engines?.node,
      }))
      .filter(({ node }) => node !== undefined && !semver.satisfies(oldest as string, node));
    expect(refusing).toEqual([]);
    // The check reads real engine ranges (fastify's own, for one), not an empty list.
    expect(Object.values(lock.packages).filter((entry) => entry.engines).length).toBeGreaterThan(20);
  });
});
