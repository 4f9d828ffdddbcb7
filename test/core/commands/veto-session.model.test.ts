/**
 * The veto-session model of test/machines/veto-session.test.ts walked again through the HTTP API
 * of a real listening server: each model event is a command, each state is checked through
 * GET /api/veto and GET /api/match.
 */
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { mapLabel } from '../../../machines/map-names.ts';
import type { Side, VetoStep } from '../../../machines/veto-rules.ts';
import { sameSteps } from '../../../machines/veto-rules.ts';
import type { VetoSessionEvent } from '../../../machines/veto-session.machine.ts';
import { vetoSessionMachine } from '../../../machines/veto-session.machine.ts';
import type { RunningServer } from '../../../src/server.ts';
import { build, command, get } from '../../helpers/build.ts';
import type { ExpectedSeries, SessionShape, VetoCommandEvent } from '../../helpers/model.ts';
import {
  expectedStatus,
  machineModel,
  pathName,
  reachedValues,
  SeriesOracle,
  shortMap,
  uniquePaths,
  valueKey,
  viaHandledEvent,
  walk,
} from '../../helpers/model.ts';
import { BO3_ACTIVE_DUTY } from '../../helpers/vetoes.ts';

type SessionSnapshot = SnapshotFrom<typeof vetoSessionMachine>;

const TEAMS = { teamA: { name: 'Alpha' }, teamB: { name: 'Bravo' } };
const POOL_BO1 = ['de_ancient', 'de_mirage', 'de_nuke'];
const POOL_BO3 = ['de_ancient', 'de_anubis', 'de_inferno', 'de_mirage', 'de_nuke'];
const START_BO1: VetoSessionEvent = {
  type: 'veto.start',
  boFormat: 'bo1',
  ...TEAMS,
  firstBanner: 'B',
  pool: POOL_BO1,
};
const START_BO3: VetoSessionEvent = {
  type: 'veto.start',
  boFormat: 'bo3',
  ...TEAMS,
  firstBanner: 'A',
  pool: POOL_BO3,
};
const SET_STEPS = BO3_ACTIVE_DUTY;
const SET_PAYLOAD = {
  boFormat: 'bo3',
  teamA: { name: 'Navi' },
  teamB: { name: 'Vitality' },
  steps: SET_STEPS,
} as const;
const SET_BO3: VetoSessionEvent = { type: 'veto.set', ...SET_PAYLOAD };

/**
 * The free maps a walk may select: all of them in the bo1, the first and the last free map in the
 * bo3 (16 of its 120 orders), which keeps the walk to a few dozen servers.
 */
function selections(snapshot: SessionSnapshot): VetoSessionEvent[] {
  const session = snapshot.context.session;
  if (!session) return [];
  const used = new Set(session.steps.map((step) => step.map));
  const free = session.pool.filter((map) => !used.has(map));
  const chosen =
    session.boFormat === 'bo1' || free.length <= 2 ? free : [free[0] as string, free.at(-1) as string];
  return chosen.map((map) => ({ type: 'veto.select', map }));
}

const model = machineModel(vetoSessionMachine, {
  input: { session: null },
  events: (snapshot): VetoSessionEvent[] => [
    START_BO1,
    START_BO3,
    { type: 'veto.undo' },
    { type: 'veto.cancel' },
    { type: 'veto.reset' },
    SET_BO3,
    ...selections(snapshot),
  ],
  serializeTransition: viaHandledEvent,
});
const afterSet = model
  .getShortestPaths({ allowDuplicatePaths: true })
  .filter((path) => path.steps.length === 2 && path.steps[1]?.event.type === 'veto.set');
const paths = uniquePaths([...model.getShortestPaths(), ...model.getShortestPathsFrom(afterSet)]);

function describeModelEvent(event: VetoSessionEvent): string {
  switch (event.type) {
    case 'veto.start':
      return `veto_start ${event.boFormat} ${event.firstBanner} first`;
    case 'veto.select':
      return `veto_select ${shortMap(event.map)}`;
    case 'veto.set':
      return `veto_set ${event.boFormat}`;
    case 'veto.reset':
      return 'reset_veto';
    default:
      return event.type.replace('veto.', 'veto_');
  }
}

/**
 * The command for a model event. Map names go out the way operators type them ("Mirage",
 * "ancient") so the walk also covers normalisation; answers must use the full name.
 */
function commandOf(event: VetoSessionEvent): [string, unknown] {
  switch (event.type) {
    case 'veto.start':
      return [
        'veto_start',
        {
          boFormat: event.boFormat,
          teamA: event.teamA,
          teamB: event.teamB,
          firstBanner: event.firstBanner,
          mapPool: event.pool.map(shortMap),
        },
      ];
    case 'veto.select':
      return ['veto_select', { map: mapLabel(event.map) }];
    case 'veto.undo':
      return ['veto_undo', undefined];
    case 'veto.cancel':
      return ['veto_cancel', undefined];
    case 'veto.set':
      return [
        'veto_set',
        {
          boFormat: event.boFormat,
          teamA: event.teamA,
          teamB: event.teamB,
          steps: event.steps.map((step, i) => ({
            ...step,
            map: i % 2 === 0 ? shortMap(step.map) : step.map,
          })),
        },
      ];
    case 'veto.reset':
      return ['reset_veto', undefined];
    case 'veto.import':
    case 'veto.restore':
      throw new Error('not part of this walk');
  }
}

const INITIAL_SERIES: ExpectedSeries = { boFormat: null, teamA: null, teamB: null, veto: null, maps: [] };

const statusView = (session: SessionShape | null, series: ExpectedSeries) =>
  session ? { ...expectedStatus(session), teamA: series.teamA, teamB: series.teamB } : { active: false };

/** What a command answers in `result`, from the spec's table. */
function expectedResult(event: VetoSessionEvent, after: SessionShape | null, series: ExpectedSeries) {
  switch (event.type) {
    case 'veto.cancel':
      return { active: false };
    case 'veto.reset':
      return { cleared: true };
    case 'veto.set':
      return { complete: true, steps: event.steps.map((step) => ({ ...step, team: step.team ?? null })) };
    default:
      return statusView(after, series);
  }
}

/**
 * The reveal the walk expects (docs/api.md, "The reveal of a new veto"; the walk sends no
 * veto_reveal): a veto set whole waits face down, a live session shows each step as it is played,
 * veto_cancel brings back the reveal from before the session, reset_veto forgets the count.
 */
class RevealOracle {
  reveal = { instant: true, revealed: 0 };
  private backup: { instant: boolean; revealed: number } | null = null;

  apply(
    event: VetoSessionEvent,
    from: SessionSnapshot,
    shown: readonly VetoStep[] | null,
    total: number,
  ): void {
    switch (event.type) {
      case 'veto.start':
        if (!(from.matches({ session: { active: 'inProgress' } }) && this.backup))
          this.backup = { ...this.reveal };
        this.reveal = { instant: true, revealed: 0 };
        return;
      case 'veto.cancel':
        if (this.backup) this.reveal = this.backup;
        this.backup = null;
        return;
      case 'veto.set':
        this.backup = null;
        if (!sameSteps(shown, event.steps)) this.reveal = { instant: false, revealed: 0 };
        return;
      case 'veto.reset':
        this.backup = null;
        this.reveal = { ...this.reveal, revealed: 0 };
        return;
      case 'veto.undo':
        this.reveal = { ...this.reveal, revealed: Math.min(this.reveal.revealed, total) };
        return;
      default:
        return;
    }
  }

  shown(total: number): number {
    return this.reveal.instant ? total : Math.min(this.reveal.revealed, total);
  }
}

async function expectServerAsModel(
  server: RunningServer,
  expected: SessionSnapshot,
  oracle: SeriesOracle,
  reveal: RevealOracle,
) {
  const { series } = oracle;
  const veto = await get(server, '/api/veto');
  expect(veto.status).toBe(200);
  expect(veto.body.veto).toEqual(statusView(expected.context.session, series));

  const match = await get(server, '/api/match');
  expect(match.status).toBe(200);
  const summary = match.body.match;
  expect(summary.boFormat).toBe(series.boFormat);
  expect(summary.teamA).toEqual(series.teamA);
  expect(summary.teamB).toEqual(series.teamB);
  const nameOf = (side: Side) => (side === 'A' ? series.teamA : series.teamB)?.name ?? `Team ${side}`;
  expect(
    summary.maps.map(({ number, map, pickedBy, finished }: Record<string, unknown>) => ({
      number,
      map,
      pickedBy,
      finished,
    })),
  ).toEqual(
    series.maps.map((entry, index) => ({
      number: index + 1,
      map: entry.map,
      pickedBy: entry.pickedBy === 'decider' ? 'decider' : nameOf(entry.pickedBy),
      finished: false,
    })),
  );
  expect(summary.veto).toEqual(
    series.veto === null
      ? null
      : {
          steps: series.veto.map((step) => ({ ...step, team: step.team ?? null })),
          revealed: reveal.shown(series.veto.length),
        },
  );
}

describe('veto session over HTTP, model-based (bo1 over 3 maps, bo3 over 5 maps)', () => {
  it('walks the session states, complete vetoes of both formats, and commands after a veto_set', () => {
    const reached = reachedValues(paths);
    for (const session of ['none', { active: 'inProgress' }, { active: 'complete' }]) {
      expect(reached).toContain(valueKey({ session, import: 'idle' }));
    }
    const completeFormats = new Set(
      paths.flatMap((path) =>
        path.steps
          .filter((step) => step.state.matches({ session: { active: 'complete' } }))
          .map((step) => step.state.context.session?.boFormat),
      ),
    );
    expect(completeFormats).toEqual(new Set(['bo1', 'bo3']));
    expect(paths.length).toBeLessThan(100);
  });

  // Every path in npm test; in test:fast (docs/testing.md) every third and each that holds an event
  // none before it had, a server each: test/machines/veto-session.test.ts walks them all there.
  const kinds = new Set<string>();
  for (const [index, path] of paths.entries()) {
    const types = path.steps.slice(1).map(({ event }) => event.type);
    const fast = index % 3 === 0 || types.some((type) => !kinds.has(type));
    if (fast) for (const type of types) kinds.add(type);
    const tags = fast ? [] : ['edge'];
    it(`path ${index}: ${pathName(path, describeModelEvent)}`, { tags }, async () => {
      let server: RunningServer | undefined;
      let oracle = new SeriesOracle(INITIAL_SERIES);
      let reveal = new RevealOracle();
      await walk(path, {
        start: async () => {
          server = await build();
          oracle = new SeriesOracle(INITIAL_SERIES);
          reveal = new RevealOracle();
        },
        send: async (event, from, to) => {
          const after = to.context.session;
          const shown = oracle.series.veto;
          oracle.apply(event as VetoCommandEvent, after);
          reveal.apply(event, from, shown, oracle.series.veto?.length ?? 0);
          const [action, payload] = commandOf(event);
          const answer = await command(server as RunningServer, action, payload);
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          expect(answer.body.ok).toBe(true);
          expect(answer.body.result).toEqual(expectedResult(event, after, oracle.series));
        },
        check: (expected) => expectServerAsModel(server as RunningServer, expected, oracle, reveal),
      });
    });
  }
});

describe('veto session over HTTP, refusals change nothing', () => {
  async function startedBo3(server: RunningServer, maps: string[]) {
    const { teamA, teamB } = TEAMS;
    expect(
      (await command(server, 'veto_start', { boFormat: 'bo3', teamA, teamB, mapPool: POOL_BO3 })).status,
    ).toBe(200);
    for (const map of maps) expect((await command(server, 'veto_select', { map })).status).toBe(200);
  }

  async function expectRefused(
    server: RunningServer,
    action: string,
    payload: unknown,
    status: number,
    error: string,
  ) {
    const veto = await get(server, '/api/veto');
    const match = await get(server, '/api/match');
    const answer = await command(server, action, payload);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ ok: false, error });
    expect(answer.body.message).toEqual(expect.any(String));
    expect(await get(server, '/api/veto')).toEqual(veto);
    expect(await get(server, '/api/match')).toEqual(match);
  }

  it('veto_select, veto_undo without a session: 409 conflict', async () => {
    const server = await build();
    await expectRefused(server, 'veto_select', { map: 'mirage' }, 409, 'conflict');
    await expectRefused(server, 'veto_undo', undefined, 409, 'conflict');
  });

  it('veto_select of a map already played, outside the pool or not a map name: 400 invalid_payload', async () => {
    const server = await build();
    await startedBo3(server, ['mirage']);
    await expectRefused(server, 'veto_select', { map: 'de_mirage' }, 400, 'invalid_payload');
    await expectRefused(server, 'veto_select', { map: 'Dust II' }, 400, 'invalid_payload');
    await expectRefused(server, 'veto_select', { map: '!!' }, 400, 'invalid_payload');
  });

  it('veto_select when complete: 409 conflict; veto_undo with no step: 409 conflict', async () => {
    const server = await build();
    await startedBo3(server, ['ancient', 'anubis', 'inferno', 'mirage']);
    expect((await get(server, '/api/veto')).body.veto.complete).toBe(true);
    await expectRefused(server, 'veto_select', { map: 'nuke' }, 409, 'conflict');
    const other = await build();
    await startedBo3(other, []);
    await expectRefused(other, 'veto_undo', undefined, 409, 'conflict');
  });

  it('veto_start over a pool too small or listing a map twice: 400 invalid_payload', async () => {
    const server = await build();
    await startedBo3(server, ['mirage']);
    const { teamA, teamB } = TEAMS;
    await expectRefused(
      server,
      'veto_start',
      { boFormat: 'bo3', teamA, teamB, mapPool: POOL_BO3.slice(0, 4) },
      400,
      'invalid_payload',
    );
    await expectRefused(
      server,
      'veto_start',
      { boFormat: 'bo1', teamA, teamB, mapPool: ['nuke', 'de_nuke', 'mirage'] },
      400,
      'invalid_payload',
    );
  });

  it('veto_set that breaks the rules: 400 invalid_payload and nothing changes', async () => {
    const server = await build();
    expect((await command(server, 'veto_set', SET_PAYLOAD)).status).toBe(200);
    await startedBo3(server, ['mirage']);
    const { teamA, teamB } = TEAMS;
    const broken: object[][] = [
      SET_STEPS.map((step, i) => (i === 2 ? { ...step, type: 'ban' } : step)),
      SET_STEPS.map((step, i) => (i === 6 ? { ...step, team: 'A' } : step)),
      SET_STEPS.map((step, i) => (i === 0 ? { type: 'ban', map: step.map } : step)),
      SET_STEPS.map((step, i) => (i === 1 ? { ...step, map: 'de_ancient' } : step)),
      SET_STEPS.slice(0, -1),
    ];
    for (const steps of broken)
      await expectRefused(
        server,
        'veto_set',
        { boFormat: 'bo3', teamA, teamB, steps },
        400,
        'invalid_payload',
      );
  });
});
