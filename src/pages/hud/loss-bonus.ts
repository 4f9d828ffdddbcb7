/**
 * CS2's loss bonus: what each player of a team gets if it loses the coming round, from the side's
 * loss counter as the game sends it (`map.team_ct.consecutive_round_losses`): $1,400, and $500 more
 * per step of the counter, four steps at most ($1,900, $2,400, $2,900, $3,400). The counter goes up
 * one per loss and down one per win; docs/game-data.md gives the sources.
 */
export const LOSS_BONUS_BASE = 1400;
export const LOSS_BONUS_STEP = 500;
export const LOSS_BONUS_MAX_STEPS = 4;

export const lossBonus = (losses: number): number =>
  LOSS_BONUS_BASE + LOSS_BONUS_STEP * Math.min(Math.max(0, losses), LOSS_BONUS_MAX_STEPS);
