/**
 * Every command of the service as the wire knows it: its name, what it is for, whether it needs the
 * main window, the HUD-state fields its answer carries, the schema of its payload and the schema of
 * its result. The server's handlers (src/core/commands/) are typed by these entries, GET /api/actions
 * and docs/asyncapi.json publish them, the answers are serialised by them, and the pages call
 * `trigger(name, payload)` typed by them: a renamed field fails to compile on both sides.
 *
 * Browser-safe like the rest of src/protocol: TypeBox and machines/ only.
 */
import type { Static, TBoolean, TObject, TOptional, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { Panel } from '../../machines/panels.ts';
import { PANELS } from '../../machines/panels.ts';
import {
  ColorPresetSchema,
  FeedRecordSchema,
  type HudStateSchema,
  MatchSummarySchema,
  OverlaySchema,
  PlatformFiguresSchema,
  PlayerStatsSchema,
  RevealViewSchema,
  StepViewSchema,
  VetoStatusSchema,
} from './answers.ts';
import { GamePlayerSchema, GameSideSchema } from './game.ts';
import { HistoryEntrySchema, ImportChangesSchema } from './history.ts';
import { NetconAddressSchema, OBSERVER_LOOP_CONTRACTS, ObserverViewSchema } from './observer.ts';
import { RECORDER_CONTRACTS } from './recorder.ts';
import {
  BoFormatSchema,
  MapNameSchema,
  MapPoolSchema,
  ObserverModeSchema,
  OneOf,
  PositionSchema,
  SceneSchema,
  SideSchema,
  StatsProviderSchema,
  strict,
  TeamFormatSchema,
  TeamSchema,
  VetoStepSchema,
} from './schemas.ts';
import { PublicSettingsSchema, SettingsChangeSchema } from './settings.ts';
import {
  PlayerRecordSchema,
  PlayerSaveSchema,
  RosterSourceSchema,
  RostersOfferSchema,
  TEAMS_FILE_FORMATS,
  TEAMS_LIMITS,
  TeamSaveSchema,
  TeamsImportCountSchema,
  TeamViewSchema,
} from './teams.ts';

/** A HUD-state field an answer may carry beside the revision. */
export type HudStateKey = Exclude<keyof Static<typeof HudStateSchema>, 'revision'>;

/** One command of the contract. */
export interface CommandContract<P extends TSchema | null = TSchema | null, R extends TSchema = TSchema> {
  description: string;
  /** The command fails with `unavailable` while the main window is closed. */
  needsMainWindow: boolean;
  /** HUD-state fields the command is about: the answer's `state` carries them beside the revision. */
  stateKeys: readonly HudStateKey[];
  /** TypeBox schema of the payload, or null when the command takes none. */
  payload: P;
  /** TypeBox schema of `result` in a successful answer: the answer is serialised by it. */
  result: R;
}

const contract = <P extends TSchema | null, R extends TSchema>(entry: CommandContract<P, R>) => entry;

const atLeastOne = { ...strict, minProperties: 1 } as const;
const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Nothing = Type.Object({}, { ...strict, description: 'Nothing beyond the state' });

// --- the panels: toggle_*, show_* and hide_* of every entry of PANELS ---------------------------------

/**
 * What toggle_* and show_* answer: nothing, but for the stats panel opened with the player set in the
 * application (the operator's pick, else the observed one) and that player's live values.
 */
const PanelShownSchema = Type.Object(
  {
    player: Type.Optional(PlayerStatsSchema),
    stats: Type.Optional(OrNull(GamePlayerSchema)),
  },
  {
    ...strict,
    description:
      'toggle_stats and show_stats with game data: the player opened and his live values (null when the slot has none); {} otherwise',
  },
);

type PanelWord = Panel['command'];
type PanelCommands = {
  [W in PanelWord as `toggle_${W}` | `show_${W}`]: CommandContract<null, typeof PanelShownSchema>;
} & { [W in PanelWord as `hide_${W}`]: CommandContract<null, typeof Nothing> };

const panelCommands = Object.fromEntries(
  PANELS.flatMap((panel: Panel) => {
    const { command: word, stateKey, label } = panel;
    const note = 'hotkey' in panel ? ` (hotkey ${panel.hotkey} by default)` : '';
    const stateKeys = [stateKey] as const;
    return [
      [
        `toggle_${word}`,
        contract({
          description: `Shows or hides ${label}${note}.`,
          needsMainWindow: false,
          stateKeys,
          payload: null,
          result: PanelShownSchema,
        }),
      ],
      [
        `show_${word}`,
        contract({
          description: `Shows ${label}; does nothing if it is already shown.`,
          needsMainWindow: false,
          stateKeys,
          payload: null,
          result: PanelShownSchema,
        }),
      ],
      [
        `hide_${word}`,
        contract({
          description: `Hides ${label}; does nothing if it is already hidden.`,
          needsMainWindow: false,
          stateKeys,
          payload: null,
          result: Nothing,
        }),
      ],
    ] as const;
  }),
) as PanelCommands;

// --- the payloads several commands share ----------------------------------------------------------

const OverlayPayload = Type.Object(
  { enabled: Type.Optional(Type.Boolean()), position: Type.Optional(PositionSchema) },
  atLeastOne,
);

/** The sponsor overlay or the event badge after the change. */
const OverlayResult = Type.Object(OverlaySchema.properties, strict);

const TeamsPayload = {
  boFormat: BoFormatSchema,
  teamA: TeamSchema,
  teamB: TeamSchema,
};

/** The public commands, in the order GET /api/actions lists them. */
export const COMMAND_CONTRACTS = {
  ...panelCommands,
  show_player_stats: contract({
    description:
      "Shows the stats of a player by HUD slot (1 to 9, 0 for the tenth player), for durationMs if given. live (the default): the game data's values; platform_a: FACEIT (needs FACEIT_API_KEY), looked up by SteamID64 before the panel opens; platform_b is not available. 409 for a slot with no player in the game data.",
    needsMainWindow: false,
    stateKeys: ['statsVisible'],
    payload: Type.Object(
      {
        slot: Type.Integer({
          minimum: 0,
          maximum: 9,
          description: 'HUD slot: 1 to 9, 0 for the tenth player',
        }),
        provider: Type.Optional(StatsProviderSchema),
        durationMs: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: 3_600_000,
            description: 'How long the panel stays open, milliseconds',
          }),
        ),
        name: Type.Optional(Type.String({ maxLength: 64, description: 'A note; not used by the service' })),
      },
      strict,
    ),
    result: Type.Union(
      [
        Type.Object({ stats: GamePlayerSchema }, strict),
        Type.Object({ platform: PlatformFiguresSchema }, strict),
      ],
      { description: "live: the game data's values of the player; a platform: its figures" },
    ),
  }),
  reload_overlay: contract({
    description: 'Reloads the HUD overlay window.',
    needsMainWindow: false,
    stateKeys: ['hudWindowOpen'],
    payload: null,
    result: Nothing,
  }),
  set_color_preset: contract({
    description: 'Applies a colour preset; the ids come from GET /api/presets.',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object({ presetId: Type.String({ minLength: 1, maxLength: 128 }) }, strict),
    result: Type.Object({ preset: ColorPresetSchema }, strict),
  }),

  import_match_veto: contract({
    description:
      'Imports the veto of a FACEIT room or an HLTV match page (url or platformMatchId); apply sets it on the match, show opens the veto panel. Takes up to 20 s; 409 while the source has no veto yet.',
    needsMainWindow: true,
    stateKeys: ['vetoVisible'],
    payload: Type.Object(
      {
        ...RosterSourceSchema,
        apply: Type.Optional(
          Type.Boolean({ default: true, description: 'false reads the veto without changing the match' }),
        ),
        show: Type.Optional(
          Type.Boolean({ default: false, description: 'true opens the veto panel after the import' }),
        ),
      },
      strict,
    ),
    result: Type.Object(
      {
        provider: OneOf(['faceit', 'hltv'] as const),
        teamA: TeamSchema,
        teamB: TeamSchema,
        boFormat: BoFormatSchema,
        steps: Type.Array(StepViewSchema),
        matchTime: Type.Optional(Type.String({ description: 'When the match starts, ISO 8601 in UTC' })),
        applied: Type.Boolean({ description: 'The veto was set on the match' }),
        shown: Type.Boolean({ description: 'The veto panel was opened' }),
        changes: ImportChangesSchema,
      },
      strict,
    ),
  }),
  veto_reveal: contract({
    description:
      'Reveals veto steps on the HUD: mode next shows the next step, prev hides the last shown, all shows all, reset hides all; instant true shows every step at once, false turns on progressive reveal.',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object(
      {
        mode: Type.Optional(OneOf(['next', 'prev', 'reset', 'all'] as const)),
        instant: Type.Optional(Type.Boolean()),
      },
      atLeastOne,
    ),
    result: RevealViewSchema,
  }),
  reset_veto: contract({
    description: 'Clears the veto and all series maps (and stops a veto session).',
    needsMainWindow: true,
    stateKeys: [],
    payload: null,
    result: Type.Object({ cleared: Type.Literal(true) }, strict),
  }),
  veto_start: contract({
    description:
      'Starts a manual veto session (replacing one in progress); the overlay shows the steps live. Team A bans first unless firstBanner is B.',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object(
      { ...TeamsPayload, firstBanner: Type.Optional(SideSchema), mapPool: Type.Optional(MapPoolSchema) },
      strict,
    ),
    result: VetoStatusSchema,
  }),
  veto_select: contract({
    description:
      'Plays the next turn of the veto session with this map; the service decides ban or pick and adds the decider.',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object({ map: MapNameSchema }, strict),
    result: VetoStatusSchema,
  }),
  veto_undo: contract({
    description: 'Takes back the last ban or pick of the veto session (and the decider that came with it).',
    needsMainWindow: true,
    stateKeys: [],
    payload: null,
    result: VetoStatusSchema,
  }),
  veto_status: contract({
    description:
      'The manual veto session: format, teams, next step, remaining maps and steps; { active: false } without one.',
    needsMainWindow: true,
    stateKeys: [],
    payload: null,
    result: VetoStatusSchema,
  }),
  veto_cancel: contract({
    description: 'Stops the veto session and shows the veto that was there before it.',
    needsMainWindow: true,
    stateKeys: [],
    payload: null,
    result: Type.Object({ active: Type.Literal(false) }, strict),
  }),
  veto_set: contract({
    description:
      'Sets a complete veto at once and fills the series maps; steps must follow the veto rules of the format, or nothing changes.',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object(
      { ...TeamsPayload, steps: Type.Array(VetoStepSchema, { minItems: 1, maxItems: 16 }) },
      strict,
    ),
    result: Type.Object({ complete: Type.Literal(true), steps: Type.Array(StepViewSchema) }, strict),
  }),

  get_match: contract({
    description: 'The match: event, formats, teams, series maps with scores, series score and veto.',
    needsMainWindow: true,
    stateKeys: [],
    payload: null,
    result: MatchSummarySchema,
  }),
  set_teams: contract({
    description:
      'Sets team A and team B (renaming them everywhere: map results, picks, veto, versus scene); boFormat sets the series length.',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object(
      { teamA: TeamSchema, teamB: TeamSchema, boFormat: Type.Optional(BoFormatSchema) },
      strict,
    ),
    result: MatchSummarySchema,
  }),
  set_map_result: contract({
    description:
      'Sets the score of a series map (its number 1 to 5 or its name); finished true marks it played and sets the winner, omitted keeps the current value.',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object(
      {
        map: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), MapNameSchema], {
          description: 'Series number 1 to 5, or a map name that is in the series',
        }),
        scoreA: Type.Integer({ minimum: 0, maximum: 99 }),
        scoreB: Type.Integer({ minimum: 0, maximum: 99 }),
        finished: Type.Optional(Type.Boolean()),
      },
      strict,
    ),
    result: MatchSummarySchema,
  }),
  set_event_name: contract({
    description: 'Sets the event name shown on the HUD (at most 120 characters).',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object({ name: Type.String({ maxLength: 120 }) }, strict),
    result: MatchSummarySchema,
  }),
  set_team_format: contract({
    description: 'Sets the team size: auto, 1v1, 2v2, 3v3 or 5v5.',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object({ format: TeamFormatSchema }, strict),
    result: MatchSummarySchema,
  }),
  undo: contract({
    description:
      'Takes back the last change of the match or the veto (teams, swap, event name, format, import, reset, veto_set, map results), in one revision; 409 when there is nothing to undo.',
    needsMainWindow: true,
    stateKeys: ['history'],
    payload: null,
    result: Type.Object({ undone: HistoryEntrySchema }, strict),
  }),
  redo: contract({
    description: 'Makes again the last change undone, in one revision; 409 when there is nothing to redo.',
    needsMainWindow: true,
    stateKeys: ['history'],
    payload: null,
    result: Type.Object({ redone: HistoryEntrySchema }, strict),
  }),

  show_sen_scene: contract({
    description:
      'Opens the scene window with a full-screen scene (versus, talents, sponsors, mapRecap), or changes its scene.',
    needsMainWindow: false,
    stateKeys: ['senScene'],
    payload: Type.Object({ scene: SceneSchema }, strict),
    result: Type.Object({ scene: SceneSchema }, strict),
  }),
  hide_sen_scene: contract({
    description: 'Closes the scene window.',
    needsMainWindow: false,
    stateKeys: ['senScene'],
    payload: null,
    result: Type.Object({ scene: Type.Null() }, strict),
  }),
  set_sponsor_overlay: contract({
    description:
      'Turns the sponsor overlay on or off and places it (at least one of enabled, position); turning it on needs a sponsor image (409 otherwise).',
    needsMainWindow: true,
    stateKeys: [],
    payload: OverlayPayload,
    result: OverlayResult,
  }),
  set_event_badge: contract({
    description:
      'Turns the event badge on or off and places it (at least one of enabled, position); turning it on needs an event logo or an event name (409 otherwise).',
    needsMainWindow: true,
    stateKeys: [],
    payload: OverlayPayload,
    result: OverlayResult,
  }),
  set_smart_observer: contract({
    description:
      'Configures the automatic observer: enabled (needs an active subscription), mode auto or suggest, cinematicEnabled for the cinematic freeze camera.',
    needsMainWindow: true,
    stateKeys: [],
    payload: Type.Object(
      {
        enabled: Type.Optional(Type.Boolean()),
        mode: Type.Optional(ObserverModeSchema),
        cinematicEnabled: Type.Optional(Type.Boolean()),
      },
      atLeastOne,
    ),
    result: Type.Object(
      { enabled: Type.Boolean(), mode: ObserverModeSchema, cinematicEnabled: Type.Boolean() },
      { ...strict, description: 'The observer settings after the change' },
    ),
  }),
  clean_feed: contract({
    description:
      'Takes everything off air at once: every panel (the HUD overlay window too), the scene, the sponsor overlay and the event badge. What was on air is kept (saved) for restore_feed; with nothing on air the record kept before stays.',
    needsMainWindow: false,
    stateKeys: [...PANELS.map((panel) => panel.stateKey), 'senScene'],
    payload: null,
    result: Type.Object(
      { cleanFeed: OrNull(FeedRecordSchema) },
      { ...strict, description: 'What restore_feed will bring back (null: nothing was or is kept)' },
    ),
  }),
  restore_feed: contract({
    description:
      'Brings back exactly what was on air before clean_feed (anything put on air since goes off); 409 when there is nothing to restore.',
    needsMainWindow: false,
    stateKeys: [...PANELS.map((panel) => panel.stateKey), 'senScene'],
    payload: null,
    result: Type.Object({ restored: FeedRecordSchema }, strict),
  }),
  save_replay: contract({
    description:
      "Saves the broadcast software's replay buffer and plays it on the HUD; needs OBS connected with its replay buffer running.",
    needsMainWindow: false,
    stateKeys: ['obs'],
    payload: null,
    result: Type.Object(
      { saving: Type.Literal(true) },
      { ...strict, description: 'The save is asked of OBS: the replay.saved or replay.failed event follows' },
    ),
  }),

  swap_sides: contract({
    description:
      "Swaps the game sides of team A and team B (the game data swaps them by itself at half time and each overtime half, and follows the game's team names when they match).",
    needsMainWindow: false,
    stateKeys: ['sides'],
    payload: null,
    result: Type.Object({ teamA: GameSideSchema, teamB: GameSideSchema }, strict),
  }),
  set_stats_player: contract({
    description:
      'Picks the player whose stats toggle_stats and show_stats open, by HUD slot (1 to 9, 0 for the tenth); null follows the observed player again.',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object(
      {
        slot: Type.Union([Type.Integer({ minimum: 0, maximum: 9 }), Type.Null()], {
          description: 'HUD slot, or null for the observed player',
        }),
      },
      strict,
    ),
    result: Type.Object(
      {
        slot: OrNull(Type.Integer({ minimum: 0, maximum: 9, description: 'The slot the stats open now' })),
        follows: OneOf(['observed', 'pick'] as const),
        player: OrNull(GamePlayerSchema),
      },
      strict,
    ),
  }),

  set_observer_console: contract({
    description:
      "Sets where the game's network console listens (CS2 started with -netconport): the observer moves the camera there in auto mode. Loopback or local-network IP addresses only; saved.",
    needsMainWindow: false,
    stateKeys: [],
    payload: NetconAddressSchema,
    result: Type.Object({ link: ObserverViewSchema.properties.link }, strict),
  }),

  ...OBSERVER_LOOP_CONTRACTS,
  ...RECORDER_CONTRACTS,

  save_team: contract({
    description:
      'Saves a team in the database of teams and players: without id a new one (name needed), with id the changes of a saved one. lineup and coach name saved players by id; logo is an uploaded image (/media/<id>) or an http(s) address fetched once. Names are unique (409).',
    needsMainWindow: false,
    stateKeys: [],
    payload: TeamSaveSchema,
    result: Type.Object({ team: TeamViewSchema }, strict),
  }),
  remove_team: contract({
    description: 'Removes a saved team (by id, name or tag); its players stay, without a team. 404 for none.',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object({ team: Type.String({ minLength: 1, maxLength: 64 }) }, strict),
    result: Type.Object({ removed: TeamViewSchema }, strict),
  }),
  save_player: contract({
    description:
      'Saves a player in the database: without id a new one (name, the on-air name, needed), with id the changes of a saved one. steamid is the SteamID64 (unique, 409), country an ISO 3166 code, team a saved team (id, name or tag), role player or coach; photo as a logo.',
    needsMainWindow: false,
    stateKeys: [],
    payload: PlayerSaveSchema,
    result: Type.Object({ player: PlayerRecordSchema }, strict),
  }),
  remove_player: contract({
    description: 'Removes a saved player, by id or SteamID64. 404 for none.',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object({ player: Type.String({ minLength: 1, maxLength: 34 }) }, strict),
    result: Type.Object({ removed: PlayerRecordSchema }, strict),
  }),
  import_teams: contract({
    description: `Merges teams and players into the database from an export (JSON or CSV, format 1: docs/teams-and-players.md): teams matched by id then name, players by id, SteamID64, then name in the team. The same import twice changes nothing; at most ${TEAMS_LIMITS.teams} teams and ${TEAMS_LIMITS.players} players.`,
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object(
      {
        format: OneOf(TEAMS_FILE_FORMATS),
        data: Type.String({ minLength: 1, maxLength: 4 * 1024 * 1024, description: 'The JSON or CSV text' }),
      },
      strict,
    ),
    result: Type.Object({ teams: TeamsImportCountSchema, players: TeamsImportCountSchema }, strict),
  }),
  read_rosters: contract({
    description:
      'Reads the rosters of a FACEIT room (nicknames, SteamID64s, avatars) or an HLTV match page (lineups, flags, photos) and offers them: each team and player with the saved one it matches (by SteamID64, or by name). Changes nothing; save_rosters saves. Takes up to 20 s.',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object(RosterSourceSchema, strict),
    result: RostersOfferSchema,
  }),
  save_rosters: contract({
    description:
      'Saves the rosters read_rosters offers: teams by name, players matched by SteamID64, or by name only when confirm lists that name (the others matched by name are left out); fills what the saved records lack (photo, country, real name, SteamID64) and keeps the on-air names. Photos and logos are fetched once. The same rosters twice change nothing.',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object(
      {
        ...RosterSourceSchema,
        confirm: Type.Optional(
          Type.Array(Type.String({ maxLength: 64 }), {
            maxItems: 20,
            description: 'Names of offered players whose match by name is confirmed',
          }),
        ),
      },
      strict,
    ),
    result: Type.Object(
      {
        teams: TeamsImportCountSchema,
        players: TeamsImportCountSchema,
        unconfirmed: Type.Array(Type.String(), {
          description: 'Players matched by name and not confirmed: left out',
        }),
        imagesFailed: Type.Array(Type.String(), {
          description: 'Photos and logos that could not be fetched, and why',
        }),
      },
      strict,
    ),
  }),
  export_teams: contract({
    description: 'The whole database of teams and players as JSON or CSV (format 1), for import_teams.',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object({ format: OneOf(TEAMS_FILE_FORMATS) }, strict),
    result: Type.Object({ format: OneOf(TEAMS_FILE_FORMATS), data: Type.String() }, strict),
  }),
};

/** The name of a public command. */
export type CommandName = keyof typeof COMMAND_CONTRACTS;
export const COMMAND_NAMES = Object.keys(COMMAND_CONTRACTS) as CommandName[];

// --- what the application around the service and the HUD overlay report (never in GET /api/actions) --

const panelFlags = Object.fromEntries(
  PANELS.map(({ stateKey }) => [stateKey, Type.Optional(Type.Boolean())]),
) as { [K in Panel['stateKey']]: TOptional<TBoolean> };

const HostSchema = Type.Object(
  { mainWindowOpen: Type.Boolean(), signedIn: Type.Boolean(), subscriptionActive: Type.Boolean() },
  strict,
);

export const REPORT_CONTRACTS = {
  host_report: contract({
    description: 'The application shell reports its main window, sign-in and subscription.',
    needsMainWindow: false,
    stateKeys: ['mainWindowOpen'],
    payload: Type.Object(
      {
        mainWindowOpen: Type.Optional(Type.Boolean()),
        signedIn: Type.Optional(Type.Boolean()),
        subscriptionActive: Type.Optional(Type.Boolean()),
      },
      atLeastOne,
    ),
    result: HostSchema,
  }),
  overlay_report: contract({
    description: 'The HUD overlay reports which panels it shows and its colour presets.',
    needsMainWindow: false,
    stateKeys: PANELS.map((panel) => panel.stateKey),
    payload: Type.Object(
      {
        ...panelFlags,
        presets: Type.Optional(
          Type.Array(
            Type.Object(
              { id: Type.String({ minLength: 1, maxLength: 128 }), name: Type.String({ maxLength: 128 }) },
              strict,
            ),
            { maxItems: 200 },
          ),
        ),
        opened: Type.Optional(
          Type.Boolean({
            description:
              'An overlay page just opened: the overlay window counts as open unless a command has said otherwise',
          }),
        ),
      },
      atLeastOne,
    ),
    result: Nothing,
  }),
};

/** The settings that last and the subscription switch: the shell and the operator app's panel API. */
export const SETTINGS_CONTRACTS = {
  settings: contract({
    description:
      'Changes the settings that last: local network mode, OBS, import sources, branding, game data.',
    needsMainWindow: false,
    stateKeys: [],
    payload: SettingsChangeSchema,
    result: Type.Object({ settings: PublicSettingsSchema }, strict),
  }),
  subscription: contract({
    description: 'Switches the subscription on or off (the smart observer needs it).',
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object({ active: Type.Boolean() }, strict),
    result: Type.Object({ subscriptionActive: Type.Boolean() }, strict),
  }),
};

/** Every command the dispatcher runs, whoever may call it. */
export type AnyContracts = typeof COMMAND_CONTRACTS & typeof REPORT_CONTRACTS & typeof SETTINGS_CONTRACTS;
export type AnyCommandName = keyof AnyContracts;

/** The payload a command takes (undefined: none). */
export type CommandPayload<N extends AnyCommandName> = AnyContracts[N]['payload'] extends infer P extends
  TSchema
  ? Static<P>
  : undefined;
/** What a command's successful answer carries in `result`. */
export type CommandResultOf<N extends AnyCommandName> = Static<AnyContracts[N]['result']>;

/**
 * A payload as a client may send it: the dispatcher takes a number or a boolean also as text ("3",
 * "true"), as the spec wants of buttons that only send text; every name and every other value stays
 * as the schema says.
 */
export type Sent<T> = T extends number
  ? number | string
  : T extends boolean
    ? boolean | string
    : T extends readonly (infer E)[]
      ? Sent<E>[]
      : T extends object
        ? { [K in keyof T]: Sent<T[K]> }
        : T;

/** The payload of `N` as a client sends it (see Sent). */
export type SentPayload<N extends AnyCommandName> = Sent<CommandPayload<N>>;

/**
 * The arguments after the name in `trigger(name, ...)`: the payload, required when the schema
 * requires a property, optional when every property is, absent when the command takes none.
 */
export type PayloadArgs<N extends AnyCommandName> = AnyContracts[N]['payload'] extends null
  ? []
  : Partial<CommandPayload<N>> extends CommandPayload<N>
    ? [payload?: SentPayload<N>]
    : [payload: SentPayload<N>];

/** The contract of `name` among all commands, or undefined for a name that is not one. */
export function contractOf(name: string): CommandContract | undefined {
  return ALL_CONTRACTS.get(name);
}

const ALL_CONTRACTS: ReadonlyMap<string, CommandContract> = new Map(
  Object.entries({ ...COMMAND_CONTRACTS, ...REPORT_CONTRACTS, ...SETTINGS_CONTRACTS }),
);

// Every payload is an object or nothing: the dispatcher refuses anything else before any schema.
type PayloadsAreObjects = {
  [N in AnyCommandName]: AnyContracts[N]['payload'] extends TObject | null ? true : N;
};
const payloadsAreObjects: PayloadsAreObjects[AnyCommandName] = true;
void payloadsAreObjects;
