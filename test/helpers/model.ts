/**
 * Model-based testing with xstate/graph: building a model, walking a path against a system under
 * test, naming paths, and an oracle for the veto that the machine tests and the HTTP tests share.
 */
import { expect } from 'vitest';
import type {
  ActorLogic,
  AnyMachineSnapshot,
  AnyStateMachine,
  EventFromLogic,
  EventObject,
  InputFrom,
  Snapshot,
  SnapshotFrom,
  StateValue,
} from 'xstate';
import type { Step, TestParam, TestPath } from 'xstate/graph';
import { serializeSnapshot, TestModel } from 'xstate/graph';
import type { BoFormat, Side, StepType, Team, VetoStep } from '../../machines/veto-rules.ts';

// ---------------------------------------------------------------------------------------------
// Models

type AnyEvent = EventObject & Record<string, unknown>;

/** The event types a snapshot's active state nodes handle themselves (what createTestModel offers). */
const ownEventTypes = (snapshot: AnyMachineSnapshot) =>
  new Set<string>(snapshot._nodes.flatMap((node) => node.ownEvents as string[]));

/**
 * The suffix of a state key: the type of the event that led there and the state value it left,
 * whenever the machine took the event (a transition was enabled). Events that change nothing the
 * machine keeps but tell another actor something (veto_set or reset_veto without a session, a
 * cancel after the last step) then reach a state of their own, so the walk takes them.
 */
export function viaHandledEvent(
  _snapshot: AnyMachineSnapshot,
  event: EventObject | undefined,
  previous: AnyMachineSnapshot | undefined,
): string {
  return event && previous?.can(event) ? ` via ${event.type} from ${JSON.stringify(previous.value)}` : '';
}

/** createTestModel's own suffix: the event and the previous state value, when the value changed. */
export function viaValueChange(
  snapshot: AnyMachineSnapshot,
  event: EventObject | undefined,
  previous: AnyMachineSnapshot | undefined,
): string {
  if (!event || (previous && JSON.stringify(previous.value) === JSON.stringify(snapshot.value))) return '';
  return ` via ${JSON.stringify(event)}${previous ? ` from ${JSON.stringify(previous.value)}` : ''}`;
}

export interface MachineModelOptions<TMachine extends AnyStateMachine> {
  input: InputFrom<TMachine>;
  /** Every event the walk may send, data included; only those the state handles are tried. */
  events:
    | readonly EventFromLogic<TMachine>[]
    | ((snapshot: SnapshotFrom<TMachine>) => readonly EventFromLogic<TMachine>[]);
  serializeTransition?: typeof viaHandledEvent;
}

/**
 * `createTestModel(machine, options)` for machines that it refuses: it throws "After events on
 * test machines are not supported" for a machine with `after` (the timed panel) and "Invocations
 * on test machines are not supported" for one with `invoke` (the veto import). `TestModel` is the
 * class createTestModel builds; this gives it the same state key (value, context, incoming
 * transition) and the same state matcher. Two differences: only the listed events are tried, where
 * createTestModel also sends a bare `{ type }` for every other event type a state handles; and
 * only events the state takes (`handledOnly`).
 */
export function machineModel<TMachine extends AnyStateMachine>(
  machine: TMachine,
  { input, events, serializeTransition = viaValueChange }: MachineModelOptions<TMachine>,
) {
  type S = SnapshotFrom<TMachine>;
  type E = EventFromLogic<TMachine>;
  return new TestModel<S, E, InputFrom<TMachine>>(
    machine as unknown as ActorLogic<S, E, InputFrom<TMachine>>,
    {
      input,
      serializeState: (snapshot, event, previous) =>
        `${serializeSnapshot(snapshot)}${serializeTransition(snapshot, event, previous)}`,
      stateMatcher: (snapshot, key) =>
        key.startsWith('#')
          ? (snapshot as AnyMachineSnapshot)._nodes.includes(machine.getStateNodeById(key))
          : (snapshot as AnyMachineSnapshot).matches(key as never),
      events: (snapshot) => {
        const own = ownEventTypes(snapshot);
        const all = typeof events === 'function' ? events(snapshot) : events;
        return all.filter((event) => own.has(event.type));
      },
      filterEvents: handledOnly,
    },
  );
}

/**
 * Tries only the events a state takes (a transition is enabled). An ignored event leaves the
 * snapshot as it was but drops the incoming-transition suffix of the key, so without this filter
 * it would add a copy of the state, and a walk that sends an event the system ignores.
 */
export const handledOnly = (snapshot: AnyMachineSnapshot, event: EventObject) => snapshot.can(event);

/**
 * For createTestModel, which also sends a bare `{ type }` for every event type a state handles
 * and the list leaves out: tries only the listed events, and only those the state takes.
 */
export const listedAndHandled =
  (events: readonly EventObject[]) =>
  (snapshot: AnyMachineSnapshot, event: EventObject): boolean =>
    events.includes(event) && snapshot.can(event);

// ---------------------------------------------------------------------------------------------
// Walking a path

export interface Walker<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject> {
  /** Starts a fresh system under test in the model's initial state. */
  start(): void | Promise<void>;
  /** Plays one model event on the system; `from` and `to` are the model states around it. */
  send(event: TEvent, from: TSnapshot, to: TSnapshot): void | Promise<void>;
  /** Checks the system against a model state. */
  check(expected: TSnapshot): void | Promise<void>;
}

/** Runs `path.test` with one walker: every event type of the path goes to `walker.send`. */
export async function walk<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject>(
  path: TestPath<TSnapshot, TEvent>,
  walker: Walker<TSnapshot, TEvent>,
): Promise<void> {
  let previous = path.steps[0]?.state as TSnapshot;
  const send = async ({ event, state }: Step<TSnapshot, TEvent>) => {
    await walker.send(event, previous, state);
  };
  const events: Record<string, (step: Step<TSnapshot, TEvent>) => void | Promise<void>> = {};
  for (const { event } of path.steps.slice(1)) events[event.type] = send;
  events['xstate.init'] = () => walker.start();
  await path.test({
    events: events as unknown as TestParam<TSnapshot, TEvent>['events'],
    states: {
      '*': async (state) => {
        await walker.check(state);
        previous = state;
      },
    },
  });
}

/** A readable test name: the events after the initial state. */
export function pathName<TSnapshot extends Snapshot<unknown>, TEvent extends EventObject>(
  path: TestPath<TSnapshot, TEvent>,
  describe: (event: TEvent) => string,
): string {
  const events = path.steps.slice(1).map(({ event }) => describe(event));
  return events.length > 0 ? events.join(' → ') : 'initial state';
}

/** Paths that play the same events in the same order once. */
export function uniquePaths<T extends TestPath<Snapshot<unknown>, EventObject>>(paths: readonly T[]): T[] {
  const seen = new Set<string>();
  return paths.filter((path) => {
    const key = JSON.stringify(path.steps.map((step) => step.event));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The distinct state values the paths go through, as JSON. */
export function reachedValues(paths: ReadonlyArray<TestPath<Snapshot<unknown>, EventObject>>): Set<string> {
  return new Set(
    paths.flatMap((path) =>
      path.steps.map((step) => JSON.stringify((step.state as AnyMachineSnapshot).value)),
    ),
  );
}

export const valueKey = (value: StateValue) => JSON.stringify(value);

export const shortMap = (map: string) => map.replace(/^de_/, '');

/** A one-line description of an event with data, for path names. */
export function describeEvent(event: AnyEvent): string {
  const { type, ...data } = event;
  const parts = Object.entries(data).map(([key, value]) =>
    typeof value === 'object' && value !== null ? `${key}…` : `${key}=${String(value)}`,
  );
  return parts.length > 0 ? `${type}(${parts.join(' ')})` : type;
}

// ---------------------------------------------------------------------------------------------
// The veto oracle: what the spec says a user sees, written without the machines' helpers.

/**
 * The type of every step, written out from the spec for the pools the tests use: bo1 bans until
 * one map is left, that map is the decider; bo3 bans until 5 are left, then 2 picks, 2 bans, the
 * decider; bo5 bans until 5 are left, then 4 picks, the decider.
 */
export function specOrder(boFormat: BoFormat, poolSize: number): StepType[] {
  const bans = (count: number) => Array.from({ length: count }, (): StepType => 'ban');
  if (boFormat === 'bo1') return [...bans(poolSize - 1), 'decider'];
  if (boFormat === 'bo3') return [...bans(poolSize - 5), 'pick', 'pick', 'ban', 'ban', 'decider'];
  return [...bans(poolSize - 5), 'pick', 'pick', 'pick', 'pick', 'decider'];
}

/** Who plays the step at `index` of a manual session: strict alternation from the first banner. */
export const specTurn = (firstBanner: Side, index: number): Side =>
  index % 2 === 0 ? firstBanner : firstBanner === 'A' ? 'B' : 'A';

export interface SessionShape {
  boFormat: BoFormat;
  firstBanner: Side;
  pool: readonly string[];
  steps: readonly VetoStep[];
}

/** What veto_status shows for a session, derived from the spec. */
export interface ExpectedStatus {
  active: true;
  boFormat: BoFormat;
  complete: boolean;
  nextStep: { type: StepType; team: Side | null } | null;
  remainingMaps: string[];
  steps: Array<{ type: StepType; team: Side | null; map: string }>;
}

export function expectedStatus(session: SessionShape): ExpectedStatus {
  const order = specOrder(session.boFormat, session.pool.length);
  const played = session.steps.length;
  const type = order[played];
  const used = new Set(session.steps.map((step) => step.map));
  return {
    active: true,
    boFormat: session.boFormat,
    complete: played === order.length,
    nextStep:
      type === undefined
        ? null
        : { type, team: type === 'decider' ? null : specTurn(session.firstBanner, played) },
    remainingMaps: session.pool.filter((map) => !used.has(map)),
    steps: session.steps.map((step) => ({ type: step.type, team: step.team ?? null, map: step.map })),
  };
}

/**
 * The rules every state of a manual session keeps: the steps follow the order of the format,
 * bans and picks alternate from the first banner, the decider has no team and is the last map
 * left, every map is from the pool and used once, and the session never waits on a decider.
 */
export function expectLegalSession(session: SessionShape): void {
  const order = specOrder(session.boFormat, session.pool.length);
  expect(session.steps.length).toBeLessThanOrEqual(order.length);
  for (const [index, step] of session.steps.entries()) {
    expect(step.type, `step ${index + 1}`).toBe(order[index]);
    if (step.type === 'decider') {
      expect(step.team, 'the decider has no team').toBeUndefined();
    } else {
      expect(step.team, `step ${index + 1} is played by`).toBe(specTurn(session.firstBanner, index));
    }
    expect(session.pool).toContain(step.map);
  }
  const maps = session.steps.map((step) => step.map);
  expect(new Set(maps).size, 'every map is used once').toBe(maps.length);
  if (session.steps.length < order.length) {
    expect(order[session.steps.length], 'the service plays the decider itself').not.toBe('decider');
  } else {
    const decider = session.steps.at(-1);
    expect(decider?.type).toBe('decider');
    expect(session.pool.filter((map) => !maps.slice(0, -1).includes(map))).toEqual([decider?.map]);
  }
}

/**
 * The steps a veto_select of `map` should leave, per the spec: the turn's ban or pick by the team
 * whose turn it is, and the decider with the last map when only the decider is left.
 */
export function specSelect(session: SessionShape, map: string): VetoStep[] {
  const order = specOrder(session.boFormat, session.pool.length);
  const index = session.steps.length;
  const type = order[index] as StepType;
  const steps: VetoStep[] = [...session.steps, { type, team: specTurn(session.firstBanner, index), map }];
  if (order[steps.length] === 'decider') {
    const used = new Set(steps.map((step) => step.map));
    const left = session.pool.filter((candidate) => !used.has(candidate));
    steps.push({ type: 'decider', map: left[0] as string });
  }
  return steps;
}

/** The steps a veto_undo should leave: the last ban or pick goes, with the decider that came with it. */
export function specUndo(steps: readonly VetoStep[]): VetoStep[] {
  const lastBanOrPick = steps.findLastIndex((step) => step.type !== 'decider');
  return steps.slice(0, Math.max(0, lastBanOrPick));
}

/** A series map as a user reads it in the match summary. */
export interface ExpectedSeriesMap {
  map: string;
  pickedBy: Side | 'decider';
}

/** The match parts the veto touches. */
export interface ExpectedSeries {
  boFormat: BoFormat | null;
  teamA: Team | null;
  teamB: Team | null;
  veto: VetoStep[] | null;
  maps: ExpectedSeriesMap[];
}

/** The series maps of a complete veto: the picks in order, then the decider. */
export function specSeriesMaps(steps: readonly VetoStep[]): ExpectedSeriesMap[] {
  return [
    ...steps
      .filter((step) => step.type === 'pick')
      .map((step) => ({ map: step.map, pickedBy: step.team as Side })),
    ...steps
      .filter((step) => step.type === 'decider')
      .map((step) => ({ map: step.map, pickedBy: 'decider' as const })),
  ];
}

export type VetoCommandEvent =
  | { type: 'veto.start'; boFormat: BoFormat; teamA: Team; teamB: Team; firstBanner: Side; pool: string[] }
  | { type: 'veto.select'; map: string }
  | { type: 'veto.undo' }
  | { type: 'veto.cancel' }
  | { type: 'veto.set'; boFormat: BoFormat; teamA: Team; teamB: Team; steps: VetoStep[] }
  | { type: 'veto.reset' }
  | { type: 'veto.applyImported'; boFormat: BoFormat; teamA: Team; teamB: Team; steps: VetoStep[] };

/**
 * What the match should show after each veto command, from the spec's table: veto_start shows the
 * session's steps live and keeps what was there; the series maps fill when the last step is played;
 * veto_cancel shows the veto that was there before, whole (also a finished session's that the
 * cancelled one replaced); veto_set (and an applied import) sets a
 * complete veto; reset_veto clears the veto and all series maps.
 */
export class SeriesOracle {
  series: ExpectedSeries;
  /** What the running session replaced; null without a session. */
  private before: ExpectedSeries | null = null;
  /** A session runs and has steps left to play. */
  private unfinished = false;

  constructor(initial: ExpectedSeries) {
    this.series = structuredClone(initial);
  }

  /** `after` is the session after the command (null when it ended), to follow select and undo. */
  apply(event: VetoCommandEvent, after: SessionShape | null): void {
    switch (event.type) {
      case 'veto.start': {
        // Replacing a session in progress keeps what that one replaced; replacing a finished one
        // keeps the finished veto, which is what the HUD showed.
        if (!this.unfinished || !this.before) this.before = structuredClone(this.series);
        this.unfinished = true;
        this.series = {
          boFormat: event.boFormat,
          teamA: event.teamA,
          teamB: event.teamB,
          veto: [],
          maps: structuredClone(this.before.maps),
        };
        return;
      }
      case 'veto.select':
      case 'veto.undo': {
        if (!after || !this.before) return;
        const complete = after.steps.length === specOrder(after.boFormat, after.pool.length).length;
        this.unfinished = !complete;
        this.series.veto = [...after.steps];
        this.series.maps = complete ? specSeriesMaps(after.steps) : structuredClone(this.before.maps);
        return;
      }
      case 'veto.cancel': {
        if (!this.before) return;
        this.series = this.before;
        this.before = null;
        return;
      }
      case 'veto.set':
      case 'veto.applyImported': {
        this.series = {
          boFormat: event.boFormat,
          teamA: event.teamA,
          teamB: event.teamB,
          veto: [...event.steps],
          maps: specSeriesMaps(event.steps),
        };
        this.before = null;
        return;
      }
      case 'veto.reset': {
        this.series = { ...this.series, veto: null, maps: [] };
        this.before = null;
        return;
      }
    }
  }
}
