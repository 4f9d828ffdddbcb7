/**
 * The Machines view's wire contract (docs/machines-view.md): the charts laid out by the server, the
 * timeline of the events the actors received, and the context on demand. The routes of
 * src/app-server/machines-view.plugin.ts answer these shapes; the page src/pages/machines/ reads them.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';

export const EVENT_SOURCES = [
  'HTTP',
  'WebSocket',
  'operator',
  'game frame',
  'timer',
  'actor',
  'service',
] as const;

export const EventSourceSchema = Type.Union(
  EVENT_SOURCES.map((source) => Type.Literal(source)),
  {
    description:
      'Where the event came from: the automation server over HTTP, a WebSocket program, the operator app, a game frame, a timer of the machine itself (`after`), another actor, or the service (start-up, a restart, a settings listener)',
  },
);
export type EventSource = Static<typeof EventSourceSchema>;

const PointSchema = Type.Object({ x: Type.Number(), y: Type.Number() });

export const ChartBoxSchema = Type.Object({
  /** The state's path (`session.active`), `''` for the machine. */
  path: Type.String(),
  label: Type.String(),
  type: Type.Union(['atomic', 'compound', 'parallel', 'final', 'history'].map((type) => Type.Literal(type))),
  /** A region of a parallel state: drawn dashed. */
  region: Type.Boolean(),
  /** The initial child of its parent. */
  initial: Type.Boolean(),
  x: Type.Number(),
  y: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
  /**
   * Description, invoked actors and the transitions that are not arrows, one line each; a transition's
   * line carries its id, so the view marks it when taken (a targetless transition runs actions only).
   */
  lines: Type.Array(
    Type.Object({ text: Type.String(), transition: Type.Union([Type.String(), Type.Null()]) }),
  ),
});
export type ChartBox = Static<typeof ChartBoxSchema>;

export const ChartEdgeSchema = Type.Object({
  /** The transition's id (src/inspector/statechart-graph.ts): the timeline names the ones taken by it. */
  id: Type.String(),
  source: Type.String(),
  target: Type.String(),
  /** Event [guard] / actions. */
  label: Type.String(),
  points: Type.Array(PointSchema),
  labelAt: Type.Union([PointSchema, Type.Null()]),
});
export type ChartEdge = Static<typeof ChartEdgeSchema>;

export const ChartLayoutSchema = Type.Object({
  /** The actor's key in the roster (`vetoSession`, `scoreboard` …) and its systemId. */
  actor: Type.String(),
  systemId: Type.String(),
  machineId: Type.String(),
  width: Type.Number(),
  height: Type.Number(),
  states: Type.Array(ChartBoxSchema),
  edges: Type.Array(ChartEdgeSchema),
});
export type ChartLayout = Static<typeof ChartLayoutSchema>;

export const TimelineEntrySchema = Type.Object({
  seq: Type.Integer({ minimum: 1 }),
  /** Milliseconds since the epoch. */
  at: Type.Number(),
  actor: Type.String(),
  event: Type.String(),
  /** The event's fields without its type, secrets redacted, long strings and deep objects cut. */
  payload: Type.Unknown(),
  source: EventSourceSchema,
  /** The sending actor's systemId (or id) when the source is `actor` or `timer`. */
  from: Type.Union([Type.String(), Type.Null()]),
  /** The actor's state paths after the event, the machine's `''` first. */
  active: Type.Array(Type.String()),
  /** The transitions the event took (chart edge ids); none when the machine ignored it. */
  transitions: Type.Array(Type.String()),
  /** Whether the actor's snapshot changed (state or context). */
  changed: Type.Boolean(),
});
export type TimelineEntry = Static<typeof TimelineEntrySchema>;

export const ActorNowSchema = Type.Object({ actor: Type.String(), active: Type.Array(Type.String()) });
export type ActorNow = Static<typeof ActorNowSchema>;

/** What the stream sends: first `hello` (each actor's states now and the recent timeline), then entries. */
export const MachinesStreamMessageSchema = Type.Union([
  Type.Object({
    type: Type.Literal('hello'),
    actors: Type.Array(ActorNowSchema),
    timeline: Type.Array(TimelineEntrySchema),
  }),
  Type.Object({ type: Type.Literal('entry'), entry: TimelineEntrySchema }),
]);
export type MachinesStreamMessage = Static<typeof MachinesStreamMessageSchema>;

/** Where the view's routes live: under the panel API, so only a signed-in browser reaches them. */
export const MACHINES_API = '/api/panel/machines';
/** The second-screen page. */
export const MACHINES_PAGE = '/machines';
