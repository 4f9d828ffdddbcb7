/** The adapter from a GSI frame to the director's input (src/observer/director-frame.ts). */
import { describe, expect, it } from 'vitest';
import { parseVector, toDirectorFrame } from '../../src/observer/director-frame.ts';
import { FAZE_NAVI, type Frame, fixture, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';

const NIP_NAVI = 'gsi_csgo_gotv_pro_nip-vs-navi_ancient_bomb-planted__sces-csgo-hud-fe__output.json';
const csgoSlot = (slot: number) => (slot >= 0 && slot <= 9 ? slot : null);
const cs2Slot = (slot: number) => (slot >= 0 && slot <= 9 ? (slot + 1) % 10 : null);

describe('toDirectorFrame', () => {
  it('reads the ten, their positions and facing from a GOTV capture', async () => {
    const raw: Frame = await fixture(FAZE_NAVI);
    const frame = toDirectorFrame(raw, { now: 1234, hudSlot: csgoSlot });
    expect(frame).toMatchObject({ now: 1234, map: 'de_dust2', phase: 'live', observedSlot: 7 });
    expect(frame.bomb).toEqual({
      state: 'dropped',
      position: { x: 1111, y: 2460.4, z: 95.8 },
      steamid: null,
    });
    expect(frame.players).toHaveLength(10);
    expect(frame.players.find((player) => player.name === 's1mple')).toEqual({
      slot: 7,
      steamid: '76561198034202275',
      name: 's1mple',
      side: 'T',
      health: 90,
      position: { x: 1321.1, y: 2562.9, z: 77.4 },
      forward: { x: -0.99, y: 0.141, z: 0.028 },
      flashed: 0,
      burning: 0,
      roundKills: 0,
      hasBomb: false,
      activity: null,
    });
  });

  it('the same players on the same HUD slots from the CS2 numbering (DERIVED frame)', async () => {
    const raw: Frame = await fixture(FAZE_NAVI);
    const csgo = toDirectorFrame(raw, { now: 0, hudSlot: csgoSlot });
    const cs2 = toDirectorFrame(toCs2(raw), { now: 0, hudSlot: cs2Slot });
    expect(cs2).toEqual(csgo);
  });

  it('marks the planter, the defuser and the carrier', async () => {
    const frames: Frame[] = await fixture(ROUND_SEQUENCE);
    const carried = toDirectorFrame(frames[0] as Frame, { now: 0, hudSlot: csgoSlot });
    expect(carried.players.filter((player) => player.hasBomb).map((player) => player.name)).toEqual([
      'Big Daddy',
    ]);
    const planting = toDirectorFrame(frames[2] as Frame, { now: 0, hudSlot: csgoSlot });
    expect(planting.players.filter((player) => player.activity).map((p) => [p.name, p.activity])).toEqual([
      ['Big Daddy', 'planting'],
    ]);
    const defusing = toDirectorFrame(frames[6] as Frame, { now: 0, hudSlot: csgoSlot });
    expect(defusing.phase).toBe('defuse');
    expect(defusing.players.filter((player) => player.activity).map((p) => [p.name, p.activity])).toEqual([
      ['Atomic', 'defusing'],
    ]);
    const planted = toDirectorFrame(await fixture(NIP_NAVI), { now: 0, hudSlot: csgoSlot });
    expect(planted.bomb).toEqual({ state: 'planted', position: { x: 797.5, y: 5, z: 134 }, steamid: null });
  });

  it('a player view (no allplayers) has no players; coaches without a slot are left out', async () => {
    const raw: Frame = await fixture(FAZE_NAVI);
    const own = structuredClone(raw);
    delete own.allplayers;
    expect(toDirectorFrame(own, { now: 0, hudSlot: csgoSlot }).players).toEqual([]);
    const coached = structuredClone(raw);
    coached.allplayers['76561190000000001'] = {
      name: 'Coach',
      team: 'CT',
      observer_slot: 11,
      state: { health: 100 },
    };
    expect(toDirectorFrame(coached, { now: 0, hudSlot: csgoSlot }).players).toHaveLength(10);
  });
});

describe('parseVector', () => {
  it.each([
    ['1093.92, 2512.16, 96.03', { x: 1093.92, y: 2512.16, z: 96.03 }],
    ['-0.99, -0.13, -0.03', { x: -0.99, y: -0.13, z: -0.03 }],
    ['0,0,0', { x: 0, y: 0, z: 0 }],
  ])('reads %j', (text, vector) => {
    expect(parseVector(text)).toEqual(vector);
  });

  it.each(['', '1, 2', '1, 2, 3, 4', '1e3, 0, 0', 'a, b, c', '1, 2, 99999999', 'NaN, 0, 0', 5, null])(
    'refuses %j',
    (value) => {
      expect(parseVector(value)).toBeNull();
    },
  );
});
