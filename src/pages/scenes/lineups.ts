/**
 * The saved lineups the versus scene shows (docs/teams-and-players.md): the database read from the
 * application server when the scene opens and whenever the match's teams change, with the page's
 * own credential (a scene from the local network carries the view key in its address). A read that
 * fails leaves the lineups as they were: the scene never shows an error.
 */
import { computed, effect, signal } from '@preact/signals';
import type { PlayerRecord, TeamView } from '../../protocol/index.ts';
import type { Side } from '../common/broadcast.ts';
import { match } from '../common/store.ts';

const saved = signal<{ teams: readonly TeamView[]; players: readonly PlayerRecord[] }>({
  teams: [],
  players: [],
});

async function read<T>(path: string): Promise<T | null> {
  const view = new URLSearchParams(window.location.search).get('view');
  try {
    const response = await fetch(view ? `${path}?view=${encodeURIComponent(view)}` : path, {
      credentials: 'same-origin',
    });
    const body = (await response.json()) as { ok: boolean } & T;
    return body.ok ? body : null;
  } catch {
    return null;
  }
}

async function reload(): Promise<void> {
  const [teams, players] = await Promise.all([
    read<{ teams: TeamView[] }>('/api/teams'),
    read<{ players: PlayerRecord[] }>('/api/players'),
  ]);
  if (teams && players) saved.value = { teams: teams.teams, players: players.players };
}

/** The match's team names: a change reads the database again. */
const teamNames = computed(() => `${match.value?.teamA?.name ?? ''}\n${match.value?.teamB?.name ?? ''}`);
let lastNames: string | null = null;
effect(() => {
  const names = teamNames.value;
  if (names === lastNames) return;
  lastNames = names;
  void reload();
});

/** The players (never the coach) of the saved team a side of the match names, in lineup order. */
export const lineupOf = (side: Side) =>
  computed<PlayerRecord[]>(() => {
    const name = (side === 'A' ? match.value?.teamA?.name : match.value?.teamB?.name)?.toLowerCase();
    if (!name) return [];
    const team = saved.value.teams.find((entry) => entry.name.toLowerCase() === name);
    if (!team) return [];
    const byId = new Map(saved.value.players.map((player) => [player.id, player]));
    return team.lineup
      .map((id) => byId.get(id))
      .filter((player): player is PlayerRecord => player !== undefined);
  });

export const LINEUPS = { A: lineupOf('A'), B: lineupOf('B') };
