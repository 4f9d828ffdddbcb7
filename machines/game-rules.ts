/**
 * The live game's rules, as plain computation beside the game machine: which side team A plays
 * (by the team names, else swapped at each half), and what the map's score means for the series.
 * The game machine's actions use them; tests use them on their own.
 */
import type { GameSide } from './game-sides.ts';
import { sideChangesBetween } from './game-sides.ts';
import { mapLabel, normalizeMapName } from './map-names.ts';
import type { MapResult, MatchInput } from './match.machine.ts';

/** What the rules read of the game's map section. */
export interface FrameMapFacts {
  /** As the game names it (de_dust2, workshop/…/de_mirage). */
  name: string;
  /** warmup, live, intermission, gameover. */
  phase: string;
  /** Rounds of the map that are over. */
  round: number;
  ctScore: number;
  tScore: number;
  ctName: string | null;
  tName: string | null;
}

/** The map and round count the sides were last settled at (null: a new map, nothing to swap from). */
export type SidesAt = { map: string; round: number } | null;

/** The rounds of a map in which the sides count: a new round has started (not its end, not half time). */
const ROUND_STARTED = new Set(['freezetime', 'live']);
/**
 * Map phases whose score is recorded: not warm-up, and not half time (nothing scores then, and the
 * side names may already have changed while the sides here change with the next round).
 */
const SCORED = new Set(['live', 'gameover']);

const eqName = (a: string | null | undefined, b: string | null | undefined) =>
  a != null && b != null && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Team A's side when the game's team names say it, else null (the operator's assignment stands). */
export function sideByNames(
  match: Pick<MatchInput, 'teamA' | 'teamB'>,
  ct: string | null,
  t: string | null,
): GameSide | null {
  const a = match.teamA?.name;
  const b = match.teamB?.name;
  if (eqName(a, b)) return null;
  if (eqName(ct, a) || eqName(t, b)) return eqName(t, a) || eqName(ct, b) ? null : 'CT';
  if (eqName(t, a) || eqName(ct, b)) return 'T';
  return null;
}

/** What a frame does to the sides: the match event to send (or none) and where they are settled now. */
export interface SidesDecision {
  event: { type: 'match.sides.set'; teamASide: GameSide } | { type: 'match.sides.swap' } | null;
  /** Team A's side once the event is applied. */
  teamASide: GameSide;
  sidesAt: SidesAt;
}

/** The sides: by the team names when they match team A and team B, else swapped at each half. */
export function settleSides(
  match: Pick<MatchInput, 'teamA' | 'teamB' | 'teamASide'>,
  map: FrameMapFacts,
  roundPhase: string | null,
  sidesAt: SidesAt,
): SidesDecision {
  const named = sideByNames(match, map.ctName, map.tName);
  // The count moves at a round's end; the teams change sides when the next round starts.
  const started = roundPhase === null || ROUND_STARTED.has(roundPhase);
  const previous = sidesAt?.map === map.name ? sidesAt : null;
  const settled = previous?.round === map.round;
  const next = (!previous || started) && !settled ? { map: map.name, round: map.round } : sidesAt;
  if (named) {
    return named === match.teamASide
      ? { event: null, teamASide: named, sidesAt: next }
      : { event: { type: 'match.sides.set', teamASide: named }, teamASide: named, sidesAt: next };
  }
  if (previous && started && sideChangesBetween(previous.round, map.round) % 2 === 1) {
    const swapped: GameSide = match.teamASide === 'CT' ? 'T' : 'CT';
    return { event: { type: 'match.sides.swap' }, teamASide: swapped, sidesAt: next };
  }
  return { event: null, teamASide: match.teamASide, sidesAt: next };
}

/** What a frame's score comes to: the result to store (or none), the series map in play, and why not. */
export interface ScoreDecision {
  result: MapResult | null;
  /** The series map in play (1-based), or null when the map is not in the series. */
  seriesMap: number | null;
  notes: string[];
}

/** The live score onto the series map in play; at game over its final score and finished. */
export function recordScore(
  match: Pick<MatchInput, 'maps'>,
  teamASide: GameSide,
  map: FrameMapFacts,
): ScoreDecision {
  const name = normalizeMapName(map.name);
  const index = name === null ? -1 : match.maps.findIndex((entry) => entry.map === name);
  const entry = match.maps[index];
  if (!entry) {
    const label = name ? mapLabel(name) : map.name;
    const note =
      match.maps.length === 0
        ? `the series has no maps yet: the score of ${label} is not recorded`
        : `${label} is not in the series: its score is not recorded`;
    return { result: null, seriesMap: null, notes: [note] };
  }
  const seriesMap = index + 1;
  const none = { result: null, seriesMap, notes: [] };
  if (!SCORED.has(map.phase)) return none;
  const aOnCt = teamASide === 'CT';
  // The series records 0 to 99 (the payload already refuses a team score below 0 or above 999).
  const scoreA = Math.min(99, aOnCt ? map.ctScore : map.tScore);
  const scoreB = Math.min(99, aOnCt ? map.tScore : map.ctScore);
  const sameScore = entry.scoreA === scoreA && entry.scoreB === scoreB;
  if (map.phase === 'gameover') {
    if (entry.finished && sameScore) return none;
    if (scoreA === scoreB) {
      const note = `${mapLabel(entry.map)} ended ${scoreA}-${scoreB}: a draw is not recorded as finished`;
      return { result: null, seriesMap, notes: [note] };
    }
    return { result: { index, scoreA, scoreB, finished: true }, seriesMap, notes: [] };
  }
  if (entry.finished) {
    const note = `map ${seriesMap} (${mapLabel(entry.map)}) is finished: the live score is not recorded`;
    return { result: null, seriesMap, notes: [note] };
  }
  return sameScore ? none : { result: { index, scoreA, scoreB }, seriesMap, notes: [] };
}

/**
 * Which game sends the frames, and so which console commands move its camera: CS2 (the default) or
 * CS:GO (the csgo_legacy branch, for recorded frames). src/game/slots.ts reads it off the provider version.
 */
export type GameDialect = 'cs2' | 'csgo';
