/**
 * The Machines view's live side: while at least one page watches, it inspects the actor system and
 * turns each event an actor of the roster received into a timeline entry (the event, a safe preview
 * of its payload, where it came from, the states after it, the transitions it took). While no page
 * watches, nothing is inspected: XState builds no inspection event for a system without observers,
 * and Fastify's diagnostics channel has no subscriber.
 */
import { dequal } from 'dequal';
import type { ActorRefLike, AnyTransitionDefinition, InspectionEvent } from 'xstate';
import { ACTOR_KEYS, type ActorKey, type HudSystem } from '../../core/hud-system.ts';
import { currentEventSource, hearRequests } from '../../http/event-source.ts';
import { safePreview } from '../../inspector/redaction.ts';
import { transitionIdOf } from '../../inspector/statechart-graph.ts';
import type { ActorNow, EventSource, TimelineEntry } from '../../protocol/machines-view.ts';

export type WatchedSystem = Pick<HudSystem, 'inspect' | 'keyOf' | 'actor'>;

/**
 * Entries kept per actor, for a page that opens later and for replaying a veto (a bo5 veto is under
 * 40 events). Per actor, so twenty game frames a second to the observer never push a veto out.
 */
export const TIMELINE_LENGTH = 200;

/** A state value's active paths (`session`, `session.active`, `session.active.inProgress`), the machine's `''` first. */
export function activePaths(value: unknown): string[] {
  const paths = [''];
  const walk = (inner: unknown, at: string): void => {
    const join = (key: string) => (at === '' ? key : `${at}.${key}`);
    if (typeof inner === 'string') paths.push(join(inner));
    else if (typeof inner === 'object' && inner !== null) {
      for (const [key, deeper] of Object.entries(inner)) {
        paths.push(join(key));
        walk(deeper, join(key));
      }
    }
  };
  walk(value, '');
  return paths;
}

interface Origin {
  source: EventSource;
  from: string | null;
  /** Sent while a game frame was handled: the frame itself, or what an actor sent on hearing it. */
  byFrame: boolean;
}

/**
 * One event an actor received, as recorded. Cheap to record (references only): the payload's preview,
 * the state paths and the transition ids are worked out the first time a page is sent the entry, so
 * the game-frame entries a page does not see (src/app-server/machines-view/thinning.ts) cost little.
 */
export class Recorded {
  readonly seq: number;
  readonly at: number;
  readonly actor: ActorKey;
  /** Whether the actor's state value differs from its previous entry's (not only its context). */
  readonly moved: boolean;
  readonly byFrame: boolean;
  readonly #event: { type: string };
  readonly #origin: Origin;
  readonly #value: unknown;
  readonly #transitions: readonly AnyTransitionDefinition[];
  readonly #changed: boolean;
  #entry: TimelineEntry | null = null;
  #json: string | null = null;

  constructor(
    seq: number,
    actor: ActorKey,
    event: { type: string },
    origin: Origin,
    value: unknown,
    transitions: readonly AnyTransitionDefinition[],
    changed: boolean,
    moved: boolean,
  ) {
    this.seq = seq;
    this.at = Date.now();
    this.actor = actor;
    this.#event = event;
    this.#origin = origin;
    this.#value = value;
    this.#transitions = transitions;
    this.#changed = changed;
    this.moved = moved;
    this.byFrame = origin.byFrame;
  }

  get entry(): TimelineEntry {
    if (this.#entry === null) {
      const { type, ...payload } = this.#event;
      this.#entry = {
        seq: this.seq,
        at: this.at,
        actor: this.actor,
        event: type,
        payload: safePreview(payload),
        source: this.#origin.source,
        from: this.#origin.from,
        active: activePaths(this.#value),
        transitions: this.#transitions.map(transitionIdOf),
        changed: this.#changed,
      };
    }
    return this.#entry;
  }

  /** The entry as JSON, made once for every page that is sent it. */
  get json(): string {
    this.#json ??= JSON.stringify(this.entry);
    return this.#json;
  }
}

export class MachineWatch {
  readonly #hud: WatchedSystem;
  readonly #watchers = new Set<(record: Recorded) => void>();
  #timelines = new Map<ActorKey, Recorded[]>();
  #seq = 0;
  #stop: (() => void) | null = null;
  /** Where each event came from, noted when it is sent, read when the receiver's snapshot follows. */
  #origins = new WeakMap<object, Origin>();
  /** The transitions an actor took since its last snapshot (one macrostep). */
  #taken = new Map<ActorRefLike, AnyTransitionDefinition[]>();
  #last = new WeakMap<ActorRefLike, { value?: unknown }>();

  constructor(hud: WatchedSystem) {
    this.#hud = hud;
  }

  get watching(): number {
    return this.#watchers.size;
  }

  /** Each actor's states now, and the events kept so far, oldest first. */
  now(): { actors: ActorNow[]; records: Recorded[] } {
    return {
      actors: ACTOR_KEYS.map((actor) => ({
        actor,
        active: activePaths(this.#hud.actor(actor).getSnapshot().value),
      })),
      records: [...this.#timelines.values()].flat().sort((a, b) => a.seq - b.seq),
    };
  }

  /** Starts inspecting with the first watcher; the returned function stops watching. */
  watch(listener: (record: Recorded) => void): () => void {
    this.#watchers.add(listener);
    if (this.#stop === null) {
      for (const key of ACTOR_KEYS) {
        const ref = this.#hud.actor(key);
        this.#last.set(ref, ref.getSnapshot());
      }
      const stopInspecting = this.#hud.inspect((event) => this.#hear(event));
      const stopHearing = hearRequests();
      this.#stop = () => {
        stopInspecting();
        stopHearing();
        this.#taken.clear();
      };
    }
    return () => {
      if (!this.#watchers.delete(listener) || this.#watchers.size > 0) return;
      this.#stop?.();
      this.#stop = null;
    };
  }

  #hear(inspection: InspectionEvent): void {
    const receiver = inspection.actorRef;
    const key = this.#hud.keyOf(receiver);
    if (key === undefined) return;
    switch (inspection.type) {
      case '@xstate.event':
        this.#origins.set(
          inspection.event,
          this.#originOf(inspection.sourceRef, receiver, inspection.event.type),
        );
        return;
      case '@xstate.microstep': {
        const taken = this.#taken.get(receiver);
        if (taken) taken.push(...inspection._transitions);
        else this.#taken.set(receiver, [...inspection._transitions]);
        return;
      }
      case '@xstate.snapshot':
        this.#record(key, receiver, inspection.event, inspection.snapshot as { value?: unknown });
        return;
    }
  }

  #originOf(sender: ActorRefLike | undefined, receiver: ActorRefLike, type: string): Origin {
    const current = currentEventSource();
    const byFrame = current === 'game frame';
    if (sender === undefined) return { source: current ?? 'service', from: null, byFrame };
    const name = this.#hud.keyOf(sender) ?? (sender as { id?: string }).id ?? null;
    if (sender === receiver && type.startsWith('xstate.after.'))
      return { source: 'timer', from: name, byFrame };
    return { source: 'actor', from: name, byFrame };
  }

  #record(actor: ActorKey, ref: ActorRefLike, event: { type: string }, snapshot: { value?: unknown }): void {
    const origin = this.#origins.get(event) ?? { source: 'service', from: null, byFrame: false };
    const last = this.#last.get(ref);
    this.#last.set(ref, snapshot);
    const moved = last === undefined || !dequal(last.value, snapshot.value);
    const record = new Recorded(
      ++this.#seq,
      actor,
      event,
      origin,
      snapshot.value,
      this.#taken.get(ref) ?? [],
      last !== snapshot,
      moved,
    );
    this.#taken.delete(ref);
    const timeline = this.#timelines.get(actor) ?? [];
    timeline.push(record);
    // Cut in steps, not at every entry.
    this.#timelines.set(
      actor,
      timeline.length > TIMELINE_LENGTH * 2 ? timeline.slice(-TIMELINE_LENGTH) : timeline,
    );
    for (const watcher of this.#watchers) watcher(record);
  }
}
