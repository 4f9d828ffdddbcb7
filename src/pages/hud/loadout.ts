/**
 * What a player carries, as the player boxes and the observed box draw it: the primary and the
 * secondary weapon, each grenade held (two flashbangs are two), the Zeus, the bomb, and which of them
 * is in hand. Pure: a player's live values in, the loadout out (docs/themes.md, "Player boxes").
 */
import type { GamePlayer } from '../../protocol/index.ts';

type GameWeapon = GamePlayer['weapons'][number];

/** The game's weapon types that make a primary weapon (`type` in allplayers_weapons). */
const PRIMARY_TYPES = new Set(['Rifle', 'SniperRifle', 'Submachine Gun', 'Shotgun', 'Machine Gun']);

/**
 * The order grenades are drawn in, whatever order they were bought in (the game lists them in the
 * order they were picked up, which would move icons about between players and rounds): HE, flash,
 * smoke, fire, decoy. A grenade the list does not know comes last, in the game's order.
 */
export const GRENADE_ORDER = [
  'weapon_hegrenade',
  'weapon_flashbang',
  'weapon_smokegrenade',
  'weapon_molotov',
  'weapon_incgrenade',
  'weapon_decoy',
] as const;

/** One thing carried: the game's name and type, and whether it is in hand. */
export interface Item {
  name: string;
  type: string;
  active: boolean;
}

export interface Loadout {
  primary: Item | null;
  secondary: Item | null;
  knife: Item | null;
  /** The Zeus (the game sends it without a type). */
  taser: Item | null;
  /** One entry per grenade held, in GRENADE_ORDER; only the first of a kind can be in hand. */
  grenades: Item[];
  bomb: boolean;
  /** The game's name of the weapon in hand. */
  active: string | null;
}

const rank = (name: string) => {
  const index = (GRENADE_ORDER as readonly string[]).indexOf(name);
  return index === -1 ? GRENADE_ORDER.length : index;
};

const isKnife = (name: string) => /^weapon_(knife|bayonet)/.test(name);

const item = (weapon: GameWeapon | undefined): Item | null =>
  weapon ? { name: weapon.name, type: weapon.type, active: weapon.active } : null;

export function loadoutOf(player: Pick<GamePlayer, 'weapons'>): Loadout {
  const weapons = player.weapons;
  const grenades: Item[] = [];
  for (const weapon of weapons) {
    if (weapon.type !== 'Grenade') continue;
    // A grenade's count is its reserve: a second flashbang is not a second entry in the list.
    const count = Math.max(1, weapon.ammoReserve ?? 1);
    for (let i = 0; i < count; i++)
      grenades.push({ name: weapon.name, type: weapon.type, active: weapon.active && i === 0 });
  }
  // A stable sort: grenades the order does not know keep the game's order among themselves.
  grenades.sort((a, b) => rank(a.name) - rank(b.name));
  return {
    primary: item(weapons.find((w) => PRIMARY_TYPES.has(w.type))),
    secondary: item(weapons.find((w) => w.type === 'Pistol')),
    knife: item(weapons.find((w) => w.type === 'Knife' || isKnife(w.name))),
    taser: item(weapons.find((w) => w.name === 'weapon_taser')),
    grenades,
    bomb: weapons.some((w) => w.type === 'C4' || w.name === 'weapon_c4'),
    active: weapons.find((w) => w.active)?.name ?? null,
  };
}

/** The weapon a player box names: the primary, else the pistol, else the knife. */
export function mainWeapon(player: Pick<GamePlayer, 'weapons'>): string | null {
  const { primary, secondary, knife } = loadoutOf(player);
  return (primary ?? secondary ?? knife)?.name ?? null;
}
