import { dequal } from 'dequal';
import type { Emitter } from 'mitt';
import mittModule from 'mitt';
import type { AnyActorRef } from 'xstate';
import type { StorageStatus } from '../protocol/answers.ts';
import { HudStateSchema } from '../protocol/answers.ts';
import type { Settings } from '../protocol/settings.ts';
import type { StateStream } from '../protocol/streams.ts';
import { STREAMS } from '../protocol/streams.ts';
import type { TeamsDocument } from '../protocol/teams.ts';
import type { EventData, EventMessage, EventName, Snapshot } from '../protocol/websocket.ts';
import { brandingOf } from '../settings/settings.ts';
import type { ActorKey, HudSystem, Snapshots } from './hud-system.ts';
import { ACTOR_KEYS } from './hud-system.ts';
import { lineupsOf } from './lineups-view.ts';
import type { NoticeBus } from './notices.ts';
import { PAGE_NOTICES } from './notices.ts';
import type { HudState, HudStateKey } from './views.ts';
import {
  HUD_STATE_SOURCES,
  hudStateOf,
  matchSummaryOf,
  observerViewOf,
  presetsOf,
  productionOf,
  recorderViewOf,
  revealOf,
  statsPlayerOf,
  vetoStatusOf,
} from './views.ts';

// mitt's CommonJS-style default export types as "not callable" under module nodenext.
const mitt = mittModule as unknown as typeof mittModule.default;

export type HubEvents = {
  /** A client-visible change, or a page's notice from the bus, as the WebSocket sends it. */
  event: EventMessage;
  /**
   * Sources changed (also a change no client sees), with the snapshots they changed to: the
   * persistence decides whether what it saves changed (src/persistence/saved-input.ts, savedChange).
   */
  changed: { sources: ReadonlySet<SourceKey>; snapshots: Snapshots };
};

/**
 * What the hub watches: every actor, the settings in force and the database of teams and players
 * (neither owner is an actor; what the pages show of them travels with a revision like the rest,
 * docs/architecture.md).
 */
export type SourceKey = ActorKey | 'settings' | 'teams';

/** What the views are computed from: the actors' snapshots, the settings in force, the database. */
export type Sources = Snapshots & { settings: Settings; teams: TeamsDocument };

interface View<E extends EventName = EventName> {
  event: E;
  sources: readonly SourceKey[];
  /**
   * What the view is computed from: when none of these changed (by identity) since the last
   * computation, the view did not change either and is not computed again.
   */
  inputs(sources: Sources): readonly unknown[];
  compute(sources: Sources): EventData<E>;
}

/** The state streams the views compute: every one but the HUD state, which the hub builds itself. */
type ViewEvent = Exclude<StateStream, 'hud.state'>;

/**
 * Everything a client can observe besides the HUD state, each an event named after it: one view per
 * state stream of src/protocol/streams.ts, so a stream added there without its view fails to compile.
 */
const VIEW_TABLE: { [E in ViewEvent]: Omit<View<E>, 'event'> } = {
  match: {
    sources: ['match', 'vetoReveal'],
    inputs: (s) => [s.match.context, s.vetoReveal.context],
    compute: matchSummaryOf,
  },
  'veto.session': {
    sources: ['vetoSession', 'match'],
    inputs: ({ vetoSession, match }) => [
      vetoSession.context.session,
      match.context.teamA,
      match.context.teamB,
    ],
    compute: vetoStatusOf,
  },
  'veto.reveal': {
    sources: ['match', 'vetoReveal'],
    inputs: (s) => [s.match.context.veto, s.vetoReveal.context],
    compute: revealOf,
  },
  presets: {
    sources: ['host'],
    inputs: ({ host }) => [host.context.presets, host.context.colorPresetId],
    compute: (s) => presetsOf(s.host),
  },
  production: {
    sources: ['production', 'observer'],
    inputs: (s) => [s.production.context, s.observer.context.settings],
    compute: productionOf,
  },
  observer: {
    sources: ['observer'],
    // Not the director's memory or the suggestion's score: they move with every frame.
    inputs: ({ observer: { context, value } }) => [
      value,
      context.settings,
      context.subscriptionActive,
      context.netcon,
      context.lastError,
      context.director.suggestion,
      context.director.freeze,
      context.cuts,
      context.follow,
    ],
    compute: (s) => observerViewOf(s.observer),
  },
  recorder: {
    sources: ['recorder'],
    inputs: ({ recorder: { context, value } }) => [
      value,
      context.recording?.file,
      context.replay,
      context.ended,
      context.recordings,
    ],
    compute: (s) => recorderViewOf(s.recorder),
  },
  host: {
    sources: ['host'],
    inputs: ({ host: { context } }) => [context.mainWindowOpen, context.signedIn, context.subscriptionActive],
    compute: ({ host: { context } }) => ({
      mainWindowOpen: context.mainWindowOpen,
      signedIn: context.signedIn,
      subscriptionActive: context.subscriptionActive,
    }),
  },
  'stats.player': {
    sources: ['stats'],
    inputs: ({ stats: { context } }) => [context.player, context.durationMs],
    compute: statsPlayerOf,
  },
  branding: {
    sources: ['settings'],
    inputs: ({ settings }) => [brandingOf(settings)],
    compute: ({ settings }) => brandingOf(settings),
  },
  lineups: {
    sources: ['match', 'teams'],
    inputs: ({ match, teams }) => [match.context.teamA?.name, match.context.teamB?.name, teams],
    compute: ({ match, teams }) => lineupsOf(match.context.teamA, match.context.teamB, teams),
  },
};

const VIEWS = Object.entries(VIEW_TABLE).map(([event, view]) => ({ event, ...view }) as unknown as View);

/** What a view was last computed from, and what it was (a new object with the same content is no change). */
interface Computed {
  inputs: readonly unknown[];
  data: unknown;
}

const sameInputs = (a: readonly unknown[], b: readonly unknown[]) => a.every((value, i) => value === b[i]);

/** What reads answer from: the HUD state with its revision, the snapshots the views take, the views. */
export type StateReads = Pick<StateHub, 'hudState' | 'snapshots' | 'revision' | 'snapshotView'>;

/**
 * Where each view's data goes in the snapshot (streams.ts, `snapshot`): under the part's name, or,
 * when the stream names several parts, as its fields (the presets and the applied one).
 */
const snapshotPartsOf = (event: ViewEvent, data: unknown): Record<string, unknown> => {
  const parts = Object.keys(STREAMS[event].snapshot);
  if (parts.length === 1) return { [parts[0] as string]: data };
  return parts.length === 0 ? {} : (data as Record<string, unknown>);
};

/**
 * The revision and the events. It watches every actor; whatever runs between `batch` start and
 * end (one command) becomes at most one revision, and a change nobody can see becomes none.
 * Changes outside a command (a timer, the OBS connection) commit at once.
 */
export class StateHub {
  readonly emitter: Emitter<HubEvents> = mitt<HubEvents>();
  #revision: number;
  #snapshots: Snapshots;
  /** #snapshots was handed out (or kept as #hudSnapshots): the next change copies it first. */
  #snapshotsShared = true;
  #dirty = new Set<SourceKey>();
  #depth = 0;
  #commitScheduled = false;
  #hud: HudState;
  /** The snapshots #hud was built from: its parts whose snapshot is still the same are reused. */
  #hudSnapshots: Snapshots;
  #storage: StorageStatus;
  #storageChanged = false;
  #computed = new Map<EventName, Computed>();
  #unsubscribe: Array<() => void> = [];

  /** The settings in force, as last given (setSettings). */
  #settings: Settings;
  /** The database of teams and players, as last given (setTeams). */
  #teams: TeamsDocument;
  /** The pages' notices (PAGE_NOTICES) go out as events, at the revision in force. */
  readonly #onNotice: Array<() => void> = [];

  constructor(
    private readonly system: HudSystem,
    /** The settings in force at start (the saved ones with this run's overrides). */
    inForce: Settings,
    /** The database of teams and players at start. */
    teams: TeamsDocument,
    revision: number,
    storage: StorageStatus,
    /**
     * Called with each new revision before anything carrying it is sent: the store's lease makes
     * sure no revision sent is used again after a crash (docs/persistence.md).
     */
    private readonly beforeSend: (revision: number) => void,
    /** The bus the OBS actor's notices go to, and the pages' notices come from. */
    private readonly notices: NoticeBus,
  ) {
    this.#revision = revision;
    this.#storage = storage;
    this.#settings = inForce;
    this.#teams = teams;
    this.#snapshots = system.snapshots();
    this.#hud = hudStateOf(this.#snapshots, revision, storage);
    this.#hudSnapshots = this.#snapshots;
    const sources = this.#sources();
    for (const view of VIEWS) {
      this.#computed.set(view.event, { inputs: view.inputs(sources), data: view.compute(sources) });
    }
    for (const notice of PAGE_NOTICES) {
      const send = (data: unknown) =>
        this.emitter.emit('event', {
          type: 'event',
          event: notice,
          revision: this.#revision,
          data,
        } as EventMessage);
      notices.on(notice, send);
      this.#onNotice.push(() => notices.off(notice, send));
    }
    this.#attach();
  }

  #attach(): void {
    for (const key of ACTOR_KEYS) {
      const actor: AnyActorRef = this.system.actor(key);
      const subscription = actor.subscribe((snapshot: unknown) => this.#onSnapshot(key, snapshot));
      this.#unsubscribe.push(() => subscription.unsubscribe());
    }
    // Notices that are not state (a replay saved or refused): onto the bus, whichever actor runs now.
    const emitted = this.system
      .actor('obs')
      .on('*', ({ type, ...data }) => this.notices.emit(type, data as never));
    this.#unsubscribe.push(() => emitted.unsubscribe());
  }

  #detach(): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#unsubscribe = [];
  }

  /**
   * Around a restart of the actors (a rollback to the last saved state): the old actors' stop is
   * not a change, the new actors' state is, as one revision with the events of what differs.
   */
  restartActors(restart: () => void): void {
    this.#detach();
    restart();
    this.#attach();
    const snapshots = this.system.snapshots();
    for (const key of ACTOR_KEYS) {
      if (snapshots[key] !== this.#snapshots[key]) this.#dirty.add(key);
    }
    this.#snapshots = snapshots;
    if (this.#depth === 0) this.#commit();
  }

  /**
   * The settings in force changed (a settings command, a rollback): what clients see of them goes
   * out with a new revision, so a client that compares revisions (pong, a resync) cannot miss it.
   */
  setSettings(settings: Settings): void {
    if (settings === this.#settings) return;
    this.#settings = settings;
    this.#dirty.add('settings');
    if (this.#depth === 0) this.#commit();
  }

  /** The database of teams and players changed (a save, a removal, an import): its views go out as state. */
  setTeams(teams: TeamsDocument): void {
    if (teams === this.#teams) return;
    this.#teams = teams;
    this.#dirty.add('teams');
    if (this.#depth === 0) this.#commit();
  }

  /** Whether changes can be saved: part of the HUD state, so the operator sees it. */
  setStorage(status: StorageStatus): void {
    if (status.ok === this.#storage.ok && status.reason === this.#storage.reason) return;
    this.#storage = status;
    this.#storageChanged = true;
    if (this.#depth === 0) this.#commit();
  }

  get revision(): number {
    return this.#revision;
  }

  snapshots(): Snapshots {
    this.#snapshotsShared = true;
    return this.#snapshots;
  }

  hudState(): HudState {
    return { ...this.#hud, revision: this.#revision };
  }

  /** The snapshot of hello and of a resync: the HUD state and every view, as of the revision in force. */
  snapshotView(): Snapshot {
    const snapshot: Record<string, unknown> = { revision: this.#revision, state: this.hudState() };
    for (const view of VIEWS) {
      Object.assign(snapshot, snapshotPartsOf(view.event as ViewEvent, this.#computed.get(view.event)?.data));
    }
    return snapshot as Snapshot;
  }

  /** Commits what changed since the last commit (after the awaited part of a command). */
  flush(): void {
    this.#commit();
  }

  /** Runs one command: every change it makes becomes one revision. */
  batch<T>(run: () => T): T {
    this.#depth++;
    try {
      return run();
    } finally {
      this.#depth--;
      if (this.#depth === 0) this.#commit();
    }
  }

  close(): void {
    this.#detach();
    for (const off of this.#onNotice.splice(0)) off();
    this.emitter.all.clear();
  }

  #onSnapshot(key: ActorKey, snapshot: unknown): void {
    // An event a machine ignores leaves its snapshot the very same object.
    if (snapshot === this.#snapshots[key]) return;
    // One copy per commit, not one per change: what was handed out is never changed.
    if (this.#snapshotsShared) {
      this.#snapshots = { ...this.#snapshots };
      this.#snapshotsShared = false;
    }
    (this.#snapshots as Record<ActorKey, unknown>)[key] = snapshot;
    this.#dirty.add(key);
    // Outside a command, a synchronous cascade (a timer, an import finishing and applying) still
    // becomes one revision: commit once the cascade is over.
    if (this.#depth === 0 && !this.#commitScheduled) {
      this.#commitScheduled = true;
      queueMicrotask(() => this.#commit());
    }
  }

  #sources(): Sources {
    return { ...this.#snapshots, settings: this.#settings, teams: this.#teams };
  }

  #commit(): void {
    this.#commitScheduled = false;
    if (this.#dirty.size === 0 && !this.#storageChanged) return;
    const storageChanged = this.#storageChanged;
    this.#storageChanged = false;
    const dirty = this.#dirty;
    this.#dirty = new Set();
    this.emitter.emit('changed', { sources: dirty, snapshots: this.snapshots() });

    const events: Array<{ event: EventName; data: unknown }> = [];
    if (storageChanged || HUD_STATE_SOURCES.some((key) => dirty.has(key))) {
      const before = { snapshots: this.#hudSnapshots, state: this.#hud };
      const next = hudStateOf(this.#snapshots, this.#revision, this.#storage, before);
      this.#hudSnapshots = this.#snapshots;
      this.#snapshotsShared = true;
      const changed = changedFields(this.#hud, next);
      this.#hud = next;
      if (changed) events.push({ event: 'hud.state', data: changed });
    }
    let sources: Sources | null = null;
    for (const view of VIEWS) {
      if (!view.sources.some((key) => dirty.has(key))) continue;
      const last = this.#computed.get(view.event) as Computed;
      sources ??= this.#sources();
      const inputs = view.inputs(sources);
      if (sameInputs(inputs, last.inputs)) continue;
      const data = view.compute(sources);
      this.#computed.set(view.event, { inputs, data });
      // A structural comparison: several times cheaper than serialising both to compare the text.
      if (dequal(data, last.data)) continue;
      events.push({ event: view.event, data });
    }
    if (events.length === 0) return;
    this.#revision++;
    this.beforeSend(this.#revision);
    for (const { event, data } of events) {
      this.emitter.emit('event', { type: 'event', event, revision: this.#revision, data } as EventMessage);
    }
  }
}

/** Every field of the HUD state but the revision, as the schema lists them. */
const HUD_FIELDS = Object.keys(HudStateSchema.properties).filter(
  (key): key is HudStateKey => key !== 'revision',
);

/** The HUD-state fields whose value differs, or null. A flag that disappears is sent as null. */
function changedFields(before: HudState, after: HudState): Record<string, unknown> | null {
  let changed: Record<string, unknown> | null = null;
  for (const key of HUD_FIELDS) {
    const a = before[key];
    const b = after[key];
    // Unchanged parts are the same objects (hudStateOf reuses them): a deep comparison only for a rebuilt one.
    if (a === b || (typeof a === 'object' && dequal(a, b))) continue;
    changed ??= {};
    changed[key] = b ?? null;
  }
  return changed;
}
