/**
 * The versus scene's lineups (docs/teams-and-players.md, "The versus scene"): computed here, from the
 * match and the database of teams and players, so every open scene gets a change of either with a
 * revision, as any other state.
 */
import type { Team } from '../../machines/veto-rules.ts';
import type { Lineups, PlayerRecord, TeamsDocument } from '../protocol/teams.ts';

/** The players (never the coach) of the saved team named `name` (any case), in the database's order. */
function lineupOf(name: string | undefined, document: TeamsDocument): PlayerRecord[] {
  const wanted = name?.toLowerCase();
  if (!wanted) return [];
  const team = document.teams.find((entry) => entry.name.toLowerCase() === wanted);
  if (!team) return [];
  return document.players.filter((player) => player.team === team.id && player.role === 'player');
}

export const lineupsOf = (teamA: Team | null, teamB: Team | null, document: TeamsDocument): Lineups => ({
  A: lineupOf(teamA?.name, document),
  B: lineupOf(teamB?.name, document),
});
