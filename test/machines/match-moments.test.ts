/**
 * The moments of a map (machines/match-moments.ts): rounds to win in regulation and overtime, map
 * point, match point by the series, timeouts and half-time, each in its place in the order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MomentFacts } from '../../machines/match-moments.ts';
import {
  mapPointOf,
  mapsToWin,
  momentOf,
  roundsToWin,
  winsSeriesWithMap,
} from '../../machines/match-moments.ts';

const FACTS: MomentFacts = {
  mapPhase: 'live',
  roundPhase: 'freezetime',
  scoreA: 0,
  scoreB: 0,
  seriesA: 0,
  seriesB: 0,
  bestOf: 3,
  ctTimeouts: 3,
  tTimeouts: 2,
};

describe('the moments of a map', () => {
  it('a map is won at 13, then at 16, 19 … in overtime', () => {
    expect(roundsToWin(0, 0)).toBe(13);
    expect(roundsToWin(12, 11)).toBe(13);
    expect(roundsToWin(12, 12)).toBe(16);
    expect(roundsToWin(15, 14)).toBe(16);
    expect(roundsToWin(15, 15)).toBe(19);
    expect(roundsToWin(18, 17)).toBe(19);
    expect(roundsToWin(18, 18)).toBe(22);
  });

  it('map point: one round from winning, never at a tie', () => {
    expect(mapPointOf(12, 3)).toBe('A');
    expect(mapPointOf(11, 12)).toBe('B');
    expect(mapPointOf(11, 11)).toBeNull();
    expect(mapPointOf(12, 12)).toBeNull();
    expect(mapPointOf(15, 13)).toBe('A');
    expect(mapPointOf(15, 15)).toBeNull();
    expect(mapPointOf(17, 18)).toBe('B');
  });

  it('whatever the score, a map point team wins the map with the next round and the other does not', () => {
    fc.assert(
      fc.property(fc.nat(40), fc.nat(40), (a, b) => {
        const team = mapPointOf(a, b);
        if (team === 'A') expect(roundsToWin(a + 1, b)).toBe(a + 1);
        if (team === 'B') expect(roundsToWin(a, b + 1)).toBe(b + 1);
        if (team === null) {
          const target = roundsToWin(a, b);
          expect(a + 1 === target && b < target - 1).toBe(false);
          expect(b + 1 === target && a < target - 1).toBe(false);
        }
      }),
    );
  });

  it('match point when the map decides the series', () => {
    expect(mapsToWin(1)).toBe(1);
    expect(mapsToWin(3)).toBe(2);
    expect(mapsToWin(5)).toBe(3);
    expect(winsSeriesWithMap(0, 1)).toBe(true);
    expect(winsSeriesWithMap(1, 3)).toBe(true);
    expect(winsSeriesWithMap(0, 3)).toBe(false);
    expect(momentOf({ ...FACTS, scoreA: 12, scoreB: 8 })).toEqual({ kind: 'map-point', team: 'A' });
    expect(momentOf({ ...FACTS, scoreA: 12, scoreB: 8, seriesA: 1 })).toEqual({
      kind: 'match-point',
      team: 'A',
    });
    expect(momentOf({ ...FACTS, scoreA: 8, scoreB: 12, seriesA: 1 })).toEqual({
      kind: 'map-point',
      team: 'B',
    });
    expect(momentOf({ ...FACTS, scoreA: 8, scoreB: 12, bestOf: 1 })).toEqual({
      kind: 'match-point',
      team: 'B',
    });
    // Only before the round: not while it is played.
    expect(momentOf({ ...FACTS, roundPhase: 'live', scoreA: 12, scoreB: 8 })).toBeNull();
  });

  it('a timeout before anything else; half-time at the intermission; nothing in warm-up or once over', () => {
    expect(momentOf({ ...FACTS, roundPhase: 'timeout_t', scoreA: 12 })).toEqual({
      kind: 'timeout',
      type: 'tactical',
      side: 'T',
      left: 2,
    });
    expect(momentOf({ ...FACTS, roundPhase: 'timeout_ct' })).toMatchObject({ side: 'CT', left: 3 });
    expect(momentOf({ ...FACTS, roundPhase: 'paused' })).toEqual({ kind: 'timeout', type: 'technical' });
    expect(momentOf({ ...FACTS, mapPhase: 'intermission', roundPhase: 'over' })).toEqual({
      kind: 'halftime',
    });
    expect(momentOf({ ...FACTS, mapPhase: 'warmup', roundPhase: 'paused' })).toBeNull();
    expect(momentOf({ ...FACTS, mapPhase: 'gameover', roundPhase: 'over', scoreA: 13 })).toBeNull();
    expect(momentOf({ ...FACTS, roundPhase: 'live' })).toBeNull();
  });
});
