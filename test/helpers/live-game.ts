/**
 * The game data of a live match for tests that need players in HUD slots: the pro GOTV capture
 * (FaZe Clan vs Natus Vincere on de_dust2, test/fixtures) as CS2 posts it, with the cfg's token.
 */
import { expect } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { FAZE_NAVI, fixture, postFrame, toCs2, withToken } from './gsi.ts';

/** Who plays in which HUD slot in that capture (FaZe on CT in 1-5, NAVI on T in 6-9 and 0). */
export const LIVE_PLAYERS = {
  Twistzz: { slot: 1, steamid: '76561198016255205' },
  broky: { slot: 2, steamid: '76561198201620490' },
  rain: { slot: 3, steamid: '76561197997351207' },
  ropz: { slot: 4, steamid: '76561197991272318' },
  karrigan: { slot: 5, steamid: '76561197989430253' },
  b1t: { slot: 6, steamid: '76561198246607476' },
  s1mple: { slot: 7, steamid: '76561198034202275' },
  Perfecto: { slot: 8, steamid: '76561198121220486' },
  Boombl4: { slot: 9, steamid: '76561198146207066' },
  electronic: { slot: 0, steamid: '76561198044045107' },
} as const;

/** POSTs the capture's frame to the server's /gsi: ten players with a map, s1mple observed. */
export async function postLiveGame(server: RunningServer): Promise<void> {
  const frame = withToken(toCs2(await fixture(FAZE_NAVI)), server.service.game.token);
  const answer = await postFrame(server.applicationPort, frame);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}
