/**
 * The WebSocket's streams, one table: each event's name, what it says, the shape of its data, whether
 * it is a notification (it carries the current revision and does not raise it) and what it adds to
 * the snapshot of hello and of a resync. The event messages, the snapshot's schema and the pages'
 * list of notifications are derived from it (websocket.ts, pages/common/client.ts); the pages' store
 * must handle every stream and every snapshot part (its handler tables are typed by this one).
 */
import type { Static, TProperties, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import {
  ColorPresetSchema,
  HudStateSchema,
  MatchSummarySchema,
  ProductionSchema,
  RequestRecordSchema,
  RevealViewSchema,
  StatsPlayerSchema,
  VetoStatusSchema,
} from './answers.ts';
import { ObserverViewSchema } from './observer.ts';
import { RecorderViewSchema } from './recorder.ts';
import { BrandingSchema, PublicSettingsSchema } from './settings.ts';
import { LineupsSchema } from './teams.ts';

export interface StreamDeclaration<
  D extends TSchema = TSchema,
  S extends TProperties = TProperties,
  N extends boolean = boolean,
> {
  description: string;
  /** The event's data. */
  data: D;
  /** A notification tells something without changing the state: no revision of its own. */
  notification: N;
  /** What the stream adds to the snapshot (hello, and the answer after a revision gap): none is {}. */
  snapshot: S;
}

// The notification flag keeps its literal type: the hub's views are typed by the state streams.
const stream = <
  D extends TSchema,
  S extends TProperties = Record<never, never>,
  const N extends boolean = false,
>(
  declaration: Omit<StreamDeclaration<D, S, N>, 'snapshot' | 'notification'> &
    Partial<Pick<StreamDeclaration<D, S, N>, 'snapshot' | 'notification'>>,
): StreamDeclaration<D, S, N> => ({ notification: false as N, snapshot: {} as S, ...declaration });

/** What the operator app shows of the servers and their settings (the panel, not the HUD). */
export const PanelStatusSchema = Type.Object({
  settings: PublicSettingsSchema,
  automation: Type.Object({
    enabled: Type.Boolean({ description: 'Enable local automation server (saved)' }),
    listening: Type.Boolean({ description: 'The automation port is open now' }),
    port: Type.Union([Type.Integer(), Type.Null()]),
    httpUrls: Type.Array(Type.String(), { description: 'Loopback first, then each local-network address' }),
    wsUrls: Type.Array(Type.String()),
    clients: Type.Integer({
      minimum: 0,
      description:
        "Programs connected to the automation server's WebSocket now (a Stream Deck through Companion): closing the operator app stops their main-window commands",
    }),
  }),
  app: Type.Object({ appUrls: Type.Array(Type.String(), { description: 'The operator app and pages' }) }),
  overlayPages: Type.Integer({ minimum: 0, description: 'HUD overlay pages connected now' }),
});
export type PanelStatus = Static<typeof PanelStatusSchema>;

/** Every stream, in the order docs/asyncapi.json lists their events. */
export const STREAMS = {
  'hud.state': stream({
    description:
      'HUD-state fields that changed (a panel, the scene window, the main window, the roster, OBS)',
    data: Type.Partial(Type.Omit(HudStateSchema, ['revision'])),
    snapshot: { state: HudStateSchema },
  }),
  match: stream({
    description: 'The whole match summary, as GET /api/match',
    data: MatchSummarySchema,
    snapshot: { match: MatchSummarySchema },
  }),
  'veto.session': stream({
    description: 'The veto session status, as veto_status',
    data: VetoStatusSchema,
    snapshot: { veto: VetoStatusSchema },
  }),
  'veto.reveal': stream({
    description: 'What the veto panel reveals',
    data: RevealViewSchema,
    snapshot: { reveal: RevealViewSchema },
  }),
  presets: stream({
    description: 'Colour presets reported by the overlay, and the applied one',
    data: Type.Object({
      presets: Type.Array(ColorPresetSchema),
      activePresetId: Type.Union([Type.String(), Type.Null()]),
    }),
    // Two parts of the snapshot, as protocol 1 has always sent them.
    snapshot: {
      presets: Type.Array(ColorPresetSchema),
      activePresetId: Type.Union([Type.String(), Type.Null()], { description: 'The applied colour preset' }),
    },
  }),
  production: stream({
    description: 'Sponsor overlay, event badge and smart observer settings',
    data: ProductionSchema,
    snapshot: { production: ProductionSchema },
  }),
  observer: stream({
    description:
      'The automatic observer, as GET /api/observer: mode, link to the game, suggestion, last cuts',
    data: ObserverViewSchema,
    snapshot: { observer: ObserverViewSchema },
  }),
  recorder: stream({
    description:
      'Recording and replaying game data, as GET /api/recordings: what runs, the recordings folder',
    data: RecorderViewSchema,
    snapshot: { recorder: RecorderViewSchema },
  }),
  host: stream({
    description: 'What the application shell reported',
    data: Type.Object({
      mainWindowOpen: Type.Boolean(),
      signedIn: Type.Boolean(),
      subscriptionActive: Type.Boolean(),
    }),
  }),
  'stats.player': stream({
    description: 'The player the stats panel shows (null once it closed)',
    data: StatsPlayerSchema,
    snapshot: { statsPlayer: StatsPlayerSchema },
  }),
  'overlay.reload': stream({
    description: 'Notification: the overlay should reload (no revision change)',
    data: Type.Object({}),
    notification: true,
  }),
  'panel.status': stream({
    description:
      'Operator app only: the servers, their addresses and settings (after hello and on each change)',
    data: PanelStatusSchema,
    notification: true,
  }),
  'panel.request': stream({
    description: 'Operator app only: a request just answered, for the recent-requests list',
    data: Type.Object({ record: RequestRecordSchema }),
    notification: true,
  }),
  'replay.saved': stream({
    description: 'Notification: OBS saved the replay buffer to this file',
    data: Type.Object({
      path: Type.String({
        description: 'The clip, as OBS named it: the overlay plays GET /replay?path=<path>',
      }),
      folder: Type.String({ description: 'The folder OBS records to: a clip outside it is not served' }),
    }),
    notification: true,
  }),
  branding: stream({
    description:
      'The event logo, sponsors or talents changed in the operator app (settings), with its revision',
    data: BrandingSchema,
    notification: false,
    snapshot: { branding: BrandingSchema },
  }),
  'replay.failed': stream({
    description: 'Notification: OBS refused a save or did not report it',
    data: Type.Object({ message: Type.String() }),
    notification: true,
  }),
  lineups: stream({
    description:
      "The saved lineups of the match's two teams, as the versus scene shows them: changes with the database of teams and players and with the match's teams",
    data: LineupsSchema,
    snapshot: { lineups: LineupsSchema },
  }),
};

export type Streams = typeof STREAMS;
export type StreamName = keyof Streams;

/** The streams that are state: each change raises the revision (the hub computes them). */
export type StateStream = {
  [N in StreamName]: Streams[N]['notification'] extends true ? never : N;
}[StreamName];

/** The streams that are notifications: they carry the revision in force without raising it. */
export type NotificationStream = Exclude<StreamName, StateStream>;

/** The names of the streams that are notifications (no revision of their own). */
export const NOTIFICATION_STREAMS: ReadonlySet<StreamName> = new Set(
  (Object.keys(STREAMS) as StreamName[]).filter((name) => STREAMS[name].notification),
);

/** The streams that carry a part of the snapshot. */
export type SnapshotStream = {
  [N in StreamName]: keyof Streams[N]['snapshot'] extends never ? never : N;
}[StreamName];

type SnapshotParts = Streams[StreamName]['snapshot'];
type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void
  ? I
  : never;

/** Every stream's part of the snapshot, in the table's order. */
export const SNAPSHOT_PARTS = Object.assign(
  {},
  ...Object.values(STREAMS).map((declaration) => declaration.snapshot),
) as UnionToIntersection<SnapshotParts>;
