/**
 * Commands about the game data: the sides of team A and team B, and the player whose stats
 * toggle_stats and show_stats open (the observed one unless the operator picks one).
 */
import { Type } from '@sinclair/typebox';
import { otherSide } from '../../../machines/game-sides.ts';
import { strict } from '../../protocol/schemas.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';

const swapSides = defineCommand({
  id: 'swap_sides',
  description:
    "Swaps the game sides of team A and team B (the game data swaps them by itself at half time and each overtime half, and follows the game's team names when they match).",
  payload: null,
  needsMainWindow: false,
  stateKeys: ['sides'],
  run: ({ hud }) => {
    hud.send('match', { type: 'match.sides.swap' });
    const teamA = hud.snapshot('match').context.teamASide;
    return { teamA, teamB: otherSide(teamA) };
  },
});

const setStatsPlayer = defineCommand({
  id: 'set_stats_player',
  description:
    'Picks the player whose stats toggle_stats and show_stats open, by HUD slot (1 to 9, 0 for the tenth); null follows the observed player again.',
  payload: Type.Object(
    {
      slot: Type.Union([Type.Integer({ minimum: 0, maximum: 9 }), Type.Null()], {
        description: 'HUD slot, or null for the observed player',
      }),
    },
    strict,
  ),
  needsMainWindow: false,
  stateKeys: [],
  run: ({ game }, { slot }) => {
    game.pickStatsPlayer(slot);
    const current = game.statsSlot();
    return {
      slot: current,
      follows: slot === null ? 'observed' : 'pick',
      player: current === null ? null : game.playerInSlot(current),
    };
  },
});

export const gameCommands: AnyCommand[] = [swapSides, setStatsPlayer];
