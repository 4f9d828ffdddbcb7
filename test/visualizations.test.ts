import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderVisualizations, visualizationsDir } from '../scripts/visualize.ts';

// The committed diagrams are documentation people read on GitHub without running anything: they
// must say what the machines in machines/catalog.ts do today.
describe('visualizations/', () => {
  const expected = renderVisualizations();

  it.each([...expected.keys()])('%s matches the machines', (fileName) => {
    const path = join(visualizationsDir, fileName);
    const actual = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    expect(
      actual,
      `visualizations/${fileName} is ${actual === undefined ? 'missing' : 'stale'}: run npm run visualize`,
    ).toBe(expected.get(fileName));
  });

  it('holds no diagram of a machine that is no longer in the catalog', () => {
    const present = existsSync(visualizationsDir) ? readdirSync(visualizationsDir) : [];
    const extra = present.filter((fileName) => fileName.endsWith('.md') && !expected.has(fileName));
    expect(
      extra,
      'visualizations/ has files no machine renders: run npm run visualize (it removes generated ones; move hand-written ones elsewhere)',
    ).toEqual([]);
  });
});
