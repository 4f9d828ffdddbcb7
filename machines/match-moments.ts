/**
 * The moments of a map that get a card on air (issue 35): half-time, map point, match point and
 * timeouts. Plain computation over the score and the series, used by the overlay; no imports.
 *
 * CS2's competitive format: MR12, a map is won with 13 rounds; at 12:12 overtime starts, blocks of
 * 6 rounds (MR3), a block won with 4 of its rounds; at 3:3 in a block the next block starts.
 */

/** Rounds of regulation to win a map, and the half of an overtime block. */
export const REGULATION_WIN = 13;
export const OVERTIME_HALF = 3;

/** The rounds a team needs to win the map at this score (13 in regulation, 16, 19 … in overtime). */
export function roundsToWin(a: number, b: number): number {
  const low = Math.min(a, b);
  if (low < REGULATION_WIN - 1) return REGULATION_WIN;
  // Overtime block k (1, 2 …) starts at 12 + 3(k - 1) each and is won at 4 more.
  const block = Math.floor((low - (REGULATION_WIN - 1)) / OVERTIME_HALF) + 1;
  return REGULATION_WIN - 1 + OVERTIME_HALF * (block - 1) + OVERTIME_HALF + 1;
}

/** Which team wins the map with one more round (A, B), or null. Never both: a tie goes on. */
export function mapPointOf(a: number, b: number): 'A' | 'B' | null {
  const target = roundsToWin(a, b);
  if (a === target - 1 && b < target - 1) return 'A';
  if (b === target - 1 && a < target - 1) return 'B';
  return null;
}

/** Maps a team needs to win a series of this many maps (bo3: 2). */
export const mapsToWin = (bestOf: number): number => Math.floor(bestOf / 2) + 1;

/** Whether winning the map in play wins the series: the team has all the maps it needs but one. */
export const winsSeriesWithMap = (seriesScore: number, bestOf: number): boolean =>
  seriesScore === mapsToWin(bestOf) - 1;

export type Moment =
  | { kind: 'timeout'; type: 'tactical'; side: 'CT' | 'T'; left: number | null }
  | { kind: 'timeout'; type: 'technical' }
  | { kind: 'halftime' }
  | { kind: 'map-point' | 'match-point'; team: 'A' | 'B' };

export type MomentKind = Moment['kind'];

export interface MomentFacts {
  /** The map's phase: warmup, live, intermission, gameover. */
  mapPhase: string;
  /** The clock's phase: freezetime, live, over, bomb, defuse, paused, timeout_ct, timeout_t. */
  roundPhase: string;
  /** The map's round score of team A and team B. */
  scoreA: number;
  scoreB: number;
  /** Maps won in the series, and the series' length (1 for a bo1). */
  seriesA: number;
  seriesB: number;
  bestOf: number;
  ctTimeouts: number | null;
  tTimeouts: number | null;
}

/**
 * The moment on air now, by the game's state, the most pressing first: a timeout (tactical, by the
 * side that called it, with its timeouts left; technical: the match paused); half-time (the map's
 * intermission); then during freeze time, before the round that can decide it, match point (the
 * map decides the series) or map point. Null otherwise.
 */
export function momentOf(facts: MomentFacts): Moment | null {
  if (facts.mapPhase === 'warmup' || facts.mapPhase === 'gameover') return null;
  if (facts.roundPhase === 'timeout_ct' || facts.roundPhase === 'timeout_t') {
    const side = facts.roundPhase === 'timeout_ct' ? 'CT' : 'T';
    return {
      kind: 'timeout',
      type: 'tactical',
      side,
      left: side === 'CT' ? facts.ctTimeouts : facts.tTimeouts,
    };
  }
  if (facts.roundPhase === 'paused') return { kind: 'timeout', type: 'technical' };
  if (facts.mapPhase === 'intermission') return { kind: 'halftime' };
  if (facts.roundPhase !== 'freezetime') return null;
  const team = mapPointOf(facts.scoreA, facts.scoreB);
  if (!team) return null;
  const series = team === 'A' ? facts.seriesA : facts.seriesB;
  return { kind: winsSeriesWithMap(series, facts.bestOf) ? 'match-point' : 'map-point', team };
}
