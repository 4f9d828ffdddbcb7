/**
 * TypeBox schemas of what the service answers: the HUD state, the match summary, the veto status,
 * the reveal. The views build these shapes; the WebSocket protocol and docs/asyncapi.json use the
 * same schemas, and the tests check real messages against them.
 */
import type { Static, TBoolean, TOptional, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { PlayerStatsRequest } from '../../machines/panel.machine.ts';
import type { Panel } from '../../machines/panels.ts';
import { PANELS } from '../../machines/panels.ts';
import { OBS_REASONS } from '../../machines/vocabulary.ts';
import { GameSideSchema } from './game.ts';
import { HistorySchema } from './history.ts';
import {
  BoFormatSchema,
  LogoStatusSchema,
  ObserverModeSchema,
  OneOf,
  PositionSchema,
  SceneSchema,
  SideSchema,
  StatsProviderSchema,
  StepTypeSchema,
  TeamFormatSchema,
  TeamSchema,
} from './schemas.ts';

export const RosterEntrySchema = Type.Object({
  slot: Type.Integer({ minimum: 0, maximum: 9 }),
  name: Type.String(),
});

export const ObsStatusSchema = Type.Object({
  connection: OneOf(['connected', 'connecting', 'disconnected'] as const),
  replayBufferActive: Type.Boolean(),
  reason: Type.Union([OneOf(OBS_REASONS), Type.Null()], {
    description:
      'Why OBS is not connected: switched_off (in the settings), refused (nothing listens there, or not OBS), auth_failed (wrong password), unreachable (no route, unknown host, timeout), bad_url, closed (any other end); null while connected and before the first try fails',
  }),
});

export const StorageStatusSchema = Type.Object(
  {
    ok: Type.Boolean({
      description: 'False while changes cannot be saved: commands that change something fail',
    }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Why saving fails, for the operator' }),
  },
  { additionalProperties: false },
);
export type StorageStatus = Static<typeof StorageStatusSchema>;

/** GET /internal/storage: the status and what the state store has done since start. */
export const StorageInfoSchema = Type.Object(
  {
    ...StorageStatusSchema.properties,
    appends: Type.Integer({ description: 'Journal records written: one per group commit' }),
    syncs: Type.Integer({ description: 'fsync/fdatasync calls (journal, snapshot file, its directory)' }),
    snapshots: Type.Integer({ description: 'Snapshots written (start, compaction, recovery, shutdown)' }),
    journalBytes: Type.Integer({ description: 'Bytes in the journal now' }),
  },
  { additionalProperties: false },
);

/** The overlay window's flag is always there (closed until opened); a panel's, once it was told. */
type PanelFlags = {
  [P in Panel as P['stateKey']]: P['stateKey'] extends 'hudWindowOpen' ? TBoolean : TOptional<TBoolean>;
};
const PANEL_FLAGS = Object.fromEntries(
  PANELS.map(({ stateKey }) => [
    stateKey,
    stateKey === 'hudWindowOpen' ? Type.Boolean() : Type.Optional(Type.Boolean()),
  ]),
) as PanelFlags;

export const HudStateSchema = Type.Object(
  {
    revision: Type.Integer({
      minimum: 0,
      description: 'Increases each time something a client can see changes',
    }),
    ...PANEL_FLAGS,
    roster: Type.Array(RosterEntrySchema, { description: 'Players by HUD slot, 1 to 9 then 0' }),
    mainWindowOpen: Type.Boolean(),
    senScene: Type.Union([SceneSchema, Type.Null()]),
    obs: ObsStatusSchema,
    sides: Type.Object(
      { teamA: GameSideSchema, teamB: GameSideSchema },
      { description: 'The game side each team plays now: from the game data, or as the operator set it' },
    ),
    gameReceiving: Type.Boolean({ description: 'Game data (CS2 Game State Integration) arrives' }),
    storage: StorageStatusSchema,
    history: HistorySchema,
  },
  { additionalProperties: false },
);
export type HudState = Static<typeof HudStateSchema>;

export const StepViewSchema = Type.Object({
  type: StepTypeSchema,
  team: Type.Union([SideSchema, Type.Null()]),
  map: Type.String({ description: 'Full map name, de_mirage' }),
});
export type StepView = Static<typeof StepViewSchema>;

export const MapViewSchema = Type.Object({
  number: Type.Integer({ minimum: 1, maximum: 5 }),
  map: Type.String(),
  label: Type.String(),
  pickedBy: Type.String({ description: 'Team name, or "decider"' }),
  pickedSide: Type.Union([SideSchema, Type.Literal('decider')], {
    description: 'Who picked it as team A or B (not in the spec: two teams may share a name)',
  }),
  finished: Type.Boolean(),
  scoreA: Type.Integer({ minimum: 0, maximum: 99 }),
  scoreB: Type.Integer({ minimum: 0, maximum: 99 }),
  winner: Type.Union([Type.String(), Type.Null()]),
  winnerSide: Type.Union([SideSchema, Type.Null()], {
    description: 'The winner as team A or B; null while the map is not finished (not in the spec)',
  }),
  revealed: Type.Boolean({
    description:
      'The veto step that put the map in the series is revealed on the HUD (veto_reveal); the broadcast pages show only revealed maps (not in the spec)',
  }),
});
export type MapView = Static<typeof MapViewSchema>;

export const MatchSummarySchema = Type.Object(
  {
    eventName: Type.String(),
    teamFormat: TeamFormatSchema,
    boFormat: Type.Union([BoFormatSchema, Type.Null()]),
    teamA: Type.Union([TeamSchema, Type.Null()]),
    teamB: Type.Union([TeamSchema, Type.Null()]),
    logos: Type.Object(
      { A: Type.Union([LogoStatusSchema, Type.Null()]), B: Type.Union([LogoStatusSchema, Type.Null()]) },
      { description: 'Each team logo as the pages show it; null without a logo (not in the spec)' },
    ),
    maps: Type.Array(MapViewSchema),
    seriesScore: Type.Object({ a: Type.Integer({ minimum: 0 }), b: Type.Integer({ minimum: 0 }) }),
    veto: Type.Union([
      Type.Object({ steps: Type.Array(StepViewSchema), revealed: Type.Integer({ minimum: 0 }) }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
export type MatchSummary = Static<typeof MatchSummarySchema>;

export const VetoStatusSchema = Type.Union([
  Type.Object({ active: Type.Literal(false) }, { additionalProperties: false }),
  Type.Object(
    {
      active: Type.Literal(true),
      boFormat: BoFormatSchema,
      teamA: TeamSchema,
      teamB: TeamSchema,
      complete: Type.Boolean(),
      nextStep: Type.Union([
        Type.Object({
          type: StepTypeSchema,
          team: Type.Union([SideSchema, Type.Null()]),
        }),
        Type.Null(),
      ]),
      remainingMaps: Type.Array(Type.String()),
      steps: Type.Array(StepViewSchema),
    },
    { additionalProperties: false },
  ),
]);
export type VetoStatus = Static<typeof VetoStatusSchema>;

export const RevealViewSchema = Type.Object({
  revealed: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  instant: Type.Boolean(),
});
export type RevealView = Static<typeof RevealViewSchema>;

export const ColorPresetSchema = Type.Object({ id: Type.String(), name: Type.String() });

/** The sponsor overlay or the event badge: what set_sponsor_overlay and set_event_badge answer. */
export const OverlaySchema = Type.Object({ enabled: Type.Boolean(), position: PositionSchema });

/** What clean_feed took off the air: what restore_feed brings back (machines/production.machine.ts). */
export const FeedRecordSchema = Type.Object(
  {
    panels: Type.Object(
      Object.fromEntries(PANELS.map(({ command }) => [command, Type.Boolean()])) as {
        [W in Panel['command']]: TBoolean;
      },
      { description: 'Each panel by its command word (toggle_<word>): true when it was shown' },
    ),
    scene: Type.Union([SceneSchema, Type.Null()], { description: 'The scene that was open, or null' }),
    sponsorOverlay: Type.Boolean(),
    eventBadge: Type.Boolean(),
  },
  { description: 'What was on air before clean_feed: what restore_feed brings back' },
);

export type FeedRecord = Static<typeof FeedRecordSchema>;

/** Sponsor overlay, event badge and smart observer: what set_sponsor_overlay & co. change. */
export const ProductionSchema = Type.Object({
  sponsorOverlay: OverlaySchema,
  eventBadge: OverlaySchema,
  cleanFeed: Type.Union([FeedRecordSchema, Type.Null()], {
    description: 'What restore_feed brings back; null while the feed is not cleaned',
  }),
  smartObserver: Type.Object({
    enabled: Type.Boolean(),
    mode: ObserverModeSchema,
    cinematicEnabled: Type.Boolean(),
  }),
});

const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A stats platform's figures of a player (platform_a: FACEIT), as the stats panel shows them. */
export const PlatformFiguresSchema = Type.Object({
  nickname: Type.String({ description: "The player's name on the platform" }),
  level: OrNull(Type.Integer({ minimum: 1, maximum: 10, description: 'Skill level' })),
  elo: OrNull(Type.Integer()),
  kd: OrNull(Type.Number({ description: 'Average kills per death' })),
  winRate: OrNull(Type.Number({ description: 'Matches won, per cent' })),
  matches: OrNull(Type.Integer()),
  headshots: OrNull(Type.Number({ description: 'Kills that were headshots, per cent' })),
  adr: OrNull(Type.Number({ description: 'Average damage per round' })),
  recent: Type.Array(Type.Boolean(), { description: 'The last results, oldest first: true a win' }),
});
export type PlatformFigures = Static<typeof PlatformFiguresSchema>;

/** The player the stats panel shows. */
export const PlayerStatsSchema = Type.Object({
  slot: Type.Integer({ minimum: 0, maximum: 9 }),
  provider: Type.Optional(StatsProviderSchema),
  name: Type.Optional(Type.String({ description: "The operator's note: never drawn on the HUD" })),
  platform: Type.Optional(PlatformFiguresSchema),
});

/** What the stats panel shows: the player (null while it is closed) and the duration it was shown for. */
export const StatsPlayerSchema = Type.Object({
  player: Type.Union([PlayerStatsSchema, Type.Null()]),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
});

// The panel machine keeps what this schema sends: a field added to one and not the other fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const samePlayer: Same<Static<typeof PlayerStatsSchema>, PlayerStatsRequest> = true;
void samePlayer;

/** A command as GET /api/actions lists it. */
export const ActionDescriptorSchema = Type.Object({
  id: Type.String({ description: 'Command name' }),
  description: Type.String({ description: 'In English' }),
  needsMainWindow: Type.Boolean({ description: 'The command fails while the main window is closed' }),
  payload: Type.Union([Type.Unsafe<TSchema>({ type: 'object', additionalProperties: true }), Type.Null()], {
    description: 'JSON Schema of the payload; null when the command takes none',
  }),
  result: Type.Unsafe<TSchema>({
    type: 'object',
    additionalProperties: true,
    description: 'JSON Schema of `result` in a successful answer',
  }),
});
export type ActionDescriptor = Static<typeof ActionDescriptorSchema>;

/** Every failure, over HTTP and in WebSocket results. */
export const ErrorEnvelopeSchema = Type.Object({
  ok: Type.Literal(false),
  error: Type.String({ description: 'Error code (docs/errors.md)' }),
  message: Type.String({ description: 'What went wrong, for a person' }),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;

/** The longest failure message the recent-requests list keeps; a longer one is cut and ends with "…". */
export const REQUEST_MESSAGE_MAX = 240;

/** One entry of the recent-requests list of the panel. */
/** A signed-in browser of the operator app (GET /api/panel/sessions). */
export const SessionRecordSchema = Type.Object({
  id: Type.String({ description: 'Names the session to end it; not its secret' }),
  device: Type.String({ description: "The browser's User-Agent when it signed in, shortened" }),
  address: Type.String({ description: 'The address it signed in from' }),
  createdAt: Type.Integer({ description: 'Server time (ms) of the sign-in' }),
  lastUsedAt: Type.Integer({ description: 'Server time (ms) of its last request' }),
  current: Type.Boolean({ description: 'The session of the browser asking' }),
});

export const RequestRecordSchema = Type.Object({
  time: Type.String({ description: 'ISO 8601' }),
  transport: OneOf(['http', 'ws', 'app'] as const, {
    description: 'http and ws: the automation server; app: the operator app',
  }),
  request: Type.String({ description: 'POST /api/actions/veto_select, trigger veto_select, connect …' }),
  status: Type.Integer(),
  error: Type.Optional(Type.String({ description: 'The error code of a failure' })),
  message: Type.Optional(
    Type.String({
      maxLength: REQUEST_MESSAGE_MAX,
      description: `The message of a failure, as its answer said it (cut to ${REQUEST_MESSAGE_MAX} characters)`,
    }),
  ),
  address: Type.String({ description: 'The sender address' }),
  id: Type.Integer({ minimum: 0, description: 'The entry: a repeated refusal updates its entry (same id)' }),
  count: Type.Optional(
    Type.Integer({
      minimum: 2,
      description: 'The same refusal from the same sender this many times in a row (time: the last)',
    }),
  ),
});
export type RequestRecord = Static<typeof RequestRecordSchema>;
