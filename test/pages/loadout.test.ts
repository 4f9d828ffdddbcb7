/**
 * The player boxes' pure rules: what a player carries, in the order drawn (loadout.ts), and CS2's
 * loss bonus (loss-bonus.ts). The browser test (hud-staples.test.ts) checks the same against the page.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRENADE_ORDER, loadoutOf, mainWeapon } from '../../src/pages/hud/loadout.ts';
import { lossBonus } from '../../src/pages/hud/loss-bonus.ts';
import type { GamePlayer } from '../../src/protocol/index.ts';

const player = (weapons: GamePlayer['weapons']): GamePlayer => ({
  steamid: '76561198000000000',
  name: 'p',
  gameName: 'p',
  playerId: null,
  realName: '',
  country: null,
  photo: null,
  slot: 1,
  side: 'T',
  health: 100,
  armor: 100,
  helmet: true,
  defuseKit: false,
  money: 0,
  equipValue: 0,
  kills: 0,
  deaths: 0,
  assists: 0,
  mvps: 0,
  roundKills: 0,
  roundDamage: 0,
  adr: null,
  flashed: 0,
  weapons,
  position: null,
  facing: null,
});

const weapon = (name: string, type: string, active = false, ammoReserve: number | null = null) => ({
  name,
  type,
  active,
  ammoClip: null,
  ammoReserve,
});

describe('loadout', () => {
  it('reads a captured inventory: primary, secondary, each grenade held in the drawn order, Zeus and bomb', () => {
    // Nin. [zeus] in the captured round (glock in hand, scout, Zeus without a type, smoke, flash), plus
    // a second flashbang and the bomb.
    const loadout = loadoutOf(
      player([
        weapon('weapon_knife_push', 'Knife'),
        weapon('weapon_glock', 'Pistol', true),
        weapon('weapon_ssg08', 'SniperRifle'),
        weapon('weapon_taser', ''),
        weapon('weapon_smokegrenade', 'Grenade', false, 1),
        weapon('weapon_flashbang', 'Grenade', false, 2),
        weapon('weapon_c4', 'C4'),
      ]),
    );
    expect(loadout.primary?.name).toBe('weapon_ssg08');
    expect(loadout.secondary).toEqual({ name: 'weapon_glock', type: 'Pistol', active: true });
    expect(loadout.knife?.name).toBe('weapon_knife_push');
    expect(loadout.taser?.name).toBe('weapon_taser');
    expect(loadout.grenades.map((g) => g.name)).toEqual([
      'weapon_flashbang',
      'weapon_flashbang',
      'weapon_smokegrenade',
    ]);
    expect(loadout.bomb).toBe(true);
    expect(loadout.active).toBe('weapon_glock');
  });

  it('any inventory: one grenade entry per grenade held, in GRENADE_ORDER, the one in hand marked once', () => {
    const grenade = fc.record({
      name: fc.constantFrom(...GRENADE_ORDER, 'weapon_snowball'),
      reserve: fc.integer({ min: 1, max: 3 }),
      active: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.uniqueArray(grenade, { selector: (g) => g.name, maxLength: 7 }), (held) => {
        const loadout = loadoutOf(player(held.map((g) => weapon(g.name, 'Grenade', g.active, g.reserve))));
        expect(loadout.grenades).toHaveLength(held.reduce((n, g) => n + g.reserve, 0));
        const ranks = loadout.grenades.map((g) => {
          const rank = (GRENADE_ORDER as readonly string[]).indexOf(g.name);
          return rank === -1 ? GRENADE_ORDER.length : rank;
        });
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        expect(loadout.grenades.filter((g) => g.active)).toHaveLength(held.filter((g) => g.active).length);
      }),
    );
  });

  it('the main weapon: the primary, else the pistol, else the knife; nothing for a dead player', () => {
    expect(
      mainWeapon(player([weapon('weapon_knife', 'Knife'), weapon('weapon_usp_silencer', 'Pistol')])),
    ).toBe('weapon_usp_silencer');
    expect(mainWeapon(player([weapon('weapon_bayonet', 'Knife')]))).toBe('weapon_bayonet');
    expect(mainWeapon(player([]))).toBeNull();
    expect(loadoutOf(player([])).grenades).toEqual([]);
  });
});

describe('loss bonus', () => {
  it('is $1,400 and $500 more per loss in the counter, at most $3,400', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(lossBonus)).toEqual([1400, 1900, 2400, 2900, 3400, 3400, 3400]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), (losses) => {
        const bonus = lossBonus(losses);
        expect(bonus).toBeGreaterThanOrEqual(1400);
        expect(bonus).toBeLessThanOrEqual(3400);
        expect(lossBonus(losses + 1) - bonus).toBe(losses < 4 ? 500 : 0);
      }),
    );
  });
});
