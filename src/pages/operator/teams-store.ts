/**
 * The database of teams and players as the operator app holds it: read with GET /api/teams and
 * /api/players (the application server, signed in) when a view opens and after each change it
 * makes; the commands change it (save_team, save_player …).
 */
import { signal } from '@preact/signals';
import type { PlayerRecord, TeamView } from '../../protocol/index.ts';
import { request } from './api.ts';

export const savedTeams = signal<readonly TeamView[]>([]);
export const savedPlayers = signal<readonly PlayerRecord[]>([]);
export const teamsError = signal<string | null>(null);

export async function loadTeams(): Promise<void> {
  const [teams, players] = await Promise.all([
    request<{ teams: TeamView[] }>('GET', '/api/teams'),
    request<{ players: PlayerRecord[] }>('GET', '/api/players'),
  ]);
  if (!teams.ok) teamsError.value = teams.message;
  else if (!players.ok) teamsError.value = players.message;
  else {
    teamsError.value = null;
    savedTeams.value = teams.teams;
    savedPlayers.value = players.players;
  }
}
