/**
 * The overlay's live signals (src/pages/hud/live.ts) as the components read them: a step or a turn
 * changes the player the radar reads and not the one the boxes, rows and stats panel read, so a
 * frame in which players only move re-renders the radar's dots and nothing else (issue 23). The
 * browser test (hud-live.test.ts) checks that such a frame changes nothing outside the radar.
 */
import { effect } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { applyGameMessage } from '../../src/pages/common/game-store.ts';
import { observedPlayerStats, playerInSlot, playerStatsInSlot } from '../../src/pages/hud/live.ts';
import type { GamePlayer } from '../../src/protocol/index.ts';

const ak47 = { name: 'weapon_ak47', type: 'Rifle', active: true, ammoClip: 6, ammoReserve: 90 };
const player: GamePlayer = {
  steamid: '76561198034202275',
  name: 's1mple',
  gameName: 's1mple',
  playerId: null,
  realName: '',
  country: null,
  photo: null,
  slot: 7,
  side: 'T',
  health: 90,
  armor: 100,
  helmet: true,
  defuseKit: false,
  money: 0,
  equipValue: 3900,
  kills: 4,
  deaths: 9,
  assists: 2,
  mvps: 0,
  roundKills: 0,
  roundDamage: 0,
  adr: 71.3,
  flashed: 0,
  weapons: [ak47],
  position: [1321, 2563, 77],
  facing: 172,
};

const changed = (values: Partial<GamePlayer>) =>
  applyGameMessage({
    type: 'game',
    now: Date.now(),
    full: false,
    live: { players: { [player.steamid]: { ...player, ...values } } },
  });

describe('live signals: the place apart from the rest', () => {
  it('a step or a turn changes the radar’s player only; a hit, a shot or a purchase changes both', () => {
    applyGameMessage({
      type: 'game',
      now: Date.now(),
      full: true,
      live: {
        map: null,
        round: null,
        bomb: null,
        observed: { steamid: player.steamid, slot: 7 },
        players: { [player.steamid]: player },
        grenades: [],
      },
    });
    const renders = { radar: 0, box: 0, observed: 0 };
    const stop = [
      effect(() => {
        playerInSlot(7).value;
        renders.radar++;
      }),
      effect(() => {
        playerStatsInSlot(7).value;
        renders.box++;
      }),
      effect(() => {
        observedPlayerStats.value;
        renders.observed++;
      }),
    ];
    const first = playerStatsInSlot(7).value;
    expect(first?.name).toBe('s1mple');

    changed({ position: [1400, 2500, 77], facing: -90 });
    changed({ position: [1410, 2490, 77] });
    expect(playerInSlot(7).value?.position).toEqual([1410, 2490, 77]);
    expect(playerStatsInSlot(7).value).toBe(first);
    expect(renders).toEqual({ radar: 3, box: 1, observed: 1 });

    changed({ position: [1410, 2490, 77], health: 77 });
    expect(playerStatsInSlot(7).value?.health).toBe(77);
    changed({ position: [1410, 2490, 77], health: 77, weapons: [{ ...ak47, ammoClip: 5 }] });
    expect(playerStatsInSlot(7).value?.weapons[0]?.ammoClip).toBe(5);
    expect(renders).toEqual({ radar: 5, box: 3, observed: 3 });
    for (const dispose of stop) dispose();
  });
});
