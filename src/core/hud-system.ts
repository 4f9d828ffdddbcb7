import type { ActorRefFrom, AnyActorRef, InspectionEvent, SnapshotFrom } from 'xstate';
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
  /** Stops every actor and starts them again from `input` (a rollback to the saved state). */
  restart(input: HudInput): void;
  stop(): void;
}

export interface HudSystemOptions {
  input: HudInput;
  /** The supervisor with its IO actors provided (importer, OBS socket). */
  machine?: typeof supervisorMachine;
  inspect?: (event: InspectionEvent) => void;
}

export function startHudSystem({ input, machine = supervisorMachine, inspect }: HudSystemOptions): HudSystem {
  const actors = new Map<ActorKey, AnyActorRef>();
  const boot = (from: HudInput) => {
    const root = createActor(machine, { input: from, ...(inspect ? { inspect } : {}) });
    root.start();
    for (const key of ACTOR_KEYS) {
      const ref = root.system.get(SYSTEM_ID[key]);
      if (!ref) throw new Error(`actor ${SYSTEM_ID[key]} did not start`);
      actors.set(key, ref);
    }
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
    restart: (from) => {
      root.stop();
      root = boot(from);
    },
    stop: () => root.stop(),
  };
}
