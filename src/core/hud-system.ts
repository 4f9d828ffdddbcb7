import type { ActorRefFrom, ActorRefLike, AnyActorRef, InspectionEvent, SnapshotFrom } from 'xstate';
import { createActor } from 'xstate';
import type { panelMachine } from '../../machines/panel.machine.ts';
import type { PanelId } from '../../machines/panels.ts';
import type { HudInput, SUBSYSTEMS } from '../../machines/supervisor.machine.ts';
import { supervisorMachine } from '../../machines/supervisor.machine.ts';
import { SYSTEM_ID } from '../../machines/system-ids.ts';

/** The machine behind each actor key (machines/supervisor.machine.ts and machines/panels.ts). */
type MachineOf = typeof SUBSYSTEMS & { [K in PanelId]: typeof panelMachine };

export type ActorKey = keyof MachineOf;
export type ActorOf<K extends ActorKey> = ActorRefFrom<MachineOf[K]>;
export type SnapshotOf<K extends ActorKey> = SnapshotFrom<MachineOf[K]>;
export type EventOf<K extends ActorKey> = Parameters<ActorOf<K>['send']>[0];
export type Snapshots = { [K in ActorKey]: SnapshotOf<K> };

export const ACTOR_KEYS = Object.keys(SYSTEM_ID) as ActorKey[];

/** The running supervisor and typed access to its children by systemId. */
export interface HudSystem {
  actor<K extends ActorKey>(key: K): ActorOf<K>;
  send<K extends ActorKey>(key: K, event: EventOf<K>): void;
  snapshot<K extends ActorKey>(key: K): SnapshotOf<K>;
  snapshots(): Snapshots;
  /**
   * Hears every inspection event of the actor system (invoked and spawned children too), from now
   * until the returned function is called, across restarts. Nothing is inspected while no one
   * listens: XState builds no inspection event for a system without observers.
   */
  inspect(listener: (event: InspectionEvent) => void): () => void;
  /**
   * Hears every snapshot of one actor from now until the returned function is called, across
   * restarts (a rollback starts new actors: the listener follows the new one).
   */
  follow<K extends ActorKey>(key: K, listener: (snapshot: SnapshotOf<K>) => void): () => void;
  /** The roster key of an actor of this system, or undefined (the supervisor, an IO child). */
  keyOf(ref: ActorRefLike | undefined): ActorKey | undefined;
  /** Stops every actor and starts them again from `input` (a rollback to the saved state). */
  restart(input: HudInput): void;
  stop(): void;
}

export interface HudSystemOptions {
  input: HudInput;
  /** The supervisor with its IO actors provided (importer, OBS socket). */
  machine?: typeof supervisorMachine;
  /** For the whole life of the system, from the first event on (`--inspect`, src/inspector.ts). */
  inspect?: (event: InspectionEvent) => void;
}

export function startHudSystem({ input, machine = supervisorMachine, inspect }: HudSystemOptions): HudSystem {
  const actors = new Map<ActorKey, AnyActorRef>();
  const keys = new Map<AnyActorRef, ActorKey>();
  // Listeners that come and go (the Machines view): one observer of the system while there are any.
  const listeners = new Set<(event: InspectionEvent) => void>();
  const toListeners = (event: InspectionEvent) => {
    for (const listener of listeners) listener(event);
  };
  let inspection: { unsubscribe(): void } | null = null;
  const followers = new Set<{ key: ActorKey; listener: (snapshot: never) => void; stop: () => void }>();
  const subscribe = (follower: { key: ActorKey; listener: (snapshot: never) => void; stop: () => void }) => {
    const subscription = (actors.get(follower.key) as AnyActorRef).subscribe((snapshot) =>
      follower.listener(snapshot as never),
    );
    follower.stop = () => subscription.unsubscribe();
  };
  const boot = (from: HudInput) => {
    const root = createActor(machine, { input: from, ...(inspect ? { inspect } : {}) });
    // Before start, so a listener sees the actors' first states too.
    if (listeners.size > 0) inspection = root.system.inspect(toListeners);
    root.start();
    keys.clear();
    for (const key of ACTOR_KEYS) {
      const ref = root.system.get(SYSTEM_ID[key]);
      if (!ref) throw new Error(`actor ${SYSTEM_ID[key]} did not start`);
      actors.set(key, ref);
      keys.set(ref, key);
    }
    for (const follower of followers) subscribe(follower);
    return root;
  };
  let root = boot(input);
  const ref = (key: ActorKey) => actors.get(key) as AnyActorRef;
  return {
    actor: <K extends ActorKey>(key: K) => ref(key) as ActorOf<K>,
    send: (key, event) => ref(key).send(event),
    snapshot: <K extends ActorKey>(key: K) => ref(key).getSnapshot() as SnapshotOf<K>,
    snapshots: () =>
      Object.fromEntries(ACTOR_KEYS.map((key) => [key, ref(key).getSnapshot()])) as unknown as Snapshots,
    inspect: (listener) => {
      listeners.add(listener);
      inspection ??= root.system.inspect(toListeners);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          inspection?.unsubscribe();
          inspection = null;
        }
      };
    },
    follow: (key, listener) => {
      const follower = { key, listener: listener as (snapshot: never) => void, stop: () => {} };
      followers.add(follower);
      subscribe(follower);
      return () => {
        follower.stop();
        followers.delete(follower);
      };
    },
    keyOf: (candidate) => (candidate === undefined ? undefined : keys.get(candidate as AnyActorRef)),
    restart: (from) => {
      inspection?.unsubscribe();
      inspection = null;
      for (const follower of followers) follower.stop();
      root.stop();
      root = boot(from);
    },
    stop: () => root.stop(),
  };
}
