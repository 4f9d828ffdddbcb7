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
/**
 * The game's counters (money, damage, kills: kills go below 0 with team kills) stay far inside a
 * million; a number beyond that is not the game's, and sums of such numbers would overflow.
 */
const Int = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 });
/** The game writes countdowns as text ("13.4"); accept a number too. */
const Seconds = Type.Union([Type.String({ maxLength: 32 }), Type.Number()]);
const loose = <T extends Record<string, TSchema>>(properties: T) =>
  Type.Partial(Type.Object(properties, { additionalProperties: true }));

export const GsiTeam = loose({
  score: Type.Integer({ minimum: 0, maximum: 999 }),
  name: Text(128),
  flag: Text(16),
  consecutive_round_losses: Type.Integer({ minimum: 0, maximum: 999 }),
  timeouts_remaining: Type.Integer({ minimum: 0, maximum: 99 }),
});

/** A point as the game writes it: "x, y, z" in world units. */
const Vector = Text(96);

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
  health: Int,
  armor: Int,
  helmet: Type.Boolean(),
  defusekit: Type.Boolean(),
  flashed: Int,
  burning: Int,
  money: Int,
  round_kills: Int,
  round_killhs: Int,
  round_totaldmg: Int,
  equip_value: Int,
});

export const GsiMatchStats = loose({ kills: Int, assists: Int, deaths: Int, mvps: Int, score: Int });

export const GsiWeapon = loose({
  name: Text(64),
  type: Text(64),
  state: Text(32),
  ammo_clip: Int,
  ammo_clip_max: Int,
  ammo_reserve: Int,
});

const playerFields = {
  name: Text(128),
  observer_slot: Int,
  team: Text(16),
  state: GsiPlayerState,
  match_stats: GsiMatchStats,
  weapons: Type.Record(Type.String({ maxLength: 32 }), GsiWeapon),
  position: Vector,
  forward: Vector,
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
  owner: Type.Union([Text(32), Type.Integer({ minimum: 0 })]),
  type: Text(32),
  position: Vector,
  velocity: Vector,
  lifetime: Seconds,
  effecttime: Seconds,
  flames: Type.Record(Type.String({ maxLength: 64 }), Vector, { maxProperties: 256 }),
});

export const GsiPayload = loose({
  // Some builds write the timestamp as text.
  provider: loose({
    name: Text(),
    // Not counters: an app id, a build number, a Unix time.
    appid: Type.Integer(),
    version: Type.Integer(),
    steamid: Text(32),
    timestamp: Type.Union([Type.Integer(), Type.String({ maxLength: 32 })]),
  }),
  map: GsiMap,
  round: GsiRound,
  player: GsiPlayer,
  allplayers: Type.Record(Type.String({ maxLength: 32 }), GsiAllPlayer),
  phase_countdowns: loose({ phase: Text(32), phase_ends_in: Seconds }),
  bomb: loose({ state: Text(32), player: Text(32), countdown: Seconds, position: Vector }),
  // A round's utility: some dozens at most (ten players, four grenades each, and decoys).
  grenades: Type.Record(Type.String({ maxLength: 32 }), GsiGrenade, { maxProperties: 256 }),
  auth: loose({ token: Text(512) }),
});
export type GsiPayload = Static<typeof GsiPayload>;
export type GsiAllPlayer = Static<typeof GsiAllPlayer>;
export type GsiGrenade = Static<typeof GsiGrenade>;
