/**
 * The WebSocket protocol, whole, in one file: what a client may send and what the server sends.
 * Shaped after obs-websocket v5 (hello, request/response with a client id, events) and Home
 * Assistant's WebSocket API (auth first, id-correlated results, ping/pong). docs/websocket.md
 * documents it; the schemas here are the source of truth for both.
 */
import type { Static, TInteger, TLiteral, TObject } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { HudStateSchema } from './answers.ts';
import type { ErrorCode } from './errors.ts';
import { ERROR_STATUS } from './errors.ts';
import { GameMessage } from './game.ts';
import { OneOf } from './schemas.ts';
import type { StreamName, Streams } from './streams.ts';
import { SNAPSHOT_PARTS, STREAMS } from './streams.ts';

export const PROTOCOL_VERSION = 1;

/** Close codes of the service (the 1000s are the WebSocket standard's). */
export const CLOSE = {
  /** Missing, wrong or late token, or the token was regenerated. */
  unauthorized: 4401,
  /** Local network mode was switched off while a device was connected. */
  forbidden: 4403,
  /** A remote device kept sending after a second's budget of its messages had been refused. */
  rateLimited: 4429,
  /** The client did not read its messages: more than MAX_BUFFERED_BYTES were waiting. */
  tooSlow: 4008,
  /** A message over MAX_MESSAGE_BYTES (sent by the ws library). */
  tooLarge: 1009,
  /** The service is stopping. */
  goingAway: 1001,
} as const;

export const MAX_MESSAGE_BYTES = 64 * 1024;
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
export const AUTH_DEADLINE_MS = 5_000;
export const PING_INTERVAL_MS = 30_000;

/**
 * Streams a connection gets only when it asks for them: high-volume, so outside the default, as
 * obs-websocket v5 keeps InputVolumeMeters out of its default event subscription and a client opts in
 * with Identify's eventSubscriptions. `game`: the live game data (`game` messages, up to 20 a second).
 * The pages of the application server (a connection that names its `?role=`) get `game` without asking:
 * they draw it.
 */
export const SUBSCRIPTIONS = ['game'] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

/**
 * The streams a connection asked for in its address (`?subscribe=game`, a list separated by commas
 * or the parameter repeated). A name this server does not know is left out, not refused, so that a
 * newer client still connects to an older server; `hello` says what the connection gets.
 */
export function subscriptionsAsked(values: readonly string[]): Set<Subscription> {
  const asked = new Set<Subscription>();
  for (const value of values) {
    for (const name of value.split(',')) {
      const known = SUBSCRIPTIONS.find((subscription) => subscription === name.trim());
      if (known) asked.add(known);
    }
  }
  return asked;
}

/** What a client may put in the WebSocket's address (`ws://127.0.0.1:44555/?…`). */
export const ConnectionQuery = Type.Object({
  token: Type.Optional(
    Type.String({ description: 'The access token: local-network clients (or a first auth message)' }),
  ),
  subscribe: Type.Optional(
    Type.String({
      description: `Streams beyond the default, separated by commas: ${SUBSCRIPTIONS.join(', ')} (live game data)`,
    }),
  ),
});

export const MessageId = Type.Union([Type.String({ maxLength: 128 }), Type.Number()], {
  description: 'Chosen by the client; echoed in the answer',
});

export const AuthMessage = Type.Object(
  { type: Type.Literal('auth'), token: Type.String({ maxLength: 512 }) },
  { additionalProperties: false, description: 'First message of a local-network client without ?token' },
);

export const TriggerMessage = Type.Object(
  {
    type: Type.Literal('trigger'),
    id: Type.Optional(MessageId),
    action: Type.String({ maxLength: 64, description: 'A command id from GET /api/actions' }),
    payload: Type.Optional(Type.Unknown({ description: 'The command payload, as over HTTP' })),
  },
  { additionalProperties: false },
);

export const PingMessage = Type.Object(
  { type: Type.Literal('ping'), id: Type.Optional(MessageId) },
  { additionalProperties: false, description: 'Application-level ping (browsers cannot send ping frames)' },
);

export const SnapshotRequest = Type.Object(
  { type: Type.Literal('snapshot'), id: Type.Optional(MessageId) },
  { additionalProperties: false, description: 'Asks for a fresh snapshot, e.g. after a revision gap' },
);

export const ReportMessage = Type.Object(
  {
    type: Type.Literal('report'),
    id: Type.Optional(MessageId),
    report: Type.Unknown({
      description:
        'What the HUD overlay shows: the payload of overlay_report (panel flags, its colour presets, opened)',
    }),
  },
  {
    additionalProperties: false,
    description: 'HUD overlay pages only (role=overlay): report what the overlay shows; answered by a result',
  },
);

export const ClientMessage = Type.Union([
  TriggerMessage,
  PingMessage,
  SnapshotRequest,
  AuthMessage,
  ReportMessage,
]);
export type ClientMessage = Static<typeof ClientMessage>;

const Revision = Type.Integer({ minimum: 0 });
const NullableId = Type.Union([MessageId, Type.Null()]);
const ErrorCodeSchema = OneOf(Object.keys(ERROR_STATUS) as ErrorCode[]);

/** Everything a client needs to draw the HUD from scratch: each stream's part (streams.ts). */
export const SnapshotSchema = Type.Object({ revision: Revision, ...SNAPSHOT_PARTS });
export type Snapshot = Static<typeof SnapshotSchema>;

type EventSchema<N extends StreamName> = TObject<{
  type: TLiteral<'event'>;
  event: TLiteral<N>;
  revision: TInteger;
  data: Streams[N]['data'];
}>;

const eventOf = <N extends StreamName>(event: N): EventSchema<N> =>
  Type.Object(
    {
      type: Type.Literal('event'),
      event: Type.Literal(event),
      revision: Revision,
      data: STREAMS[event].data as Streams[N]['data'],
    },
    { additionalProperties: false, description: STREAMS[event].description },
  );

/** Every event the server sends, by name, with the shape of its data: one per stream. */
export const EVENT_MESSAGES = (Object.keys(STREAMS) as StreamName[]).map(eventOf) as ReadonlyArray<
  { [N in StreamName]: EventSchema<N> }[StreamName]
>;

/** An event message, one member per event name. */
export type EventMessage = { [N in StreamName]: Static<EventSchema<N>> }[StreamName];
export type EventName = EventMessage['event'];
/** The data of the event called E. */
export type EventData<E extends EventName> = Extract<EventMessage, { event: E }>['data'];

export const HelloMessage = Type.Object(
  {
    type: Type.Literal('hello'),
    service: Type.String(),
    version: Type.String(),
    protocol: Type.Integer(),
    subscriptions: Type.Array(OneOf(SUBSCRIPTIONS), {
      description:
        'The streams this connection gets beyond the default: game (asked with ?subscribe=game, or a page)',
    }),
    snapshot: SnapshotSchema,
  },
  { additionalProperties: false, description: 'First message once the client is accepted' },
);

export const SnapshotAnswer = Type.Object(
  { type: Type.Literal('snapshot'), id: NullableId, snapshot: SnapshotSchema },
  { additionalProperties: false },
);

export const ResultMessage = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('result'),
        id: NullableId,
        action: Type.String(),
        ok: Type.Literal(true),
        state: Type.Intersect([Type.Partial(HudStateSchema), Type.Object({ revision: Revision })]),
        result: Type.Object({}, { additionalProperties: true }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: Type.Literal('result'),
        id: NullableId,
        action: Type.String(),
        ok: Type.Literal(false),
        status: Type.Integer(),
        error: ErrorCodeSchema,
        message: Type.String(),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'The answer to a trigger: the HTTP envelope plus id and action' },
);

export const PongMessage = Type.Object(
  { type: Type.Literal('pong'), id: NullableId, revision: Revision },
  { additionalProperties: false },
);

export const ErrorMessage = Type.Object(
  { type: Type.Literal('error'), id: NullableId, error: ErrorCodeSchema, message: Type.String() },
  { additionalProperties: false, description: 'A message that is not JSON or not of the protocol' },
);

export const ServerMessage = Type.Union([
  HelloMessage,
  SnapshotAnswer,
  ...EVENT_MESSAGES,
  ResultMessage,
  PongMessage,
  ErrorMessage,
  GameMessage,
]);
export type ServerMessage = Static<typeof ServerMessage>;
