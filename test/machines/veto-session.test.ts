import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActorRefFrom, AnyActorRef, SnapshotFrom } from 'xstate';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { MATCH_DEFAULTS, type matchMachine } from '../../machines/match.machine.ts';
import { defaultObsSettings } from '../../machines/obs-connection.machine.ts';
import { OBSERVER_DEFAULTS } from '../../machines/observer.machine.ts';
import type { panelMachine } from '../../machines/panel.machine.ts';
import { PRODUCTION_DEFAULTS } from '../../machines/production.machine.ts';
import type { HudInput } from '../../machines/supervisor.machine.ts';
import { supervisorMachine } from '../../machines/supervisor.machine.ts';
import { PANEL_IDS, SYSTEM_ID } from '../../machines/system-ids.ts';
import type { vetoRevealMachine } from '../../machines/veto-reveal.machine.ts';
import { REVEAL_DEFAULTS } from '../../machines/veto-reveal.machine.ts';
import type { BoFormat, Side, Team } from '../../machines/veto-rules.ts';
import { POOL_SIZE } from '../../machines/veto-rules.ts';
import type {
  ImportedVeto,
  ImportRequest,
  VetoSessionContext,
  VetoSessionEvent,
} from '../../machines/veto-session.machine.ts';
import { vetoSessionMachine } from '../../machines/veto-session.machine.ts';
import type { ActorKey, Snapshots } from '../../src/core/hud-system.ts';
import { ACTOR_KEYS } from '../../src/core/hud-system.ts';
import { matchSummaryOf, vetoStatusOf } from '../../src/core/views.ts';
import type { SessionShape, VetoCommandEvent, Walker } from '../helpers/model.ts';
import {
  describeEvent,
  expectedStatus,
  expectLegalSession,
  machineModel,
  pathName,
  reachedValues,
  SeriesOracle,
  shortMap,
  specOrder,
  specSelect,
  specSeriesMaps,
  specUndo,
  uniquePaths,
  valueKey,
  viaHandledEvent,
  walk,
} from '../helpers/model.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';

type SessionSnapshot = SnapshotFrom<typeof vetoSessionMachine>;
type DoneEvent = { type: 'xstate.done.actor.matchImport'; output: ImportedVeto };
type ErrorEvent = { type: 'xstate.error.actor.matchImport'; error: { code: string; message: string } };
type ModelEvent = VetoSessionEvent | DoneEvent | ErrorEvent;

const TEAMS = { teamA: { name: 'Alpha' }, teamB: { name: 'Bravo' } };
const POOL_BO1 = ['de_ancient', 'de_mirage', 'de_nuke'];
const POOL_BO3 = ['de_ancient', 'de_anubis', 'de_inferno', 'de_mirage', 'de_nuke'];

const START_BO1 = {
  type: 'veto.start',
  boFormat: 'bo1',
  ...TEAMS,
  firstBanner: 'B',
  pool: POOL_BO1,
} as const satisfies VetoSessionEvent;
const START_BO3 = {
  type: 'veto.start',
  boFormat: 'bo3',
  ...TEAMS,
  firstBanner: 'A',
  pool: POOL_BO3,
} as const satisfies VetoSessionEvent;

const SET_STEPS = BO3_ACTIVE_DUTY;
const SET_BO3: VetoSessionEvent = {
  type: 'veto.set',
  boFormat: 'bo3',
  teamA: { name: 'Navi' },
  teamB: { name: 'Vitality' },
  steps: SET_STEPS,
};

const IMPORTED: ImportedVeto = {
  provider: 'hltv',
  matchId: '2370001',
  teamA: { name: 'Spirit' },
  teamB: { name: 'FaZe' },
  boFormat: 'bo1',
  steps: [
    { type: 'ban', team: 'A', map: 'de_anubis' },
    { type: 'ban', team: 'B', map: 'de_inferno' },
    { type: 'decider', map: 'de_nuke' },
  ],
};
const IMPORT_AND_SHOW: VetoSessionEvent = {
  type: 'veto.import',
  request: {
    requestId: 'import-1',
    url: 'https://www.hltv.org/matches/2370001/x',
    apply: true,
    show: true,
  },
};
const IMPORT_READ_ONLY: VetoSessionEvent = {
  type: 'veto.import',
  request: {
    requestId: 'import-2',
    platformMatchId: '1-abc',
    apply: false,
    show: false,
  },
};
const IMPORT_DONE: DoneEvent = { type: 'xstate.done.actor.matchImport', output: IMPORTED };
const IMPORT_FAILED: ErrorEvent = {
  type: 'xstate.error.actor.matchImport',
  error: { code: 'conflict', message: 'the veto is not available yet' },
};

const SIMPLE_EVENTS: VetoSessionEvent[] = [
  START_BO1,
  START_BO3,
  { type: 'veto.undo' },
  { type: 'veto.cancel' },
  { type: 'veto.reset' },
  SET_BO3,
];

/** Every map still free is a possible veto_select. */
function selections(snapshot: SessionSnapshot): VetoSessionEvent[] {
  const session = snapshot.context.session;
  if (!session) return [];
  const used = new Set(session.steps.map((step) => step.map));
  return session.pool.filter((map) => !used.has(map)).map((map) => ({ type: 'veto.select', map }));
}

function describeModelEvent(event: ModelEvent): string {
  switch (event.type) {
    case 'veto.start':
      return `start ${event.boFormat} ${event.firstBanner} first`;
    case 'veto.select':
      return `select ${shortMap(event.map)}`;
    case 'veto.set':
      return `set ${event.boFormat}`;
    case 'veto.import':
      return `import${event.request.apply ? ' apply' : ''}${event.request.show ? ' show' : ''}`;
    case 'xstate.done.actor.matchImport':
      return 'import done';
    case 'xstate.error.actor.matchImport':
      return 'import failed';
    default:
      return describeEvent(event as never).replace(/^veto\./, '');
  }
}

/** A veto session's context without what an import read from the other actors. */
function withoutReadings(context: VetoSessionContext) {
  const last = context.lastImport;
  if (!last?.ok) return context;
  const { plan: _plan, before: _before, ...rest } = last;
  return { ...context, lastImport: rest };
}

// ---------------------------------------------------------------------------------------------
// The system under test: the real supervisor, with the importer played by the test.

function hudInput(): HudInput {
  return {
    host: {
      mainWindowOpen: true,
      signedIn: true,
      subscriptionActive: false,
      presets: [],
      colorPresetId: null,
      roster: [],
      mapFigures: null,
      gameReceiving: false,
    },
    match: structuredClone(MATCH_DEFAULTS),
    vetoSession: { session: null },
    vetoReveal: { ...REVEAL_DEFAULTS },
    sceneWindow: { scene: null },
    panels: Object.fromEntries(
      PANEL_IDS.map((id) => [id, { visible: null, hideAt: null }]),
    ) as HudInput['panels'],
    production: structuredClone(PRODUCTION_DEFAULTS),
    obs: { ...defaultObsSettings, enabled: false },
    observer: structuredClone(OBSERVER_DEFAULTS),
    history: { undo: [], redo: [] },
    now: Date.now(),
  };
}

interface PendingImport {
  input: ImportRequest;
  resolve: (veto: ImportedVeto) => void;
  reject: (error: unknown) => void;
}

function startSystem() {
  const imports: PendingImport[] = [];
  const matchImport = fromPromise<ImportedVeto, ImportRequest>(
    ({ input }) => new Promise((resolve, reject) => imports.push({ input, resolve, reject })),
  );
  const machine = supervisorMachine.provide({
    actors: { vetoSession: vetoSessionMachine.provide({ actors: { matchImport } }) },
  });
  const root = createActor(machine, { input: hudInput() });
  root.start();
  const get = (key: ActorKey) => root.system.get(SYSTEM_ID[key]) as AnyActorRef;
  return {
    root,
    imports,
    session: get('vetoSession') as ActorRefFrom<typeof vetoSessionMachine>,
    match: get('match') as ActorRefFrom<typeof matchMachine>,
    vetoPanel: get('vetoPanel') as ActorRefFrom<typeof panelMachine>,
    snapshots: () =>
      Object.fromEntries(ACTOR_KEYS.map((key) => [key, get(key).getSnapshot()])) as unknown as Snapshots,
  };
}

type System = ReturnType<typeof startSystem>;

let running: System | undefined;
afterEach(() => {
  running?.root.stop();
  running = undefined;
});

function start(): System {
  running = startSystem();
  return running;
}

const INITIAL_SERIES = { boFormat: null, teamA: null, teamB: null, veto: null, maps: [] };

/**
 * Checks the system against the oracle: the session rules, what veto_status shows, the match
 * (maps filled on completion, restored on cancel) and the match summary a user reads.
 */
function expectSystemAsSpecified(system: System, oracle: SeriesOracle) {
  const session = system.session.getSnapshot().context.session;
  const snapshots = system.snapshots();
  const match = system.match.getSnapshot();
  if (session) {
    expectLegalSession(session);
    const status = expectedStatus(session);
    expect(vetoStatusOf(snapshots)).toEqual({
      ...status,
      ...{ teamA: match.context.teamA, teamB: match.context.teamB },
    });
    expect(
      system.session
        .getSnapshot()
        .matches({ session: { active: status.complete ? 'complete' : 'inProgress' } }),
    ).toBe(true);
  } else {
    expect(vetoStatusOf(snapshots)).toEqual({ active: false });
    expect(system.session.getSnapshot().matches({ session: 'none' })).toBe(true);
  }
  // The match shows a running session live and keeps what it replaced until the session ends.
  expect(match.matches('vetoLive')).toBe(session !== null);
  const { series } = oracle;
  expect({
    boFormat: match.context.boFormat,
    teamA: match.context.teamA,
    teamB: match.context.teamB,
    veto: match.context.veto,
    maps: match.context.maps.map(({ map, pickedBy }) => ({ map, pickedBy })),
  }).toEqual(series);
  const summary = matchSummaryOf(snapshots);
  const nameOf = (side: Side) => (side === 'A' ? series.teamA : series.teamB)?.name ?? `Team ${side}`;
  expect(summary.maps.map(({ number, map, pickedBy }) => ({ number, map, pickedBy }))).toEqual(
    series.maps.map((entry, index) => ({
      number: index + 1,
      map: entry.map,
      pickedBy: entry.pickedBy === 'decider' ? 'decider' : nameOf(entry.pickedBy),
    })),
  );
  expect(summary.veto?.steps.map((step) => step.map) ?? null).toEqual(
    series.veto?.map((step) => step.map) ?? null,
  );
}

/** Plays a model event on the system and checks the step it makes against the spec. */
async function play(system: System, oracle: SeriesOracle, event: ModelEvent, from: SessionSnapshot) {
  const before = system.session.getSnapshot().context.session;
  switch (event.type) {
    case 'xstate.done.actor.matchImport': {
      const pending = system.imports.shift();
      expect(pending?.input).toEqual(from.context.importing);
      pending?.resolve(event.output);
      await waitFor(system.session, (snapshot) => snapshot.context.importing === null);
      if (from.context.importing?.apply) oracle.apply({ ...event.output, type: 'veto.applyImported' }, null);
      return;
    }
    case 'xstate.error.actor.matchImport': {
      const pending = system.imports.shift();
      pending?.reject(event.error);
      await waitFor(system.session, (snapshot) => snapshot.context.importing === null);
      return;
    }
    case 'veto.import': {
      system.session.send(event);
      expect(system.imports.map((pending) => pending.input)).toEqual([event.request]);
      return;
    }
    default:
      system.session.send(event);
  }
  const after = system.session.getSnapshot().context.session;
  switch (event.type) {
    case 'veto.start':
      expect(after).toEqual({
        boFormat: event.boFormat,
        firstBanner: event.firstBanner,
        pool: event.pool,
        steps: [],
      });
      break;
    case 'veto.select':
      expect(after?.steps).toEqual(specSelect(before as SessionShape, event.map));
      break;
    case 'veto.undo':
      expect(after?.steps).toEqual(specUndo(before?.steps ?? []));
      break;
    default:
      expect(after).toBeNull();
  }
  oracle.apply(event as VetoCommandEvent, after);
}

/** A walk under the supervisor: a fresh system per path, the oracle beside it. */
function walker(): Walker<SessionSnapshot, ModelEvent> {
  let system: System | undefined;
  let oracle = new SeriesOracle(INITIAL_SERIES);
  let shownImports = 0;
  return {
    start: () => {
      system = start();
      oracle = new SeriesOracle(INITIAL_SERIES);
      shownImports = 0;
    },
    send: async (event, from) => {
      await play(system as System, oracle, event, from);
      if (event.type === 'xstate.done.actor.matchImport' && from.context.importing?.show) shownImports++;
    },
    check: (expected) => {
      const actual = (system as System).session.getSnapshot();
      expect(actual.value).toEqual(expected.value);
      // An import's plan and the state before it are read from the match and the reveal, which the
      // model walks without: they are checked in test/core/commands/import-over-desk.test.ts.
      expect(withoutReadings(actual.context)).toEqual(withoutReadings(expected.context));
      expectSystemAsSpecified(system as System, oracle);
      // import_match_veto with show true opens the veto panel, and only then.
      expect((system as System).vetoPanel.getSnapshot().matches('shown')).toBe(shownImports > 0);
    },
  };
}

// ---------------------------------------------------------------------------------------------

describe('vetoSessionMachine, manual session model (bo1 over 3 maps, bo3 over 5 maps)', () => {
  const model = machineModel(vetoSessionMachine, {
    input: { session: null },
    events: (snapshot) => [...SIMPLE_EVENTS, ...selections(snapshot)],
    serializeTransition: viaHandledEvent,
  });
  const fromStart = model.getShortestPaths();
  // The same walks again after a veto_set, so that cancel has a veto to bring back.
  const afterSet = model
    .getShortestPaths({ allowDuplicatePaths: true })
    .filter((path) => path.steps.length === 2 && path.steps[1]?.event.type === 'veto.set');
  const paths = uniquePaths([...fromStart, ...model.getShortestPathsFrom(afterSet)]);

  it('createTestModel refuses the machine (it invokes the importer), hence machineModel', () => {
    expect(() => createTestModel(vetoSessionMachine)).toThrow(
      /Invocations on test machines are not supported/,
    );
  });

  it('walks every state of the session region, complete bo1 and bo3 vetoes included', () => {
    const reached = reachedValues(paths);
    for (const session of ['none', { active: 'inProgress' }, { active: 'complete' }]) {
      expect(reached).toContain(valueKey({ session, import: 'idle' }));
    }
    // bo1 over 3 maps: 3 x 2 orders; bo3 over 5 maps: 5 x 4 x 3 x 2 orders; every one is walked.
    const completes = new Set(
      paths.flatMap((path) =>
        path.steps
          .filter((step) => step.state.matches({ session: { active: 'complete' } }))
          .map((step) => JSON.stringify(step.state.context.session)),
      ),
    );
    expect(completes.size).toBe(6 + 120);
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeModelEvent)}`, async () => {
      await walk(path, walker());
    });
  }
});

describe('vetoSessionMachine, import model', () => {
  const model = machineModel(vetoSessionMachine, {
    input: { session: null },
    events: (snapshot): VetoSessionEvent[] => [
      START_BO1,
      { type: 'veto.cancel' },
      ...selections(snapshot).slice(0, 1),
      IMPORT_AND_SHOW,
      IMPORT_READ_ONLY,
      IMPORT_DONE as never,
      IMPORT_FAILED as never,
    ],
    serializeTransition: viaHandledEvent,
  });
  const paths = model.getShortestPaths();

  it('walks the import region: loading, done with and without apply, failure', () => {
    const reached = reachedValues(paths);
    expect(reached).toContain(valueKey({ session: 'none', import: 'loading' }));
    expect(reached).toContain(valueKey({ session: { active: 'inProgress' }, import: 'loading' }));
    expect(reached).toContain(valueKey({ session: { active: 'complete' }, import: 'loading' }));
    const outcomes = paths.flatMap((path) => path.steps.map((step) => step.state.context.lastImport));
    expect(outcomes.some((outcome) => outcome?.ok === true && outcome.applied)).toBe(true);
    expect(outcomes.some((outcome) => outcome?.ok === true && !outcome.applied)).toBe(true);
    expect(outcomes.some((outcome) => outcome?.ok === false)).toBe(true);
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeModelEvent)}`, async () => {
      await walk(path, walker());
    });
  }

  it('an import that fails keeps the session and the match, and reports code and message', async () => {
    const system = start();
    system.session.send(START_BO1);
    system.session.send({ type: 'veto.select', map: 'de_mirage' });
    const match = system.match.getSnapshot();
    system.session.send(IMPORT_AND_SHOW);
    system.imports
      .shift()
      ?.reject(Object.assign(new Error('the veto is not available yet'), { code: 'conflict' }));
    const done = await waitFor(system.session, (snapshot) => snapshot.context.importing === null);
    expect(done.context.lastImport).toEqual({
      requestId: 'import-1',
      ok: false,
      error: { code: 'conflict', message: 'the veto is not available yet' },
    });
    expect(done.context.session?.steps).toEqual([{ type: 'ban', team: 'B', map: 'de_mirage' }]);
    expect(system.match.getSnapshot()).toBe(match);
    expect(system.vetoPanel.getSnapshot().matches('unknown')).toBe(true);
  });

  it('a second import while one is loading is ignored', () => {
    const system = start();
    system.session.send(IMPORT_AND_SHOW);
    system.session.send(IMPORT_READ_ONLY);
    expect(system.imports.map((pending) => pending.input.requestId)).toEqual(['import-1']);
    expect(system.session.getSnapshot().context.importing?.requestId).toBe('import-1');
  });
});

// ---------------------------------------------------------------------------------------------

describe('vetoSessionMachine, a session that replaces another', () => {
  it('veto_start over a session in progress starts afresh, and cancel brings back what was there before the first', () => {
    const system = start();
    system.session.send(SET_BO3);
    const original = system.match.getSnapshot().context;
    system.session.send(START_BO1);
    system.session.send({ type: 'veto.select', map: 'de_mirage' });
    system.session.send(START_BO3);
    expect(system.session.getSnapshot().matches({ session: { active: 'inProgress' } })).toBe(true);
    expect(vetoStatusOf(system.snapshots())).toMatchObject({
      boFormat: 'bo3',
      complete: false,
      nextStep: { type: 'pick', team: 'A' },
      remainingMaps: POOL_BO3,
      steps: [],
    });
    // While the new session runs, the match shows the series from before the first session.
    expect(system.match.getSnapshot().context.maps).toEqual(original.maps);
    system.session.send({ type: 'veto.cancel' });
    expect(system.match.getSnapshot().context).toEqual(original);
    expect(vetoStatusOf(system.snapshots())).toEqual({ active: false });
  });

  // Issue 10, defect 2: complete a bo1, start a bo3, select, cancel: the match showed no format,
  // no maps and no veto.
  it('veto_start over a finished session, then cancel: the finished veto, its format, maps and reveal come back', () => {
    const system = start();
    const reveal = system.root.system.get(SYSTEM_ID.vetoReveal) as ActorRefFrom<typeof vetoRevealMachine>;
    playBo1(system);
    reveal.send({ type: 'veto.reveal.progressive', total: 3 });
    reveal.send({ type: 'veto.reveal.prev', total: 3 });
    const finished = system.match.getSnapshot().context;
    const shown = matchSummaryOf(system.snapshots());
    expect(shown.veto?.revealed).toBe(2);
    system.session.send(START_BO3);
    // The live session shows each step as it is played (issue 33).
    system.session.send({ type: 'veto.select', map: 'de_mirage' });
    expect(matchSummaryOf(system.snapshots()).veto?.revealed).toBe(1);
    system.session.send({ type: 'veto.cancel' });
    // The finished veto shows as any veto does: there is no session left to cancel.
    expect(system.match.getSnapshot().context).toEqual({ ...finished, beforeSession: null });
    expect(matchSummaryOf(system.snapshots())).toEqual(shown);
    expect(reveal.getSnapshot().context).toEqual({ instant: false, revealed: 2, beforeSession: null });
    expect(reveal.getSnapshot().matches('progressive')).toBe(true);
  });

  it('an imported veto replaced by a session comes back on cancel', async () => {
    const system = start();
    system.session.send(IMPORT_AND_SHOW);
    system.imports.shift()?.resolve(IMPORTED);
    await waitFor(system.session, (snapshot) => snapshot.context.importing === null);
    const imported = system.match.getSnapshot().context;
    expect(imported).toMatchObject({ boFormat: 'bo1', teamA: IMPORTED.teamA, veto: IMPORTED.steps });
    const shown = matchSummaryOf(system.snapshots());
    system.session.send(START_BO3);
    system.session.send({ type: 'veto.select', map: 'de_mirage' });
    system.session.send({ type: 'veto.cancel' });
    expect(system.match.getSnapshot().context).toEqual(imported);
    expect(matchSummaryOf(system.snapshots())).toEqual(shown);
  });

  it('veto_set and reset_veto end a session for good: nothing is left to restore', () => {
    for (const end of [SET_BO3, { type: 'veto.reset' } as const]) {
      const system = startSystem();
      try {
        system.session.send(START_BO1);
        system.session.send(end);
        expect(system.match.getSnapshot().context.beforeSession).toBeNull();
        expect(system.snapshots().vetoReveal.context.beforeSession).toBeNull();
      } finally {
        system.root.stop();
      }
    }
  });
});

/** A complete bo1 session over POOL_BO1: B bans mirage, A bans nuke, ancient is the decider. */
function playBo1(system: System) {
  system.session.send(START_BO1);
  system.session.send({ type: 'veto.select', map: 'de_mirage' });
  system.session.send({ type: 'veto.select', map: 'de_nuke' });
  expect(vetoStatusOf(system.snapshots())).toMatchObject({ complete: true });
}

describe('vetoSessionMachine, the reveal follows the session', () => {
  it('after an undo in progressive reveal, a step played again waits to be revealed', () => {
    const system = start();
    const reveal = system.root.system.get(SYSTEM_ID.vetoReveal) as ActorRefFrom<typeof vetoRevealMachine>;
    system.session.send(START_BO3);
    for (const map of ['de_ancient', 'de_anubis']) system.session.send({ type: 'veto.select', map });
    reveal.send({ type: 'veto.reveal.progressive', total: 2 });
    expect(matchSummaryOf(system.snapshots()).veto?.revealed).toBe(2);
    system.session.send({ type: 'veto.undo' });
    expect(matchSummaryOf(system.snapshots()).veto?.revealed).toBe(1);
    system.session.send({ type: 'veto.select', map: 'de_inferno' });
    expect(matchSummaryOf(system.snapshots()).veto).toMatchObject({ revealed: 1 });
    expect(matchSummaryOf(system.snapshots()).veto?.steps).toHaveLength(2);
  });

  // Regression (issue 19): veto_set and an applied import kept the reveal count of the veto before.
  it('veto_set and an applied import start a progressive reveal from nothing; the same veto again keeps its count', async () => {
    const system = start();
    const reveal = system.root.system.get(SYSTEM_ID.vetoReveal) as ActorRefFrom<typeof vetoRevealMachine>;
    system.session.send(SET_BO3);
    // A veto set whole waits (issue 33): progressive, nothing shown until revealed.
    expect(matchSummaryOf(system.snapshots()).veto?.revealed).toBe(0);
    reveal.send({ type: 'veto.reveal.all', total: 7 });
    reveal.send({ type: 'veto.reveal.prev', total: 7 });
    expect(matchSummaryOf(system.snapshots()).veto?.revealed).toBe(6);
    // The same veto set again (a second press): what is on air stays.
    system.session.send(SET_BO3);
    expect(matchSummaryOf(system.snapshots()).veto?.revealed).toBe(6);
    // Another veto: imported and applied, it waits face down.
    system.session.send(IMPORT_AND_SHOW);
    system.imports.shift()?.resolve(IMPORTED);
    await waitFor(system.session, (snapshot) => snapshot.context.importing === null);
    const summary = matchSummaryOf(system.snapshots());
    expect(summary.veto).toMatchObject({ revealed: 0 });
    expect(summary.maps.map((entry) => entry.revealed)).toEqual([false]);
    expect(reveal.getSnapshot().matches('progressive')).toBe(true);
    reveal.send({ type: 'veto.reveal.all', total: 3 });
    expect(matchSummaryOf(system.snapshots()).maps.map((entry) => entry.revealed)).toEqual([true]);
    // reset_veto: the next veto starts hidden too.
    system.session.send({ type: 'veto.reset' });
    system.session.send(SET_BO3);
    expect(matchSummaryOf(system.snapshots()).veto?.revealed).toBe(0);
  });

  it('the series maps are revealed with the steps that give them: a pick with its step, the decider last', () => {
    const system = start();
    const reveal = system.root.system.get(SYSTEM_ID.vetoReveal) as ActorRefFrom<typeof vetoRevealMachine>;
    system.session.send(SET_BO3);
    reveal.send({ type: 'veto.reveal.reset', total: 7 });
    const shownAfter = (count: number) => {
      while ((matchSummaryOf(system.snapshots()).veto?.revealed ?? 0) < count)
        reveal.send({ type: 'veto.reveal.next', total: 7 });
      return matchSummaryOf(system.snapshots()).maps.map((entry) => entry.revealed);
    };
    // ban, ban, pick (map 1), pick (map 2), ban, ban, decider (map 3).
    expect(shownAfter(0)).toEqual([false, false, false]);
    expect(shownAfter(2)).toEqual([false, false, false]);
    expect(shownAfter(3)).toEqual([true, false, false]);
    expect(shownAfter(4)).toEqual([true, true, false]);
    expect(shownAfter(6)).toEqual([true, true, false]);
    expect(shownAfter(7)).toEqual([true, true, true]);
  });

  it('while a new session is played, the series of before is not shown, even in instant mode', () => {
    const system = start();
    const reveal = system.root.system.get(SYSTEM_ID.vetoReveal) as ActorRefFrom<typeof vetoRevealMachine>;
    system.session.send(SET_BO3);
    reveal.send({ type: 'veto.reveal.instant', total: 7 });
    expect(matchSummaryOf(system.snapshots()).maps.every((entry) => entry.revealed)).toBe(true);
    system.session.send(START_BO3);
    // The match keeps the old maps for veto_cancel; none of them is this veto's.
    const during = matchSummaryOf(system.snapshots());
    expect(during.maps).toHaveLength(3);
    expect(during.maps.some((entry) => entry.revealed)).toBe(false);
    system.session.send({ type: 'veto.cancel' });
    expect(matchSummaryOf(system.snapshots()).maps.every((entry) => entry.revealed)).toBe(true);
  });
});

describe('vetoSessionMachine, refusals change nothing', () => {
  function sessionAt(steps: string[]): System {
    const system = start();
    system.session.send(START_BO3);
    for (const map of steps) system.session.send({ type: 'veto.select', map });
    return system;
  }

  const refusals: Array<[string, string[], VetoSessionEvent]> = [
    ['a map outside the pool', [], { type: 'veto.select', map: 'de_dust2' }],
    ['a map already played', ['de_mirage'], { type: 'veto.select', map: 'de_mirage' }],
    [
      'a map without its de_ prefix (the command normalises first)',
      [],
      { type: 'veto.select', map: 'mirage' },
    ],
    [
      'a select when complete',
      ['de_ancient', 'de_anubis', 'de_inferno', 'de_mirage'],
      { type: 'veto.select', map: 'de_nuke' },
    ],
    ['an undo with no step', [], { type: 'veto.undo' }],
    ['a bo3 start over 4 maps', ['de_mirage'], { ...START_BO3, pool: POOL_BO3.slice(0, 4) }],
    [
      'a start over a pool that lists a map twice',
      ['de_mirage'],
      { ...START_BO1, pool: ['de_nuke', 'de_nuke', 'de_mirage'] },
    ],
    [
      'a start over a pool of 17 maps',
      [],
      { ...START_BO1, pool: Array.from({ length: 17 }, (_, i) => `de_map${i}`) },
    ],
    [
      'a veto_set that breaks the rules (a team on the decider)',
      ['de_mirage'],
      {
        ...SET_BO3,
        steps: [...SET_STEPS.slice(0, -1), { type: 'decider', team: 'A', map: 'de_overpass' }],
      } as VetoSessionEvent,
    ],
  ];

  for (const [name, steps, event] of refusals) {
    it(name, () => {
      const system = sessionAt(steps);
      const session = system.session.getSnapshot();
      const match = system.match.getSnapshot();
      system.session.send(event);
      expect(system.session.getSnapshot()).toBe(session);
      expect(system.match.getSnapshot()).toBe(match);
    });
  }

  it('veto_cancel and veto_undo without a session change nothing', () => {
    const system = start();
    system.session.send(SET_BO3);
    const session = system.session.getSnapshot();
    const match = system.match.getSnapshot();
    system.session.send({ type: 'veto.cancel' });
    system.session.send({ type: 'veto.undo' });
    system.session.send({ type: 'veto.select', map: 'de_mirage' });
    expect(system.session.getSnapshot()).toBe(session);
    expect(system.match.getSnapshot()).toBe(match);
  });
});

// ---------------------------------------------------------------------------------------------

const mapName = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 2, maxLength: 10 })
  .map((name) => `de_${name}`);

const sessionScenario = fc
  .record({
    boFormat: fc.constantFrom<BoFormat>('bo1', 'bo3', 'bo5'),
    firstBanner: fc.constantFrom<Side>('A', 'B'),
    size: fc.integer({ min: 0, max: POOL_SIZE.max }),
    names: fc.uniqueArray(mapName, { minLength: POOL_SIZE.max, maxLength: POOL_SIZE.max }),
    // Each turn: which free map to play (as a fraction of the free maps), and whether to undo first.
    turns: fc.array(
      fc.record({ pick: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), undo: fc.boolean() }),
      {
        maxLength: 24,
      },
    ),
    before: fc.constantFrom('nothing', 'a veto_set'),
  })
  .map(({ boFormat, size, names, ...rest }) => {
    const min = POOL_SIZE.min[boFormat];
    return { boFormat, pool: names.slice(0, min + (size % (POOL_SIZE.max - min + 1))), ...rest };
  });

describe('vetoSessionMachine, random sessions under the supervisor (fast-check)', () => {
  it('keeps the rules through random selections and undos, fills the series maps, and cancel restores', () => {
    fc.assert(
      fc.property(sessionScenario, ({ boFormat, firstBanner, pool, turns, before }) => {
        const system = startSystem();
        try {
          if (before === 'a veto_set') system.session.send(SET_BO3);
          const beforeMatch = system.match.getSnapshot().context;
          const teams: { teamA: Team; teamB: Team } = TEAMS;
          system.session.send({ type: 'veto.start', boFormat, firstBanner, pool, ...teams });
          for (const turn of turns) {
            const session = system.session.getSnapshot().context.session as SessionShape;
            if (turn.undo && session.steps.length > 0) {
              system.session.send({ type: 'veto.undo' });
              expect(system.session.getSnapshot().context.session?.steps).toEqual(specUndo(session.steps));
              continue;
            }
            const free = expectedStatus(session).remainingMaps;
            if (expectedStatus(session).complete) break;
            const map = free[Math.floor(turn.pick * free.length)] as string;
            system.session.send({ type: 'veto.select', map });
            expect(system.session.getSnapshot().context.session?.steps).toEqual(specSelect(session, map));
          }
          const session = system.session.getSnapshot().context.session as SessionShape;
          expectLegalSession(session);
          const complete = session.steps.length === specOrder(boFormat, pool.length).length;
          const match = system.match.getSnapshot().context;
          expect(match.veto).toEqual(session.steps);
          expect(match.maps.map(({ map, pickedBy }) => ({ map, pickedBy }))).toEqual(
            complete
              ? specSeriesMaps(session.steps)
              : beforeMatch.maps.map(({ map, pickedBy }) => ({ map, pickedBy })),
          );
          if (complete) expect(match.maps).toHaveLength(boFormat === 'bo1' ? 1 : boFormat === 'bo3' ? 3 : 5);
          system.session.send({ type: 'veto.cancel' });
          expect(system.match.getSnapshot().context).toEqual(beforeMatch);
        } finally {
          system.root.stop();
        }
      }),
      { numRuns: 150 },
    );
  });
});
