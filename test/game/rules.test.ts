/**
 * The pure rules of game data: observer slot to HUD slot, when the teams change sides, the frame
 * parser on real captures and on generated frames (what the live channel sends: live-diff.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sideByNames } from '../../machines/game-rules.ts';
import { sideChangesBetween, sidesSwitched } from '../../machines/game-sides.ts';
import { parseFrame } from '../../src/game/game-frame.ts';
import { hudSlot, numberingOf, slotOrder } from '../../src/game/slots.ts';
import { BOTS_DUST2, FAZE_NAVI, fixture, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';

describe('observer slot to HUD slot', () => {
  it('CS2 0..9 becomes 1..9, 0; CS:GO stays; anything else is no slot', () => {
    expect([0, 1, 8, 9].map((s) => hudSlot(s, 'cs2'))).toEqual([1, 2, 9, 0]);
    expect([1, 9, 0].map((s) => hudSlot(s, 'csgo'))).toEqual([1, 9, 0]);
    for (const bad of [-1, 10, 1.5, undefined]) {
      expect(hudSlot(bad, 'cs2')).toBeNull();
      expect(hudSlot(bad, 'csgo')).toBeNull();
    }
  });

  it('both numberings give the ten HUD slots, one each, for the ten observer slots', () => {
    fc.assert(
      fc.property(fc.constantFrom('cs2' as const, 'csgo' as const), (numbering) => {
        const slots = Array.from({ length: 10 }, (_, s) => hudSlot(s, numbering));
        expect(new Set(slots)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
      }),
    );
  });

  it('the version tells the game where it is certain; the setting decides in between', () => {
    expect(numberingOf(13881, 'cs2')).toEqual({ numbering: 'csgo', from: 'version' });
    expect(numberingOf(14000, 'csgo')).toEqual({ numbering: 'cs2', from: 'version' });
    fc.assert(
      fc.property(
        fc.integer({ min: 13882, max: 13999 }),
        fc.constantFrom('cs2' as const, 'csgo' as const),
        (v, s) => {
          expect(numberingOf(v, s)).toEqual({ numbering: s, from: 'setting' });
        },
      ),
    );
    expect(numberingOf(undefined, 'csgo')).toEqual({ numbering: 'csgo', from: 'setting' });
  });
});

describe('side changes (MR12, overtime MR3)', () => {
  it('first half as started, second half switched, each overtime starts as the last period ended', () => {
    const switched = (rounds: number[]) => rounds.map((r) => sidesSwitched(r));
    expect(switched([0, 11])).toEqual([false, false]);
    expect(switched([12, 23])).toEqual([true, true]);
    expect(switched([24, 26, 27, 29])).toEqual([true, true, false, false]);
    expect(switched([30, 32, 33, 35, 36])).toEqual([false, false, true, true, true]);
  });

  it('the changes between two counts are the changes of each round between, whatever the steps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (a, b, c) => {
          const [x, y, z] = [a, b, c].sort((p, q) => p - q) as [number, number, number];
          expect(sideChangesBetween(x, z)).toBe(sideChangesBetween(x, y) + sideChangesBetween(y, z));
          // An even number of changes leaves the sides as they were.
          expect(sideChangesBetween(x, z) % 2 === 0).toBe(sidesSwitched(x) === sidesSwitched(z));
        },
      ),
    );
  });
});

describe('team names to sides', () => {
  it('matches either name, ignores case and spaces, and refuses to guess', () => {
    const match = { teamA: { name: 'FaZe Clan' }, teamB: { name: 'Natus Vincere' } };
    expect(sideByNames(match, ' faze clan', 'Natus Vincere')).toBe('CT');
    expect(sideByNames(match, 'Other', 'faze clan')).toBe('T');
    expect(sideByNames(match, 'Natus Vincere', null)).toBe('T');
    expect(sideByNames(match, 'Alpha', 'Bravo')).toBeNull();
    expect(sideByNames({ teamA: null, teamB: null }, 'Alpha', 'Bravo')).toBeNull();
    // Both names on one side cannot be right.
    expect(sideByNames(match, 'FaZe Clan', 'FaZe Clan')).toBeNull();
  });
});

describe('the frame parser', () => {
  it('reads a real GOTV frame: players by HUD slot with their values, map, round, bomb, observed', async () => {
    const frame = parseFrame(await fixture(FAZE_NAVI), 'csgo');
    expect(frame.spectator).toBe(true);
    expect(frame.players.map((p) => p.slot)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
    expect(frame.map).toEqual({
      name: 'de_dust2',
      phase: 'live',
      round: 10,
      ctScore: 7,
      tScore: 3,
      ctName: 'FaZe Clan',
      tName: 'Natus Vincere',
      // consecutive_round_losses as the capture has them.
      ctLosses: 0,
      tLosses: 6,
      ctTimeouts: 4,
      tTimeouts: 2,
    });
    expect(frame.round).toEqual({ phase: 'live', clock: 13.4, winner: null, reason: null });
    // "1111.0, 2460.4, 95.8" in the capture.
    expect(frame.bomb).toEqual({
      state: 'dropped',
      countdown: null,
      playerSteamid: null,
      position: [1111, 2460, 96],
    });
    // One smoke, its owner written as a number by that build.
    expect(frame.grenades).toEqual([
      {
        id: '355',
        type: 'smoke',
        owner: '76561198121220480',
        position: [1212, 2304, 12],
        flames: [],
        lifetime: 19.6,
        effect: 17.3,
      },
    ]);
    expect(frame.observedSteamid).toBe('76561198034202275');
    const twistzz = frame.players[0];
    expect(twistzz).toMatchObject({
      name: 'Twistzz',
      side: 'CT',
      health: 71,
      kills: 9,
      money: 3650,
      defuseKit: true,
    });
    expect(twistzz?.weapons.find((w) => w.active)?.name).toBe('weapon_m4a1_silencer');
    // Every player's position and facing, against the capture's "x, y, z" texts.
    const raw = (await fixture(FAZE_NAVI)).allplayers;
    for (const player of frame.players) {
      const [x, y, z] = (raw[player.steamid].position as string).split(',').map(Number) as [
        number,
        number,
        number,
      ];
      expect(player.position).toEqual([Math.round(x), Math.round(y), Math.round(z)]);
      const [fx, fy] = (raw[player.steamid].forward as string).split(',').map(Number) as [number, number];
      expect(player.facing).toBe(Math.round((Math.atan2(fy, fx) * 180) / Math.PI));
    }
  });

  it('reads how a round ended, the losses in a row, and an inferno as its flames', async () => {
    const frames = await fixture(ROUND_SEQUENCE);
    const [first] = frames;
    const over = frames.find((f: { round?: { phase?: string } }) => f.round?.phase === 'over');
    expect(parseFrame(first, 'csgo').round?.reason).toBeNull();
    // round_wins["9"] is "ct_win_defuse" when round 9 is over.
    expect(parseFrame(over, 'csgo').round).toMatchObject({ phase: 'over', winner: 'CT', reason: 'defuse' });
    expect(parseFrame(over, 'csgo').map).toMatchObject({ ctLosses: 0, tLosses: 4 });
    const inferno = parseFrame(first, 'csgo').grenades.find((g) => g.type === 'inferno');
    expect(inferno?.position).toBeNull();
    expect(inferno?.flames.length).toBe(Object.keys(first.grenades[inferno?.id ?? '']?.flames ?? {}).length);
    expect(inferno?.flames.length).toBeGreaterThan(0);
  });

  it('a point or a direction that is not three numbers is nothing, not NaN', () => {
    const frame = parseFrame(
      {
        allplayers: {
          '76561190000000001': {
            name: 'a',
            observer_slot: 1,
            team: 'CT',
            position: '1, two, 3',
            forward: '0, 0, 1',
          },
        },
        bomb: { state: 'carried', position: '1, 2' },
      },
      'csgo',
    );
    expect(frame.players[0]).toMatchObject({ position: null, facing: null });
    expect(frame.bomb?.position).toBeNull();
  });

  it('the derived CS2 frame parses to the same players as the CS:GO capture', async () => {
    const capture = await fixture(BOTS_DUST2);
    expect(parseFrame(toCs2(capture), 'cs2').players).toEqual(parseFrame(capture, 'csgo').players);
  });

  it('never throws on generated frames, and keeps only players with a slot on a playing side', () => {
    const player = fc.record(
      {
        name: fc.string({ maxLength: 8 }),
        observer_slot: fc.integer({ min: -2, max: 12 }),
        team: fc.constantFrom('CT', 'T', 'SPECTATOR', ''),
        state: fc.record(
          { health: fc.integer({ min: 0, max: 100 }), round_totaldmg: fc.nat(500) },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['name'] },
    );
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^7656\d{4}$/), player, { maxKeys: 14 }), (allplayers) => {
        const frame = parseFrame({ allplayers }, 'cs2');
        for (const p of frame.players) {
          expect(['CT', 'T']).toContain(p.side);
          expect(p.slot).toBeGreaterThanOrEqual(0);
          expect(p.slot).toBeLessThanOrEqual(9);
        }
        const order = frame.players.map((p) => slotOrder(p.slot));
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }),
    );
  });
});
