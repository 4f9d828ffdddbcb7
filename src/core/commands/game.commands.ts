import { otherSide } from '../../../machines/game-sides.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';
import { recorded } from './history.commands.ts';

const swapSides = defineCommand('swap_sides', {
  run: (context) => {
    const { hud } = context;
    const match = hud.snapshot('match').context;
    const label = `Swap sides: ${match.teamA?.name ?? 'Team A'} on ${otherSide(match.teamASide)}`;
    recorded(context, label, () => hud.send('match', { type: 'match.sides.swap' }));
    const teamA = hud.snapshot('match').context.teamASide;
    return { teamA, teamB: otherSide(teamA) };
  },
});

const setStatsPlayer = defineCommand('set_stats_player', {
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
