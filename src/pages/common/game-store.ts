/**
 * Live game data on the pages: one signal for the live view (round, clock, bomb, players, the
 * observed player) and one for the status the operator app shows. Filled from `game` messages:
 * a full one after hello, then only what changed.
 */
import { signal } from '@preact/signals';
import type { GameLive, GameMessage, GamePlayer, GameStatus } from '../../protocol/index.ts';

export const gameLive = signal<GameLive>({
  map: null,
  round: null,
  bomb: null,
  observed: null,
  players: {},
  grenades: [],
  killfeed: [],
});
export const gameStatus = signal<GameStatus | null>(null);
/** The page's clock minus the server's, from the last message: how old the server's times are here. */
export const serverClockOffset = signal(0);

export function applyGameMessage(message: GameMessage): void {
  serverClockOffset.value = Date.now() - message.now;
  if (message.status) gameStatus.value = message.status;
  const live = message.live;
  if (!live) return;
  if (message.full) {
    gameLive.value = live as GameLive;
    return;
  }
  const before = gameLive.value;
  const players: Record<string, GamePlayer> = { ...before.players };
  for (const [steamid, player] of Object.entries(live.players ?? {})) {
    if (player === null) delete players[steamid];
    else players[steamid] = player;
  }
  gameLive.value = {
    map: live.map === undefined ? before.map : live.map,
    round: live.round === undefined ? before.round : live.round,
    bomb: live.bomb === undefined ? before.bomb : live.bomb,
    observed: live.observed === undefined ? before.observed : live.observed,
    players,
    grenades: live.grenades ?? before.grenades,
    killfeed: live.killfeed ?? before.killfeed,
  };
}
