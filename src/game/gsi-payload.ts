/**
 * The JSON the game POSTs (Game State Integration), as far as the service reads it. Every section is
 * optional: the cfg decides which come, and a spectator gets more than a player. Unknown fields are
 * allowed (the game adds some between versions); the fields read must have the right type.
 * Reference: Valve's "Counter-Strike: Global Offensive Game State Integration" page and the frames in
 * test/fixtures (real CS:GO captures, CS2 frames derived from them).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';

const Text = (maxLength = 256) => Type.String({ maxLength });
const Range = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });

/*
 * The ranges of what the game sends (docs/game-data.md, "What a frame may hold", has each with its
 * source). Where the game's rules bound a value, the bound is that rule: health and armour 0-100;
 * flash, smoke and fire intensity 0-255; money up to mp_maxmoney's highest, 65,535; an observer slot
 * 0-9. Where nothing documents a bound, it follows from a server's 64 players and 100 health, with
 * the map's round count (0-999) for what adds up over a map. No real frame comes near them, and a
 * sum of them (ADR) stays an exact integer.
 */
/** The most players a CS2 server holds. */
export const MAX_PLAYERS = 64;
const Health = Range(0, 100);
const Intensity = Range(0, 255);
const Money = Range(0, 65_535);
/** What one player does in one round: at most the other 63 players, 100 health each. */
const RoundKills = Range(0, MAX_PLAYERS - 1);
const RoundDamage = Range(0, (MAX_PLAYERS - 1) * 100);
/** What adds up over a map: 999 rounds of the above. Kills and score go below 0 with team kills. */
const MapCount = Range(0, 99_999);
const SignedMapCount = Range(-99_999, 99_999);
/** Rounds in a clip or in reserve: no weapon holds a thousand. */
const Ammo = Range(0, 999);
/** Steam's app ids and the game's build numbers are unsigned 32-bit numbers. */
const Uint32 = Range(0, 2 ** 32 - 1);

/*
 * Numbers the game writes as text, as C's printf writes decimals ("13.4", "-418.49"): never an
 * exponent, NaN or Infinity, which Number() would read all the same. At most five digits before the
 * point, so under 100,000: a map's world reaches 16,384 units either side of its origin (Source and
 * Source 2 alike) and a phase lasts minutes (a round at most mp_roundtime's hour), far below it.
 */
const DECIMAL = String.raw`\d{1,5}(?:\.\d+)?`;
const DECIMAL_LIMIT = 100_000;
/** A unit vector's component: -1 to 1. */
const UNIT = String.raw`(?:0(?:\.\d+)?|1(?:\.0+)?)`;
/** "x, y, z" of three such numbers (the game writes ", "; other spacing reads the same). */
const triple = (n: string) => String.raw`^\s*${n}\s*,\s*${n}\s*,\s*${n}\s*$`;
/** Seconds left or gone: text ("13.4") or, in some builds, a number; 0 up to 100,000 either way. */
const Seconds = Type.Union(
  [
    Type.String({ maxLength: 32, pattern: `^${DECIMAL}$` }),
    Type.Number({ minimum: 0, exclusiveMaximum: DECIMAL_LIMIT }),
  ],
  { description: 'seconds from 0 to under 100,000, as a decimal ("13.4") or a number' },
);
const loose = <T extends Record<string, TSchema>>(properties: T) =>
  Type.Partial(Type.Object(properties, { additionalProperties: true }));

export const GsiTeam = loose({
  score: Type.Integer({ minimum: 0, maximum: 999 }),
  name: Text(128),
  flag: Text(16),
  consecutive_round_losses: Type.Integer({ minimum: 0, maximum: 999 }),
  timeouts_remaining: Type.Integer({ minimum: 0, maximum: 99 }),
});

/** A point (or a velocity) as the game writes it: "x, y, z" in world units, each under 100,000 from 0. */
const Vector = Type.String({
  maxLength: 96,
  pattern: triple(`-?${DECIMAL}`),
  description: '"x, y, z": three decimals, each under 100,000 from 0',
});
/** Where a player looks: "x, y, z" of a unit vector, each -1 to 1. */
const Direction = Type.String({
  maxLength: 96,
  pattern: triple(`-?${UNIT}`),
  description: '"x, y, z": three decimals, each from -1 to 1',
});

export const GsiMap = loose({
  mode: Text(64),
  name: Text(),
  phase: Text(32),
  round: Type.Integer({ minimum: 0, maximum: 999 }),
  team_ct: GsiTeam,
  team_t: GsiTeam,
  // How each round of the map ended ("ct_win_elimination" …), by round number: at most 30 regulation
  // rounds and overtimes, far inside a thousand.
  round_wins: Type.Record(Type.String({ maxLength: 8 }), Text(32), { maxProperties: 1_000 }),
});

export const GsiRound = loose({ phase: Text(32), bomb: Text(32), win_team: Text(8) });

export const GsiPlayerState = loose({
  health: Health,
  armor: Health,
  helmet: Type.Boolean(),
  defusekit: Type.Boolean(),
  flashed: Intensity,
  smoked: Intensity,
  burning: Intensity,
  money: Money,
  round_kills: RoundKills,
  round_killhs: RoundKills,
  round_totaldmg: RoundDamage,
  // What a player carries is worth less than the most money he may hold.
  equip_value: Money,
});

export const GsiMatchStats = loose({
  kills: SignedMapCount,
  assists: MapCount,
  deaths: MapCount,
  mvps: MapCount,
  score: SignedMapCount,
});

export const GsiWeapon = loose({
  name: Text(64),
  type: Text(64),
  state: Text(32),
  ammo_clip: Ammo,
  ammo_clip_max: Ammo,
  ammo_reserve: Ammo,
});

const playerFields = {
  name: Text(128),
  // CS2: 0-9; CS:GO: 1-9, then 0 (src/game/slots.ts).
  observer_slot: Range(0, 9),
  team: Text(16),
  state: GsiPlayerState,
  match_stats: GsiMatchStats,
  // weapon_0, weapon_1 …: a player carries a dozen at most.
  weapons: Type.Record(Type.String({ maxLength: 32 }), GsiWeapon, { maxProperties: 64 }),
  position: Vector,
  forward: Direction,
};

export const GsiAllPlayer = loose(playerFields);

export const GsiPlayer = loose({
  ...playerFields,
  steamid: Text(32),
  activity: Text(32),
  spectarget: Text(32),
});

/** A grenade in flight or in effect (`allgrenades`): an inferno has flames instead of a position. */
export const GsiGrenade = loose({
  // The game writes the owner's SteamID64 as a number in some builds, as text in others.
  owner: Type.Union([Text(32), Type.Integer({ minimum: 0, maximum: 2 ** 64 })]),
  type: Text(32),
  position: Vector,
  velocity: Vector,
  lifetime: Seconds,
  effecttime: Seconds,
  flames: Type.Record(Type.String({ maxLength: 64 }), Vector, { maxProperties: 256 }),
});

export const GsiPayload = loose({
  provider: loose({
    name: Text(),
    // Not counters: an app id, a build number, a Unix time.
    appid: Uint32,
    version: Uint32,
    steamid: Text(32),
    // Seconds (1654689636), as a number or, in some builds, as text. Any whole number a float holds
    // exactly: a build that counted in milliseconds would still be the game.
    timestamp: Type.Union([
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
      Type.String({ pattern: String.raw`^\d{1,16}$` }),
    ]),
  }),
  map: GsiMap,
  round: GsiRound,
  player: GsiPlayer,
  // Everyone on the server the spectator sees: players, coaches, casters and observers.
  allplayers: Type.Record(Type.String({ maxLength: 32 }), GsiAllPlayer, { maxProperties: MAX_PLAYERS }),
  phase_countdowns: loose({ phase: Text(32), phase_ends_in: Seconds }),
  bomb: loose({ state: Text(32), player: Text(32), countdown: Seconds, position: Vector }),
  // A round's utility: some dozens at most (ten players, four grenades each, and decoys).
  grenades: Type.Record(Type.String({ maxLength: 32 }), GsiGrenade, { maxProperties: 256 }),
  auth: loose({ token: Text(512) }),
});
export type GsiPayload = Static<typeof GsiPayload>;

/**
 * What the schema cannot say about the players: on the playing sides (CT, T), no two have the same
 * observer slot, so at most ten have one (coaches have none, spectators are on no playing side).
 * Null when the players are what the game sends.
 */
export function playersProblem(allplayers: GsiPayload['allplayers']): string | null {
  if (!allplayers) return null;
  const taken = new Map<number, string>();
  for (const steamid in allplayers) {
    const { team, observer_slot: slot } = allplayers[steamid] as GsiAllPlayer;
    if ((team !== 'CT' && team !== 'T') || slot === undefined) continue;
    const other = taken.get(slot);
    if (other !== undefined) {
      return `/allplayers: ${other} and ${steamid} both have observer_slot ${slot}: the game gives each player on a side a slot of their own`;
    }
    taken.set(slot, steamid);
  }
  return null;
}
export type GsiAllPlayer = Static<typeof GsiAllPlayer>;
export type GsiGrenade = Static<typeof GsiGrenade>;
