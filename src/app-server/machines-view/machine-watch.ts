/**
 * The Machines view's live side: while at least one page watches, it inspects the actor system and
 * turns each event an actor of the roster received into a timeline entry (the event, a safe preview
 * of its payload, where it came from, the states after it, the transitions it took). While no page
 * watches, nothing is inspected: XState builds no inspection event for a system without observers,
 * and Fastify's diagnostics channel has no subscriber.
 */
import type { ActorRefLike, InspectionEvent } from 'xstate';
import { ACTOR_KEYS, type ActorKey, type HudSystem } from '../../core/hud-system.ts';
import { currentEventSource, hearRequests } from '../../http/event-source.ts';
import { transitionIdOf } from '../../inspector/statechart-graph.ts';
import { safePreview } from '../../inspector/redaction.ts';
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
}

export class MachineWatch {
  readonly #hud: WatchedSystem;
  readonly #watchers = new Set<(entry: TimelineEntry) => void>();
  #timelines = new Map<ActorKey, TimelineEntry[]>();
  #seq = 0;
  #stop: (() => void) | null = null;
  /** Where each event came from, noted when it is sent, read when the receiver's snapshot follows. */
  #origins = new WeakMap<object, Origin>();
  /** The transitions an actor took since its last snapshot (one macrostep). */
  #taken = new Map<ActorRefLike, string[]>();
  #last = new WeakMap<ActorRefLike, unknown>();

  constructor(hud: WatchedSystem) {
    this.#hud = hud;
  }

  get watching(): number {
    return this.#watchers.size;
  }

  /** Each actor's states now, and the entries kept so far. */
  now(): { actors: ActorNow[]; timeline: TimelineEntry[] } {
    return {
      actors: ACTOR_KEYS.map((actor) => ({
        actor,
        active: activePaths(this.#hud.actor(actor).getSnapshot().value),
      })),
      timeline: [...this.#timelines.values()].flat().sort((a, b) => a.seq - b.seq),
    };
  }

  /** Starts inspecting with the first watcher; the returned function stops watching. */
  watch(listener: (entry: TimelineEntry) => void): () => void {
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
        const taken = this.#taken.get(receiver) ?? [];
        for (const transition of inspection._transitions) taken.push(transitionIdOf(transition));
        this.#taken.set(receiver, taken);
        return;
      }
      case '@xstate.snapshot':
        this.#record(key, receiver, inspection.event, inspection.snapshot);
        return;
    }
  }

  #originOf(sender: ActorRefLike | undefined, receiver: ActorRefLike, type: string): Origin {
    if (sender === undefined) return { source: currentEventSource() ?? 'service', from: null };
    const name = this.#hud.keyOf(sender) ?? (sender as { id?: string }).id ?? null;
    if (sender === receiver && type.startsWith('xstate.after.')) return { source: 'timer', from: name };
    return { source: 'actor', from: name };
  }

  #record(actor: ActorKey, ref: ActorRefLike, event: { type: string }, snapshot: unknown): void {
    const origin = this.#origins.get(event) ?? { source: 'service', from: null };
    const { type, ...payload } = event;
    const changed = this.#last.get(ref) !== snapshot;
    this.#last.set(ref, snapshot);
    const entry: TimelineEntry = {
      seq: ++this.#seq,
      at: Date.now(),
      actor,
      event: type,
      payload: safePreview(payload),
      source: origin.source,
      from: origin.from,
      active: activePaths((snapshot as { value?: unknown }).value),
      transitions: this.#taken.get(ref) ?? [],
      changed,
    };
    this.#taken.delete(ref);
    const timeline = this.#timelines.get(actor) ?? [];
    timeline.push(entry);
    // Cut in steps, not at every entry.
    this.#timelines.set(
      actor,
      timeline.length > TIMELINE_LENGTH * 2 ? timeline.slice(-TIMELINE_LENGTH) : timeline,
    );
    for (const watcher of this.#watchers) watcher(entry);
  }
}
