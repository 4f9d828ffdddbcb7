/**
 * The state every page draws from: one signal per resource, filled by the client (client.ts) from
 * the hello snapshot and the events of the WebSocket. Pages read these and never compute what the
 * server already knows.
 */
import { computed, signal } from '@preact/signals';
import type {
  EventData,
  EventName,
  HudState,
  Lineups,
  MatchSummary,
  ObserverView,
  RecorderView,
  RequestRecord,
  RevealView,
  Snapshot,
  SnapshotStream,
  VetoStatus,
} from '../../protocol/index.ts';

export type Presets = EventData<'presets'>;
export type Production = EventData<'production'>;
export type PanelStatus = EventData<'panel.status'>;
export type StatsPlayer = EventData<'stats.player'>;

/** The WebSocket as the page sees it. `reconnecting` keeps the last state on screen. */
export interface Connection {
  status: 'connecting' | 'open' | 'reconnecting' | 'closed';
  /** The revision of the state on screen (0 before the first hello). */
  revision: number;
  /** Failed attempts since the last open connection. */
  attempts: number;
  /** Milliseconds until the next attempt while reconnecting. */
  retryInMs: number | null;
  /** The close code of the last connection, for pages that react to 4401/4403. */
  lastCloseCode: number | null;
}

/** A notification the page shows once (replay saved or failed). */
export interface Notice {
  kind: 'replay.saved' | 'replay.failed' | 'overlay.reload';
  text: string;
  at: number;
}

export const state = signal<HudState | null>(null);
export const match = signal<MatchSummary | null>(null);
export const veto = signal<VetoStatus>({ active: false });
export const reveal = signal<RevealView | null>(null);
export const presets = signal<Presets>({ presets: [], activePresetId: null });
export const production = signal<Production | null>(null);
/** The automatic observer: mode, link to the game, the suggestion and the last cuts. */
export const observer = signal<ObserverView | null>(null);
/** Recording and replaying game data: what runs, the recordings folder. */
export const recorder = signal<RecorderView | null>(null);
export const statsPlayer = signal<StatsPlayer>({ player: null, durationMs: null });
/** The saved lineups of the match's teams (the versus scene's), from the server. */
export const lineups = signal<Lineups>({ A: [], B: [] });
export const panelStatus = signal<PanelStatus | null>(null);
export const requests = signal<RequestRecord[]>([]);
export const notices = signal<Notice[]>([]);
/** The event logo, sponsors and talents set in the operator app. */
export const branding = signal<EventData<'branding'>>({ eventLogo: null, sponsors: [], talents: [] });
/** The last replay OBS saved (a notification), for the overlay to play. */
export const lastReplay = signal<{ path: string; at: number } | null>(null);
export const connection = signal<Connection>({
  status: 'connecting',
  revision: 0,
  attempts: 0,
  retryInMs: null,
  lastCloseCode: null,
});
/**
 * The link's status alone: the connection object is replaced on every event (its revision), and a
 * page root that shows only the status should not render again for each of them.
 */
export const connectionStatus = computed(() => connection.value.status);

/** How many recent requests the page keeps (the server's list is of the same order). */
export const MAX_REQUESTS = 300;

/**
 * What each stream's part of the snapshot replaces: one entry per stream that has a part (the
 * streams' table, src/protocol/streams.ts), so a new part does not compile until a page keeps it.
 */
const fromSnapshot: { [S in SnapshotStream]: (snapshot: Snapshot) => void } = {
  'hud.state': (snapshot) => {
    state.value = snapshot.state;
  },
  match: (snapshot) => {
    match.value = snapshot.match;
  },
  'veto.session': (snapshot) => {
    veto.value = snapshot.veto;
  },
  'veto.reveal': (snapshot) => {
    reveal.value = snapshot.reveal;
  },
  presets: (snapshot) => {
    presets.value = { presets: snapshot.presets, activePresetId: snapshot.activePresetId };
  },
  production: (snapshot) => {
    if (snapshot.production) production.value = snapshot.production;
  },
  observer: (snapshot) => {
    if (snapshot.observer) observer.value = snapshot.observer;
  },
  recorder: (snapshot) => {
    if (snapshot.recorder) recorder.value = snapshot.recorder;
  },
  // A page that opens (or reloads) while the stats panel is shown draws it as the others do.
  'stats.player': (snapshot) => {
    if (snapshot.statsPlayer) statsPlayer.value = snapshot.statsPlayer;
  },
  branding: (snapshot) => {
    if (snapshot.branding) branding.value = snapshot.branding;
  },
  lineups: (snapshot) => {
    if (snapshot.lineups) lineups.value = snapshot.lineups;
  },
};
const SNAPSHOT_STREAMS = Object.keys(fromSnapshot) as SnapshotStream[];

/** Replaces every resource the snapshot carries (hello, or the answer after a revision gap). */
export function applySnapshot(snapshot: Snapshot): void {
  for (const stream of SNAPSHOT_STREAMS) fromSnapshot[stream](snapshot);
}

/** Applies one event's data to its resource. */
export function applyEvent<E extends EventName>(event: E, data: EventData<E>): void {
  const apply = handlers[event] as ((data: EventData<E>) => void) | undefined;
  apply?.(data);
}

type EventHandlers = { [E in EventName]: (data: EventData<E>) => void };

const notify = (kind: Notice['kind'], text: string) => {
  notices.value = [{ kind, text, at: Date.now() }, ...notices.value].slice(0, 5);
};

const handlers: EventHandlers = {
  'hud.state': (data) => {
    if (state.value) state.value = { ...state.value, ...data };
  },
  match: (data) => {
    match.value = data;
  },
  'veto.session': (data) => {
    veto.value = data;
  },
  'veto.reveal': (data) => {
    reveal.value = data;
  },
  presets: (data) => {
    presets.value = data;
  },
  production: (data) => {
    production.value = data;
  },
  observer: (data) => {
    observer.value = data;
  },
  recorder: (data) => {
    recorder.value = data;
  },
  host: () => {
    // mainWindowOpen also arrives in hud.state; signedIn is the operator app's own business.
  },
  'stats.player': (data) => {
    statsPlayer.value = data;
  },
  'overlay.reload': () => notify('overlay.reload', 'The overlay was asked to reload'),
  'replay.saved': (data) => {
    lastReplay.value = { path: data.path, at: Date.now() };
    notify('replay.saved', `Replay saved: ${data.path}`);
  },
  branding: (data) => {
    branding.value = data;
  },
  'replay.failed': (data) => notify('replay.failed', `Replay not saved: ${data.message}`),
  lineups: (data) => {
    lineups.value = data;
  },
  'panel.status': (data) => {
    panelStatus.value = data;
  },
  'panel.request': (data) => {
    // A repeated refusal comes again with its entry's id, counted: it replaces that entry.
    const others = requests.value.filter((record) => record.id !== data.record.id);
    requests.value = [data.record, ...others].slice(0, MAX_REQUESTS);
  },
};
