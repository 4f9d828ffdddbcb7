/**
 * The saved lineups the versus scene shows (docs/teams-and-players.md): the server computes them from
 * the match's teams and the database of teams and players and sends them as state (the `lineups`
 * stream), so a player saved, renamed or given a photo while the scene is open shows at once, and a
 * scene that reconnects gets them with the snapshot.
 */
import { computed } from '@preact/signals';
import type { PlayerRecord } from '../../protocol/index.ts';
import type { Side } from '../common/broadcast.ts';
import { lineups } from '../common/store.ts';

export const LINEUPS: Record<Side, { readonly value: readonly PlayerRecord[] }> = {
  A: computed(() => lineups.value.A),
  B: computed(() => lineups.value.B),
};
