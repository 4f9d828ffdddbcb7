/**
 * CS2's loss bonus: what each player of a team gets if it loses the coming round, from the team's
 * loss counter as the game sends it (`map.team_ct.consecutive_round_losses`). The game's defaults:
 * cash_team_loser_bonus 1400, cash_team_loser_bonus_consecutive_rounds 500, at most 4 steps
 * (mp_consecutive_loss_max): $1,400, $1,900, $2,400, $2,900, $3,400. The counter goes up one per
 * loss and down one per win (not back to zero); docs/game-data.md gives the sources.
 */
export const LOSS_BONUS_BASE = 1400;
export const LOSS_BONUS_STEP = 500;
export const LOSS_BONUS_MAX_STEPS = 4;

export const lossBonus = (losses: number): number =>
  LOSS_BONUS_BASE + LOSS_BONUS_STEP * Math.min(Math.max(0, losses), LOSS_BONUS_MAX_STEPS);
