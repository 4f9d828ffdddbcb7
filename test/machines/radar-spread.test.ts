/**
 * Discs of players standing together spread apart (machines/radar-spread.ts): no two closer than a
 * disc's width afterwards, far ones untouched, the same places give the same picture.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadDiscs } from '../../machines/radar-spread.ts';

const GAP = 64;
const minDistance = (placed: Map<number, { x: number; y: number }>) => {
  const list = [...placed.values()];
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const a = list[i] as { x: number; y: number };
      const b = list[j] as { x: number; y: number };
      min = Math.min(min, Math.hypot(a.x - b.x, a.y - b.y));
    }
  return min;
};

describe('spreading the radar discs', () => {
  it('five players in one spot (a spawn): every disc apart, each number readable', () => {
    const spawn = [1, 2, 3, 4, 5].map((id) => ({ id, x: 500, y: 500 }));
    const placed = spreadDiscs(spawn, GAP);
    expect(minDistance(placed)).toBeGreaterThan(GAP * 0.95);
    // Still around the spot: no disc thrown far away.
    for (const { x, y } of placed.values()) expect(Math.hypot(x - 500, y - 500)).toBeLessThan(GAP * 2);
    expect(spreadDiscs(spawn, GAP)).toEqual(placed);
  });

  it('discs far apart stay where they are', () => {
    const far = [
      { id: 1, x: 100, y: 100 },
      { id: 2, x: 300, y: 100 },
      { id: 6, x: 700, y: 800 },
    ];
    const placed = spreadDiscs(far, GAP);
    for (const disc of far) expect(placed.get(disc.id)).toEqual({ x: disc.x, y: disc.y });
  });

  it('any ten players: no two discs overlap by more than a few percent afterwards', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ x: fc.integer({ min: 300, max: 700 }), y: fc.integer({ min: 300, max: 700 }) }),
          {
            minLength: 2,
            maxLength: 10,
          },
        ),
        (points) => {
          const placed = spreadDiscs(
            points.map((point, id) => ({ id, ...point })),
            GAP,
            40,
          );
          expect(minDistance(placed)).toBeGreaterThan(GAP * 0.9);
        },
      ),
      { numRuns: 200 },
    );
  });
});
