/**
 * Comparing the live game's parts field by field: a frame comes up to 20 times a second and
 * usually moves a few fields of each player (position, facing, the clock), and a typed comparison
 * that stops at the first difference costs a fraction of a generic deep one. Each list of fields is
 * checked against its type, so a field added to the protocol and not here fails to compile. The
 * server's live diff (src/game/live-diff.ts) and the overlay's signals (src/pages/hud/live.ts) use
 * the same comparison of a player.
 */
import type { GamePlayer, GamePoint } from './game.ts';

type Weapon = GamePlayer['weapons'][number];

/** The keys of T whose values are compared with ===, given all at once so that none is forgotten. */
export const scalars =
  <T>() =>
  <const K extends readonly (keyof T)[]>(
    keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : 'a field of T is not listed'),
  ) =>
    keys;

/** Every field of a player but where the player stands and looks, and the weapons (a list). */
const PLAYER_FIELDS = scalars<Omit<GamePlayer, 'weapons' | 'position' | 'facing'>>()([
  'steamid',
  'name',
  'gameName',
  'playerId',
  'realName',
  'country',
  'photo',
  'slot',
  'side',
  'health',
  'armor',
  'helmet',
  'defuseKit',
  'money',
  'equipValue',
  'kills',
  'deaths',
  'assists',
  'mvps',
  'roundKills',
  'roundDamage',
  'adr',
  'flashed',
]);
const WEAPON_FIELDS = scalars<Weapon>()(['name', 'type', 'active', 'ammoClip', 'ammoReserve']);

export function sameFields<T>(a: T, b: T, keys: readonly (keyof T)[]): boolean {
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

export function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i] as T, b[i] as T)) return false;
  return true;
}

/** Equal, or both null: a part the game stopped sending is null. */
export const both =
  <T>(same: (a: T, b: T) => boolean) =>
  (a: T | null | undefined, b: T | null | undefined): boolean =>
    a === b || (a != null && b != null && same(a, b));

export const samePoint = both(
  (a: GamePoint, b: GamePoint) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2],
);
const sameWeapon = (a: Weapon, b: Weapon) => sameFields(a, b, WEAPON_FIELDS);

/** The same values apart from where the player stands and looks (what the boxes show). */
export const samePlayerBesidesPlace = (a: GamePlayer, b: GamePlayer): boolean =>
  sameFields(a, b, PLAYER_FIELDS) && sameList(a.weapons, b.weapons, sameWeapon);

/** The same player in every field. */
export const samePlayer = both(
  (a: GamePlayer, b: GamePlayer) =>
    samePlayerBesidesPlace(a, b) && a.facing === b.facing && samePoint(a.position, b.position),
);
