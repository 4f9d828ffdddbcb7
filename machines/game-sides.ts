/**
 * The game's sides and when the teams change them. Pure rules beside the match machine: the game
 * data service and the tests use the same ones.
 *
 * CS2 premier and competitive play MR12 (`mp_maxrounds 24`): the teams change sides after round 12.
 * Overtime is MR3 (`mp_overtime_maxrounds 6`): the teams keep their sides into each overtime and
 * change them after its third round (Valve's `CCSGameRules::AreTeamsPlayingSwitchedSides` and the
 * overtime rules of the CS2 Major rulebook; see docs/game-data.md).
 */
export const GAME_SIDES = ['CT', 'T'] as const;
export type GameSide = (typeof GAME_SIDES)[number];

export const otherSide = (side: GameSide): GameSide => (side === 'CT' ? 'T' : 'CT');

export interface HalfRules {
  /** Rounds of regulation (24 for MR12). */
  maxRounds: number;
  /** Rounds of one overtime (6 for MR3). */
  overtimeMaxRounds: number;
}

export const MR12: HalfRules = { maxRounds: 24, overtimeMaxRounds: 6 };

/**
 * Whether the teams play on the other sides than in the first half, after `roundsPlayed` rounds:
 * regulation's second half is switched; in overtime the first half keeps the side the teams ended
 * the previous period on, and its second half switches.
 */
export function sidesSwitched(roundsPlayed: number, rules: HalfRules = MR12): boolean {
  const half = rules.maxRounds / 2;
  if (roundsPlayed < half) return false;
  if (roundsPlayed < rules.maxRounds) return true;
  // Each overtime keeps the sides the previous period ended on and switches after its first half:
  // regulation ends switched, so overtime n starts switched when n is even.
  const intoOvertime = roundsPlayed - rules.maxRounds;
  const overtime = Math.floor(intoOvertime / rules.overtimeMaxRounds);
  const secondHalf = intoOvertime % rules.overtimeMaxRounds >= rules.overtimeMaxRounds / 2;
  return (overtime % 2 === 0) !== secondHalf;
}

/** How many side changes happen when the game's round count goes from `before` to `after`. */
export function sideChangesBetween(before: number, after: number, rules: HalfRules = MR12): number {
  if (after <= before) return 0;
  let changes = 0;
  for (let played = before + 1; played <= after; played++) {
    if (sidesSwitched(played, rules) !== sidesSwitched(played - 1, rules)) changes++;
  }
  return changes;
}
