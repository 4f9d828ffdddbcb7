/**
 * What the module reads from the server, as TypeBox schemas: `GET /`, a command's answer, and the
 * WebSocket's hello, snapshot, events and game messages. Everything from the server is untrusted
 * input (whatever listens at the configured address answers): a message is checked against these
 * schemas before any of it reaches the buttons, and one that does not match is refused with the
 * place where it differs.
 *
 * The schemas hold only the fields the module reads, and let every other field pass: the server's
 * own schemas (docs/asyncapi.json) are stricter, but a module must keep working when a server of
 * the same protocol adds a field, and parts the server is still adding (the observer's status, team
 * tags) are optional here. The tests run them against the real server's messages on every run.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import type { RawData } from 'ws';

export const PROTOCOL = 1;

const Revision = Type.Integer({ minimum: 0 });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const TeamSchema = Type.Object({
  name: Type.String(),
  /** Its short tag (NAVI, G2), when the operator set one. */
  tag: Type.Optional(Type.String()),
});
export type Team = Static<typeof TeamSchema>;

export const SeriesMapSchema = Type.Object({
  number: Type.Integer(),
  map: Type.String(),
  label: Type.String(),
  finished: Type.Boolean(),
  scoreA: Type.Integer(),
  scoreB: Type.Integer(),
  winner: Nullable(Type.String()),
});
export type SeriesMap = Static<typeof SeriesMapSchema>;

export const MatchSchema = Type.Object({
  eventName: Type.String(),
  boFormat: Nullable(Type.String()),
  teamA: Nullable(TeamSchema),
  teamB: Nullable(TeamSchema),
  maps: Type.Array(SeriesMapSchema),
  seriesScore: Type.Object({ a: Type.Integer(), b: Type.Integer() }),
});
export type Match = Static<typeof MatchSchema>;

export const VetoStepSchema = Type.Object({
  type: Type.Union([Type.Literal('ban'), Type.Literal('pick'), Type.Literal('decider')]),
  team: Type.Optional(Nullable(Type.Union([Type.Literal('A'), Type.Literal('B')]))),
});
export type VetoStep = Static<typeof VetoStepSchema>;

export const VetoStatusSchema = Type.Object({
  active: Type.Boolean(),
  complete: Type.Optional(Type.Boolean()),
  nextStep: Type.Optional(Nullable(VetoStepSchema)),
  remainingMaps: Type.Optional(Type.Array(Type.String())),
  teamA: Type.Optional(TeamSchema),
  teamB: Type.Optional(TeamSchema),
});
export type VetoStatus = Static<typeof VetoStatusSchema>;

/** Panel flags are `<panel>Visible` (read as `=== true`, so any other field of that name is harmless). */
export const HudStateSchema = Type.Object({
  revision: Type.Optional(Revision),
  scoreboardVisible: Type.Optional(Type.Boolean()),
  vetoVisible: Type.Optional(Type.Boolean()),
  statsVisible: Type.Optional(Type.Boolean()),
  radarVisible: Type.Optional(Type.Boolean()),
  gameReceiving: Type.Optional(Type.Boolean()),
  hudWindowOpen: Type.Optional(Type.Boolean()),
  mainWindowOpen: Type.Optional(Type.Boolean()),
  senScene: Type.Optional(Nullable(Type.String())),
  obs: Type.Optional(Type.Object({ connection: Type.String(), replayBufferActive: Type.Boolean() })),
  roster: Type.Optional(Type.Array(Type.Object({ slot: Type.Integer(), name: Type.String() }))),
  /** The side each team plays now (swap_sides flips it). */
  sides: Type.Optional(
    Nullable(
      Type.Object({
        teamA: Type.Optional(Nullable(Type.String())),
        teamB: Type.Optional(Nullable(Type.String())),
      }),
    ),
  ),
});
export type HudState = Static<typeof HudStateSchema>;

export const SmartObserverSchema = Type.Object({
  enabled: Type.Boolean(),
  mode: Type.String(),
  cinematicEnabled: Type.Boolean(),
});
export type SmartObserver = Static<typeof SmartObserverSchema>;

const ObserverLinkStateSchema = Type.Union([
  Type.Literal('connecting'),
  Type.Literal('connected'),
  Type.Literal('disconnected'),
  Type.Literal('off'),
]);
export type ObserverLinkState = Static<typeof ObserverLinkStateSchema>;

/** The smart observer's own status: an `observer` part of hello and an `observer` event. */
export const ObserverStatusSchema = Type.Object({
  ...SmartObserverSchema.properties,
  subscriptionActive: Type.Optional(Type.Boolean()),
  link: Type.Optional(Type.Object({ connection: ObserverLinkStateSchema })),
  suggestion: Type.Optional(
    Nullable(Type.Object({ slot: Type.Integer(), name: Type.Optional(Type.String()) })),
  ),
  /** Whether the game camera followed the last cut (pending, following, ignored, moved_away). */
  cameraFollows: Type.Optional(Nullable(Type.String())),
  /** How cuts reach the game: the strategy in use (null: none worked). */
  camera: Type.Optional(Type.Object({ strategy: Type.Optional(Nullable(Type.String())) })),
});
export type ObserverStatus = Static<typeof ObserverStatusSchema>;

export const ColorPresetSchema = Type.Object({ id: Type.String(), name: Type.Optional(Type.String()) });
export type ColorPreset = Static<typeof ColorPresetSchema>;

/** Whose figures the stats panel shows (show_player_stats), by HUD slot. */
export const StatsPlayerSchema = Type.Object({
  player: Nullable(Type.Object({ slot: Type.Integer() })),
});

export const SnapshotSchema = Type.Object({
  revision: Revision,
  state: HudStateSchema,
  match: MatchSchema,
  veto: VetoStatusSchema,
  reveal: Type.Object({ revealed: Type.Integer(), total: Type.Integer(), instant: Type.Boolean() }),
  production: Type.Object({ smartObserver: SmartObserverSchema }),
  activePresetId: Nullable(Type.String()),
  /** The colour presets the overlay reported (empty until an overlay page has run). */
  presets: Type.Optional(Type.Array(ColorPresetSchema)),
  observer: Type.Optional(Nullable(ObserverStatusSchema)),
  statsPlayer: Type.Optional(StatsPlayerSchema),
});
export type Snapshot = Static<typeof SnapshotSchema>;

/**
 * The data of each event the buttons follow (docs/websocket.md). Other events (replay.saved,
 * overlay.reload, branding, …) are notifications: their data is not read, so not checked.
 */
export const EVENT_DATA = {
  'hud.state': Type.Partial(HudStateSchema),
  host: Type.Object({ mainWindowOpen: Type.Boolean() }),
  match: MatchSchema,
  'veto.session': VetoStatusSchema,
  'veto.reveal': SnapshotSchema.properties.reveal,
  production: SnapshotSchema.properties.production,
  presets: Type.Object({
    presets: Type.Optional(Type.Array(ColorPresetSchema)),
    activePresetId: Type.Optional(Nullable(Type.String())),
  }),
  'stats.player': StatsPlayerSchema,
  observer: ObserverStatusSchema,
} satisfies Record<string, TSchema>;
/** The data of the event called E, as checked. */
export type EventData<E extends keyof typeof EVENT_DATA> = Static<(typeof EVENT_DATA)[E]>;

export const EventMessageSchema = Type.Object({
  type: Type.Literal('event'),
  event: Type.String(),
  revision: Revision,
  /** Shaped by `event`: checked against EVENT_DATA when the module reads that event. */
  data: Type.Unknown(),
});
export type EventMessage = Static<typeof EventMessageSchema>;

const Figure = Type.Optional(Nullable(Type.Number()));
const Word = Type.Optional(Nullable(Type.String()));

/** The parts of a live player the variables show; `null` for a player who left. */
const LivePlayerSchema = Nullable(
  Type.Object({
    name: Type.Optional(Type.String()),
    slot: Figure,
    side: Word,
    health: Figure,
    money: Figure,
    kills: Figure,
    deaths: Figure,
    adr: Figure,
  }),
);
export type LivePlayer = NonNullable<Static<typeof LivePlayerSchema>>;

const LiveMapSchema = Type.Object({
  name: Word,
  phase: Word,
  round: Figure,
  ctScore: Figure,
  tScore: Figure,
});
export type LiveMap = Static<typeof LiveMapSchema>;
const LiveRoundSchema = Type.Object({ phase: Word, clock: Figure });
export type LiveRound = Static<typeof LiveRoundSchema>;
const LiveBombSchema = Type.Object({ state: Word, countdown: Figure });
export type LiveBomb = Static<typeof LiveBombSchema>;

/** The parts of a `game` message the module reads (the observed player, the live figures). */
export const GameMessageSchema = Type.Object({
  type: Type.Literal('game'),
  full: Type.Optional(Type.Boolean()),
  live: Type.Optional(
    Type.Object({
      observed: Type.Optional(
        Nullable(Type.Object({ steamid: Type.Optional(Type.String()), slot: Type.Optional(Type.Integer()) })),
      ),
      players: Type.Optional(Nullable(Type.Record(Type.String(), LivePlayerSchema))),
      map: Type.Optional(Nullable(LiveMapSchema)),
      round: Type.Optional(Nullable(LiveRoundSchema)),
      bomb: Type.Optional(Nullable(LiveBombSchema)),
    }),
  ),
});
export type GameMessage = Static<typeof GameMessageSchema>;

const HelloSchema = Type.Object({ type: Type.Literal('hello'), snapshot: SnapshotSchema });
const SnapshotAnswerSchema = Type.Object({ type: Type.Literal('snapshot'), snapshot: SnapshotSchema });
/** Every message has a type; the module reads hello, snapshot, event and game, and skips the rest. */
const AnyMessageSchema = Type.Object({ type: Type.String() });

export type ServerMessage =
  | Static<typeof HelloSchema>
  | Static<typeof SnapshotAnswerSchema>
  | EventMessage
  | GameMessage
  /** result, pong, error, or a type a newer server added: nothing the buttons show. */
  | { type: 'other' };

/** `GET /` of hud-automation; whatever else answers there lacks these fields. */
export const ServiceAnswerSchema = Type.Object({
  ok: Type.Optional(Type.Boolean()),
  service: Type.Optional(Type.String()),
  version: Type.Optional(Type.String()),
  protocol: Type.Optional(Type.Number()),
  message: Type.Optional(Type.String()),
});
export type ServiceAnswer = Static<typeof ServiceAnswerSchema>;

/** A command's answer: the envelope of docs/api.md (`state` on success, `error` on a refusal). */
export const CommandEnvelopeSchema = Type.Object({
  ok: Type.Boolean(),
  error: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  state: Type.Optional(Type.Object({ revision: Type.Optional(Revision) })),
  result: Type.Optional(Type.Unknown()),
});
export type CommandEnvelope = Static<typeof CommandEnvelopeSchema>;

const HelloCheck = TypeCompiler.Compile(HelloSchema);
const SnapshotAnswerCheck = TypeCompiler.Compile(SnapshotAnswerSchema);
const EventMessageCheck = TypeCompiler.Compile(EventMessageSchema);
const GameMessageCheck = TypeCompiler.Compile(GameMessageSchema);
const AnyMessageCheck = TypeCompiler.Compile(AnyMessageSchema);
const ServiceAnswerCheck = TypeCompiler.Compile(ServiceAnswerSchema);
const CommandEnvelopeCheck = TypeCompiler.Compile(CommandEnvelopeSchema);
const EVENT_DATA_CHECKS = new Map<string, TypeCheck<TSchema>>(
  Object.entries(EVENT_DATA).map(([event, schema]) => [event, TypeCompiler.Compile(schema)]),
);

// A path can name keys the server chose (a player's steamid): cut, so a refusal stays one line.
const PATH_CHARS = 120;

/** Where a value first differs from its schema: `/snapshot/revision: Expected required property`. */
function firstDifference(check: TypeCheck<TSchema>, value: unknown, under = ''): string {
  const error = check.Errors(value).First();
  const path = `${under}${error?.path ?? ''}` || '/';
  const shown = path.length > PATH_CHARS ? `${path.slice(0, PATH_CHARS)}…` : path;
  return `${shown}: ${error?.message ?? 'does not match'}`;
}

/** `GET /`'s answer, or undefined when it is not a JSON object of hud-automation's shape. */
export function readServiceAnswer(text: string): ServiceAnswer | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return ServiceAnswerCheck.Check(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A command's answer, or what is wrong with it. */
export function readCommandEnvelope(text: string): CommandEnvelope | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'is not JSON' };
  }
  return CommandEnvelopeCheck.Check(value)
    ? value
    : { problem: `is not an answer of hud-automation (${firstDifference(CommandEnvelopeCheck, value)})` };
}

/**
 * One WebSocket message: the message, checked, or why the module refuses it (shown as "wrong
 * service at …: <problem>"). The socket bounds the message's size (maxPayload).
 */
export function readServerMessage(data: RawData, isBinary: boolean): ServerMessage | { problem: string } {
  if (isBinary) return { problem: 'a binary message (the protocol sends text)' };
  let value: unknown;
  try {
    value = JSON.parse(data.toString());
  } catch {
    return { problem: 'a message that is not JSON' };
  }
  const refused = (what: string, check: TypeCheck<TSchema>, part: unknown = value, under = '') => ({
    problem: `${what} does not match protocol ${PROTOCOL} (${firstDifference(check, part, under)})`,
  });
  if (!AnyMessageCheck.Check(value)) return refused('a message', AnyMessageCheck);
  switch (value.type) {
    case 'hello':
      return HelloCheck.Check(value) ? value : refused('its hello', HelloCheck);
    case 'snapshot':
      return SnapshotAnswerCheck.Check(value) ? value : refused('a snapshot', SnapshotAnswerCheck);
    case 'game':
      return GameMessageCheck.Check(value) ? value : refused('a game message', GameMessageCheck);
    case 'event': {
      if (!EventMessageCheck.Check(value)) return refused('an event', EventMessageCheck);
      const dataCheck = EVENT_DATA_CHECKS.get(value.event);
      if (dataCheck && !dataCheck.Check(value.data)) {
        return refused(`a ${value.event} event`, dataCheck, value.data, '/data');
      }
      return value;
    }
    default:
      return { type: 'other' };
  }
}
