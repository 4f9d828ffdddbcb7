/**
 * Game data on the wire: the live view of the game (round, clock, bomb, players, the observed
 * player) that pages receive as `game` messages, and the status the operator app shows. Browser-safe:
 * TypeBox only. docs/websocket.md and docs/game-data.md describe them.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { GAME_SIDES } from '../../machines/game-sides.ts';
import { OneOf } from './schemas.ts';

export const GameSideSchema = OneOf(GAME_SIDES, { description: 'The game side: CT or T' });

/** How the game numbers `observer_slot`: CS2 0..9 (0 is key 1), CS:GO 1..9 then 0. */
export const SLOT_NUMBERINGS = ['cs2', 'csgo'] as const;
export type SlotNumbering = (typeof SLOT_NUMBERINGS)[number];
export const SlotNumberingSchema = OneOf(SLOT_NUMBERINGS, {
  description:
    'How observer_slot is numbered when the provider version does not say: cs2 (0..9) or csgo (1..9, 0)',
});
export const DEFAULT_SLOT_NUMBERING: SlotNumbering = 'cs2';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const GameWeaponSchema = Type.Object({
  name: Type.String({ description: 'weapon_ak47 …' }),
  type: Type.String({ description: 'Rifle, Pistol, Knife, Grenade, C4 …' }),
  active: Type.Boolean(),
  ammoClip: Nullable(Type.Integer()),
  ammoReserve: Nullable(Type.Integer()),
});

/** A point of the map in the game's world units, rounded to whole units: [x, y, z]. */
export const GamePointSchema = Type.Tuple([Type.Number(), Type.Number(), Type.Number()], {
  description: 'World units [x, y, z], rounded to whole units',
});
export type GamePoint = Static<typeof GamePointSchema>;

export const GamePlayerSchema = Type.Object({
  steamid: Type.String(),
  name: Type.String({
    description:
      "The on-air name: the database's for a saved player (docs/teams-and-players.md), else the game's",
  }),
  gameName: Type.String({ description: 'The name the game gives (the Steam name)' }),
  playerId: Nullable(
    Type.String({ description: "The database's player id; null for a player it does not know" }),
  ),
  realName: Type.String({ description: 'The saved real name; empty when not known' }),
  country: Nullable(Type.String({ description: 'The saved ISO 3166-1 alpha-2 code (flags)' })),
  photo: Nullable(Type.String({ description: 'The saved photo, /media/<id>' })),
  slot: Type.Integer({ minimum: 0, maximum: 9, description: 'HUD slot: 1 to 9, 0 for the tenth player' }),
  side: GameSideSchema,
  health: Type.Integer(),
  armor: Type.Integer(),
  helmet: Type.Boolean(),
  defuseKit: Type.Boolean(),
  money: Type.Integer(),
  equipValue: Type.Integer(),
  kills: Type.Integer(),
  deaths: Type.Integer(),
  assists: Type.Integer(),
  mvps: Type.Integer(),
  roundKills: Type.Integer(),
  roundDamage: Type.Integer(),
  adr: Nullable(
    Type.Number({ description: 'Average damage per round over the rounds this server saw; null before one' }),
  ),
  flashed: Type.Integer({ minimum: 0, maximum: 255 }),
  weapons: Type.Array(GameWeaponSchema),
  position: Nullable(GamePointSchema),
  facing: Nullable(
    Type.Integer({
      minimum: -180,
      maximum: 180,
      description: 'Where the player looks on the map: degrees from +x towards +y (the radar turns it)',
    }),
  ),
});
export type GamePlayer = Static<typeof GamePlayerSchema>;

export const GameMapSchema = Type.Object({
  name: Type.String({ description: 'The map as the game names it (de_dust2, workshop/…/de_mirage)' }),
  phase: Type.String({ description: 'warmup, live, intermission, gameover' }),
  round: Type.Integer({ minimum: 0, description: 'Rounds played, as the game counts them' }),
  ctScore: Type.Integer(),
  tScore: Type.Integer(),
  ctName: Nullable(Type.String()),
  tName: Nullable(Type.String()),
  ctLosses: Type.Integer({
    minimum: 0,
    description: "CT's consecutive_round_losses as the game counts them (the loss bonus follows it)",
  }),
  tLosses: Type.Integer({ minimum: 0, description: "T's consecutive_round_losses" }),
  ctTimeouts: Nullable(
    Type.Integer({
      minimum: 0,
      description: "CT's tactical timeouts left (timeouts_remaining); null when not sent",
    }),
  ),
  tTimeouts: Nullable(Type.Integer({ minimum: 0, description: "T's tactical timeouts left" })),
});

export const ROUND_END_REASONS = ['elimination', 'bomb', 'defuse', 'time'] as const;
export type RoundEndReason = (typeof ROUND_END_REASONS)[number];

export const GameRoundSchema = Type.Object({
  phase: Type.String({ description: 'freezetime, live, over (the round); bomb, defuse (the clock)' }),
  clock: Nullable(Type.Number({ description: 'Seconds left in the current phase' })),
  winner: Nullable(GameSideSchema),
  reason: Nullable(
    OneOf(ROUND_END_REASONS, {
      description: 'How the round that is over ended (map.round_wins); null while it runs',
    }),
  ),
});

export const GameBombSchema = Type.Object({
  state: Type.String({ description: 'carried, dropped, planting, planted, defusing, defused, exploded' }),
  countdown: Nullable(Type.Number({ description: 'Seconds left to explode or to defuse' })),
  playerSlot: Nullable(Type.Integer({ description: 'HUD slot of the carrier, planter or defuser' })),
  position: Nullable(GamePointSchema),
  explodesIn: Nullable(
    Type.Number({
      description:
        'Seconds until the bomb explodes: while planted and through a defuse (the game then sends only the defuse time), frozen once defused, 0 once exploded',
    }),
  ),
  defuseIn: Nullable(Type.Number({ description: 'Seconds left of the defuse while one runs' })),
  defuseSeconds: Nullable(
    Type.Integer({ description: 'How long the running defuse takes: 5 with a kit, 10 without' }),
  ),
});

export const GameGrenadeSchema = Type.Object({
  id: Type.String({ description: "The game's entity number" }),
  type: Type.String({ description: 'smoke, inferno, flashbang, frag, decoy, firebomb …' }),
  owner: Nullable(Type.String({ description: 'SteamID64 of the thrower' })),
  position: Nullable(GamePointSchema),
  flames: Type.Array(GamePointSchema, { description: "An inferno's burning cells; empty otherwise" }),
  lifetime: Nullable(Type.Number({ description: 'Seconds since thrown' })),
  effect: Nullable(Type.Number({ description: 'Seconds since it took effect (a smoke bloomed …)' })),
});
export type GameGrenade = Static<typeof GameGrenadeSchema>;

/** A player as a killfeed entry names him: the live view's name (the on-air one) and his side then. */
export const GameKillPlayerSchema = Type.Object({
  steamid: Type.String(),
  name: Type.String(),
  side: GameSideSchema,
});
export type GameKillPlayer = Static<typeof GameKillPlayerSchema>;

export const KILL_SOURCES = ['frames', 'hlae'] as const;

/** One death of the killfeed (docs/game-data.md, "The killfeed"). */
export const GameKillSchema = Type.Object({
  id: Type.Integer({
    minimum: 1,
    description: "Counts up from 1 over the server's life: a page keys entries by it",
  }),
  round: Type.Integer({ minimum: 1, description: 'The round it happened in: 1 for the first of the map' }),
  killer: Nullable(GameKillPlayerSchema),
  victim: GameKillPlayerSchema,
  assister: Nullable(GameKillPlayerSchema),
  weapon: Nullable(Type.String({ description: "The killer's weapon as the game names it (weapon_ak47)" })),
  headshot: Type.Boolean(),
  wallbang: Nullable(Type.Boolean({ description: 'null: not known (frames do not say)' })),
  noscope: Nullable(
    Type.Boolean({ description: 'A scoped weapon fired unscoped; null: not known (frames do not say)' }),
  ),
  throughSmoke: Nullable(
    Type.Boolean({ description: 'Shot through a smoke; null: not known (frames do not say)' }),
  ),
  attackerBlind: Nullable(
    Type.Boolean({ description: 'The killer was flashed; null: not known (frames do not say)' }),
  ),
  flashAssist: Nullable(
    Type.Boolean({
      description: "The assister's flash blinded the victim; null: not known (frames do not say)",
    }),
  ),
  teamkill: Type.Boolean(),
  source: OneOf(KILL_SOURCES, { description: 'frames: inferred from two frames; hlae: a game event' }),
});
export type GameKill = Static<typeof GameKillSchema>;

export const GameObservedSchema = Type.Object({
  steamid: Type.String(),
  slot: Nullable(Type.Integer({ description: 'HUD slot; null for a player without one' })),
});

/** The whole live view. */
export const GameLiveSchema = Type.Object({
  map: Nullable(GameMapSchema),
  round: Nullable(GameRoundSchema),
  bomb: Nullable(GameBombSchema),
  observed: Nullable(GameObservedSchema),
  players: Type.Record(Type.String(), GamePlayerSchema, { description: 'By steamid' }),
  grenades: Type.Array(GameGrenadeSchema, { description: 'Utility in flight or in effect, by id' }),
  killfeed: Type.Array(GameKillSchema, { description: "The round's deaths, the newest last (at most 8)" }),
});
export type GameLive = Static<typeof GameLiveSchema>;

/** What changed: a part present is new as a whole; a player null has left. */
export const GameLivePatchSchema = Type.Object({
  map: Type.Optional(Nullable(GameMapSchema)),
  round: Type.Optional(Nullable(GameRoundSchema)),
  bomb: Type.Optional(Nullable(GameBombSchema)),
  observed: Type.Optional(Nullable(GameObservedSchema)),
  players: Type.Optional(Type.Record(Type.String(), Nullable(GamePlayerSchema))),
  grenades: Type.Optional(Type.Array(GameGrenadeSchema)),
  killfeed: Type.Optional(Type.Array(GameKillSchema)),
});
export type GameLivePatch = Static<typeof GameLivePatchSchema>;

export const GAME_PROBLEMS = ['nothing_received', 'wrong_token', 'player_view', 'stopped'] as const;
export type GameProblem = (typeof GAME_PROBLEMS)[number];

/** HLAE's game-event link (docs/game-data.md, "The killfeed from HLAE"). */
export const GameHlaeStatusSchema = Type.Object({
  connected: Type.Boolean({ description: "An HLAE client is connected to the automation server's /hlae" }),
  live: Type.Boolean({
    description:
      'It said hello: the killfeed is built from its player_death events, not inferred from frames',
  }),
  source: Nullable(Type.String({ description: 'Address of the connected HLAE client' })),
  deaths: Type.Integer({ minimum: 0, description: 'player_death events taken over this link' }),
  lastEventAt: Nullable(Type.Integer({ description: 'Server time (ms) of the last player_death taken' })),
  refused: Nullable(Type.String({ description: 'Why the last link was closed for bad input, if it was' })),
  console: Type.Array(Type.String(), {
    description: "The lines to type into the game's console on this machine (HLAE's CS:GO mirv_pgl)",
  }),
});
export type GameHlaeStatus = Static<typeof GameHlaeStatusSchema>;

export const GameStatusSchema = Type.Object({
  receiving: Type.Boolean({
    description: 'A frame with the right auth token arrived within the last few seconds',
  }),
  source: Nullable(Type.String({ description: 'Address the last good frame came from' })),
  lastFrameAt: Nullable(Type.Integer({ description: 'Server time (ms) of the last good frame' })),
  frames: Type.Integer({ minimum: 0, description: 'Good frames since the server started' }),
  problem: Nullable(OneOf(GAME_PROBLEMS)),
  message: Type.String({ description: 'What the operator app shows' }),
  slotNumbering: SlotNumberingSchema,
  numberingFrom: OneOf(['version', 'setting'] as const, {
    description: 'Whether the provider version told the numbering or the operator setting did',
  }),
  seriesMap: Nullable(
    Type.Integer({ description: 'Series number of the map in play, null when not in the series' }),
  ),
  notes: Type.Array(Type.String(), {
    description: 'What the game data could not do (a map not in the series …)',
  }),
  hlae: GameHlaeStatusSchema,
});
export type GameStatus = Static<typeof GameStatusSchema>;

/**
 * A server message of its own: live data at the rate it arrives, without a revision (the HUD state
 * does not change). `full` carries the whole view (after hello), otherwise only what changed.
 */
export const GameMessage = Type.Object(
  {
    type: Type.Literal('game'),
    now: Type.Integer({ description: 'Server time (ms), to tell how old lastFrameAt is' }),
    full: Type.Boolean(),
    live: Type.Optional(GameLivePatchSchema),
    status: Type.Optional(GameStatusSchema),
  },
  {
    additionalProperties: false,
    description:
      'Live game data: not state, no revision. To the pages, and to a client that asked (?subscribe=game)',
  },
);
export type GameMessage = Static<typeof GameMessage>;

/** The game's cfg file in one CS2 install, as Integrations > Game and `gsi-config --check` tell it. */
export const CfgStateSchema = OneOf(['current', 'outdated', 'missing', 'unreadable'] as const, {
  description: 'current: as this server would write it; outdated: another port, address or token',
});
export type CfgState = Static<typeof CfgStateSchema>;

export const InstallStateSchema = Type.Object({
  cs2Dir: Type.String(),
  path: Type.String(),
  state: CfgStateSchema,
});
export type InstallState = Static<typeof InstallStateSchema>;

/** Integrations > Game: whether frames arrive, the cfg file, and the CS2 installs with their cfg. */
export const GameSetupSchema = Type.Object({
  status: GameStatusSchema,
  fileName: Type.String(),
  cfg: Type.String({ description: 'The cfg file for a game on this machine' }),
  lanCfg: Type.Union([Type.String(), Type.Null()], {
    description:
      "The cfg file for a game on another PC (this machine's local-network address); null without one",
  }),
  installs: Type.Array(InstallStateSchema, {
    description: 'CS2 installs found through Steam, and their cfg file',
  }),
  hlaeLanConsole: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description:
      "The console lines for HLAE on another PC: this machine's local-network address, the access token in the link's address; null without a local-network address, with local network mode off or the automation server switched off",
  }),
});
export type GameSetup = Static<typeof GameSetupSchema>;

/** Where the game posts its frames (the address its cfg file names), on the application server. */
export const GAME_DATA_PATH = '/gsi';
/** Where HLAE's mirv_pgl connects on the automation server (docs/game-data.md, "The killfeed from HLAE"). */
export const HLAE_PATH = '/hlae';
