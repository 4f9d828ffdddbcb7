import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from 'xstate';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { MatchEvent, MatchInput, SeriesMap } from '../../machines/match.machine.ts';
import { explainMapResult, MATCH_DEFAULTS, matchMachine } from '../../machines/match.machine.ts';
import { logoFetchId } from '../../machines/team-logo.ts';
import type { BoFormat, Side, Team, VetoStep } from '../../machines/veto-rules.ts';
import {
  listedAndHandled,
  pathName,
  reachedValues,
  specSeriesMaps,
  valueKey,
  walk,
} from '../helpers/model.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';

const ALPHA = { name: 'Alpha' };
const BRAVO = { name: 'Bravo', logo: 'https://example.org/bravo.png' };
const NAVI = { name: 'Navi' };
const VITALITY = { name: 'Vitality' };
const CHARLIE = { name: 'Charlie', logo: 'http://127.0.0.1:9/charlie.svg' };

const BO1_STEPS: VetoStep[] = [
  { type: 'ban', team: 'A', map: 'de_mirage' },
  { type: 'ban', team: 'B', map: 'de_nuke' },
  { type: 'decider', map: 'de_ancient' },
];
const BO3_STEPS = BO3_ACTIVE_DUTY;

/** The series part of the walk: teams, a veto session, a whole veto, a reset and map results. */
const SERIES_EVENTS: MatchEvent[] = [
  { type: 'match.teams.set', teamA: NAVI, teamB: VITALITY, boFormat: 'bo3' },
  {
    type: 'match.veto.sessionStarted',
    teamA: ALPHA,
    teamB: BRAVO,
    boFormat: 'bo1',
    replacesUnfinished: false,
  },
  {
    type: 'match.veto.sessionStarted',
    teamA: ALPHA,
    teamB: BRAVO,
    boFormat: 'bo1',
    replacesUnfinished: true,
  },
  { type: 'match.veto.sessionProgress', steps: BO1_STEPS.slice(0, 1), complete: false },
  { type: 'match.veto.sessionProgress', steps: BO1_STEPS, complete: true },
  { type: 'match.veto.sessionCancelled' },
  { type: 'match.veto.apply', steps: BO3_STEPS, boFormat: 'bo3', teamA: NAVI, teamB: VITALITY },
  { type: 'match.veto.reset' },
  { type: 'match.mapResult.set', index: 0, scoreA: 13, scoreB: 7, finished: true },
  { type: 'match.mapResult.set', index: 1, scoreA: 5, scoreB: 9 },
];

/** The event name and team format: plain fields, walked on their own to keep the walk small. */
const LABEL_EVENTS: MatchEvent[] = [
  { type: 'match.eventName.set', name: 'Major' },
  { type: 'match.eventName.set', name: '' },
  { type: 'match.teamFormat.set', format: '5v5' },
  { type: 'match.teamFormat.set', format: 'auto' },
  { type: 'match.teamFormat.set', format: '2v2' },
];

/**
 * The team logos: teams with and without http(s) logos coming and going (set_teams, a session and
 * its cancel, reset_veto) while their fetches report back, in time or too late.
 */
const LOGO_EVENTS: MatchEvent[] = [
  { type: 'match.teams.set', teamA: NAVI, teamB: BRAVO },
  { type: 'match.teams.set', teamA: CHARLIE, teamB: NAVI },
  {
    type: 'match.veto.sessionStarted',
    teamA: ALPHA,
    teamB: CHARLIE,
    boFormat: 'bo1',
    replacesUnfinished: false,
  },
  { type: 'match.veto.sessionCancelled' },
  { type: 'match.logo.stored', logo: BRAVO.logo, src: '/media/0123456789abcdef0123456789abcdef.png' },
  { type: 'match.logo.failed', logo: BRAVO.logo, reason: 'the logo server answered 404 Not Found' },
  { type: 'match.logo.failed', logo: CHARLIE.logo, reason: 'the connection was refused' },
];

/** The sides: the operator's swap (and the game's half time), and the side the game data names. */
const SIDE_EVENTS: MatchEvent[] = [
  { type: 'match.sides.swap' },
  { type: 'match.sides.set', teamASide: 'T' },
  { type: 'match.sides.set', teamASide: 'CT' },
];

function describeModelEvent(event: MatchEvent): string {
  switch (event.type) {
    case 'match.teams.set':
      return `set_teams ${event.teamA.name}/${event.teamB.name}`;
    case 'match.veto.sessionStarted':
      return event.replacesUnfinished ? 'session started over an unfinished one' : 'session started';
    case 'match.veto.sessionProgress':
      return `session ${event.steps.length} steps${event.complete ? ' (complete)' : ''}`;
    case 'match.veto.sessionCancelled':
      return 'session cancelled';
    case 'match.veto.apply':
      return `veto set ${event.boFormat}`;
    case 'match.veto.reset':
      return 'reset_veto';
    case 'match.mapResult.set':
      return `map ${event.index + 1} ${event.scoreA}-${event.scoreB}${event.finished ? ' finished' : ''}`;
    case 'match.eventName.set':
      return `event name "${event.name}"`;
    case 'match.teamFormat.set':
      return `team format ${event.format}`;
    case 'match.sides.swap':
      return 'swap_sides';
    case 'match.sides.set':
      return `team A on ${event.teamASide}`;
    case 'match.logo.stored':
      return `logo stored ${event.logo}`;
    case 'match.logo.failed':
      return `logo failed ${event.logo}`;
    case 'match.restore':
      return 'undo or redo';
  }
}

/**
 * The match after an event, as the spec and the machine's contract describe it, written apart from
 * the machine. A map that stays at the same place in a new veto keeps its result.
 */
function specMatch(before: MatchInput, event: MatchEvent): MatchInput {
  const after = specSeries(before, event);
  switch (event.type) {
    case 'match.logo.stored':
    case 'match.logo.failed': {
      if (before.logos[event.logo]?.state !== 'fetching') return before;
      const status =
        event.type === 'match.logo.stored'
          ? { state: 'stored' as const, src: event.src }
          : { state: 'failed' as const, reason: event.reason };
      return { ...before, logos: { ...before.logos, [event.logo]: status } };
    }
    case 'match.teams.set':
    case 'match.veto.sessionStarted':
    case 'match.veto.apply':
      return { ...after, logos: specLogos(after, before, [event.teamA?.logo, event.teamB?.logo]) };
    case 'match.veto.reset':
    case 'match.veto.sessionCancelled':
      return { ...after, logos: specLogos(after, before, []) };
    default:
      return after;
  }
}

/**
 * The logo statuses after a change of the teams: one for each http(s) logo of a team the match
 * holds (on air or kept for veto_cancel); a known one keeps its status unless it failed and was just
 * sent again, a new one is fetched.
 */
function specLogos(after: MatchInput, before: MatchInput, sent: (string | undefined)[]): MatchInput['logos'] {
  const held = [after.teamA, after.teamB, after.beforeSession?.teamA, after.beforeSession?.teamB];
  const logos: Record<string, MatchInput['logos'][string]> = {};
  for (const logo of held.map((team) => team?.logo)) {
    if (!logo?.startsWith('https://') && !logo?.startsWith('http://')) continue;
    const known = before.logos[logo];
    logos[logo] = known && !(known.state === 'failed' && sent.includes(logo)) ? known : { state: 'fetching' };
  }
  return logos;
}

/** The series part of the match after an event. */
function specSeries(before: MatchInput, event: MatchEvent): MatchInput {
  // Between the same two teams (by name) a map keeps its result; a new pairing starts from 0-0.
  const samePair = (a: Pick<MatchInput, 'teamA' | 'teamB'>, b: Pick<MatchInput, 'teamA' | 'teamB'>) =>
    a.teamA?.name === b.teamA?.name && a.teamB?.name === b.teamB?.name;
  const seriesFrom = (
    steps: readonly VetoStep[],
    previous: readonly SeriesMap[],
    sameSeries: boolean,
  ): SeriesMap[] =>
    specSeriesMaps(steps).map(({ map, pickedBy }, index) => {
      const kept = sameSeries ? previous[index] : undefined;
      return kept?.map === map
        ? { ...kept, pickedBy }
        : { map, pickedBy, finished: false, scoreA: 0, scoreB: 0, winner: null };
    });
  switch (event.type) {
    case 'match.teams.set':
      return {
        ...before,
        teamA: event.teamA,
        teamB: event.teamB,
        boFormat: event.boFormat ?? before.boFormat,
      };
    case 'match.eventName.set':
      return { ...before, eventName: event.name };
    case 'match.teamFormat.set':
      return { ...before, teamFormat: event.format };
    case 'match.mapResult.set': {
      const current = before.maps[event.index];
      if (!current) return before;
      const finished = event.finished ?? current.finished;
      // A finished map needs a winner: a draw is refused.
      if (finished && event.scoreA === event.scoreB) return before;
      const winner: Side | null = finished ? (event.scoreA > event.scoreB ? 'A' : 'B') : null;
      const maps = before.maps.map((entry, i) =>
        i === event.index
          ? { ...entry, scoreA: event.scoreA, scoreB: event.scoreB, finished, winner }
          : entry,
      );
      return { ...before, maps };
    }
    case 'match.veto.sessionStarted': {
      const { eventName: _e, teamFormat: _t, teamASide: _s, logos: _l, beforeSession, ...setup } = before;
      // A finished session that is replaced is what the HUD showed: it becomes the one to restore.
      const kept = (event.replacesUnfinished ? beforeSession : null) ?? setup;
      return {
        ...before,
        beforeSession: kept,
        teamA: withTag(event.teamA, before.teamA) ?? event.teamA,
        teamB: withTag(event.teamB, before.teamB) ?? event.teamB,
        boFormat: event.boFormat,
        veto: [],
        maps: kept.maps,
      };
    }
    case 'match.veto.sessionProgress': {
      if (!before.beforeSession) return before;
      const previous = before.beforeSession.maps;
      return {
        ...before,
        veto: event.steps,
        maps: event.complete
          ? seriesFrom(event.steps, previous, samePair(before.beforeSession, before))
          : previous,
      };
    }
    case 'match.veto.sessionCancelled':
      return before.beforeSession ? { ...before, ...before.beforeSession, beforeSession: null } : before;
    case 'match.veto.apply':
      return {
        ...before,
        veto: event.steps,
        maps: seriesFrom(
          event.steps,
          before.maps,
          samePair({ teamA: event.teamA ?? before.teamA, teamB: event.teamB ?? before.teamB }, before),
        ),
        boFormat: event.boFormat,
        // A team of the same name keeps the tag it had.
        teamA: withTag(event.teamA, before.teamA) ?? before.teamA,
        teamB: withTag(event.teamB, before.teamB) ?? before.teamB,
        beforeSession: null,
      };
    case 'match.veto.reset':
      return { ...before, veto: null, maps: [], beforeSession: null };
    // Team B always plays the other side, so only team A's is kept.
    case 'match.sides.swap':
      return { ...before, teamASide: before.teamASide === 'CT' ? 'T' : 'CT' };
    case 'match.sides.set':
      return { ...before, teamASide: event.teamASide };
    default:
      return before;
  }
}

function withTag(team: Team | undefined, current: Team | null): Team | undefined {
  if (!team || team.tag !== undefined || current?.tag === undefined || team.name !== current.name)
    return team;
  return { ...team, tag: current.tag };
}

/** The parts of the match a veto session replaces and veto_cancel restores. */
const seriesOf = ({ boFormat, teamA, teamB, maps, veto }: MatchInput) => ({
  boFormat,
  teamA,
  teamB,
  maps,
  veto,
});

const actors: Array<Actor<typeof matchMachine>> = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});

function startMatch(input: MatchInput = structuredClone(MATCH_DEFAULTS)) {
  const actor = createActor(matchMachine, { input });
  actors.push(actor);
  actor.start();
  return actor;
}

function walkAll(
  name: string,
  events: MatchEvent[],
  expectCoverage: (paths: ReturnType<typeof getPaths>) => void,
) {
  function getPaths() {
    return createTestModel(matchMachine, {
      input: structuredClone(MATCH_DEFAULTS),
      events,
      filterEvents: listedAndHandled(events),
    }).getShortestPaths();
  }
  describe(`matchMachine, model-based: ${name}`, () => {
    const paths = getPaths();
    it('walks what it should', () => expectCoverage(paths));
    for (const [index, path] of paths.entries()) {
      it(`path ${index}: ${pathName(path, describeModelEvent)}`, async () => {
        let actor: Actor<typeof matchMachine> | undefined;
        // The series as it was when the running chain of sessions began: what a cancel must show.
        let restorePoint: ReturnType<typeof seriesOf> | null = null;
        await walk(path, {
          start: () => {
            actor = startMatch();
            restorePoint = null;
          },
          send: (event) => {
            const match = actor as Actor<typeof matchMachine>;
            const before = match.getSnapshot().context;
            match.send(event);
            const after = match.getSnapshot().context;
            expect(after).toEqual(specMatch(before, event));
            if (event.type === 'match.veto.sessionStarted') {
              if (!event.replacesUnfinished || !restorePoint) restorePoint = seriesOf(before);
            } else if (event.type === 'match.veto.sessionCancelled') {
              if (restorePoint)
                expect(seriesOf(after), 'veto_cancel restores the series').toEqual(restorePoint);
              restorePoint = null;
            } else if (event.type === 'match.veto.apply' || event.type === 'match.veto.reset') {
              restorePoint = null;
            }
          },
          check: (expected) => {
            const actual = (actor as Actor<typeof matchMachine>).getSnapshot();
            expect(actual.value).toEqual(expected.value);
            expect(actual.context).toEqual(expected.context);
            const { context } = actual;
            // One fetch runs for each logo being fetched, and none for any other.
            const fetching = Object.keys(context.logos).filter(
              (logo) => context.logos[logo]?.state === 'fetching',
            );
            expect(Object.keys(actual.children).sort()).toEqual(fetching.map(logoFetchId).sort());
            // A live session is exactly a match that keeps a setup to restore.
            expect(actual.matches('vetoLive')).toBe(context.beforeSession !== null);
            // The series maps are the picks and the decider of the veto once it is complete.
            if (context.veto && context.veto.at(-1)?.type === 'decider') {
              expect(context.maps.map(({ map, pickedBy }) => ({ map, pickedBy }))).toEqual(
                specSeriesMaps(context.veto),
              );
            }
            for (const entry of context.maps) {
              expect(entry.winner).toBe(entry.finished ? (entry.scoreA > entry.scoreB ? 'A' : 'B') : null);
            }
          },
        });
      });
    }
  });
}

walkAll('series (teams, veto session, veto_set, reset_veto, map results)', SERIES_EVENTS, (paths) => {
  expect(reachedValues(paths)).toEqual(new Set([valueKey('standing'), valueKey('vetoLive')]));
  const states = paths.flatMap((path) => path.steps.map((step) => step.state.context));
  // A finished map result, kept through a veto that puts the same map first again.
  expect(states.some((context) => context.maps[0]?.finished && context.veto?.length === 7)).toBe(true);
  // A session that replaces a veto and the cancel that restores it.
  expect(states.some((context) => context.beforeSession?.veto?.length === 7)).toBe(true);
  // A session that replaces a finished session keeps the finished veto to restore.
  expect(states.some((context) => context.beforeSession?.veto?.length === BO1_STEPS.length)).toBe(true);
  // A cancel that restores maps with a result.
  expect(
    paths.some((path) =>
      path.steps.some(
        (step, i) =>
          step.event.type === 'match.veto.sessionCancelled' &&
          path.steps[i - 1]?.state.context.beforeSession?.maps.some((entry) => entry.finished),
      ),
    ),
  ).toBe(true);
});

walkAll('event name and team format', LABEL_EVENTS, (paths) => {
  const labels = new Set(
    paths.flatMap((path) =>
      path.steps.map((step) => `${step.state.context.eventName}|${step.state.context.teamFormat}`),
    ),
  );
  expect(labels.size).toBe(2 * 3);
});

walkAll('team logos', LOGO_EVENTS, (paths) => {
  const statuses = new Set(
    paths.flatMap((path) =>
      path.steps.flatMap((step) => Object.values(step.state.context.logos).map((status) => status.state)),
    ),
  );
  expect(statuses).toEqual(new Set(['fetching', 'stored', 'failed']));
});

walkAll('sides', SIDE_EVENTS, (paths) => {
  const sides = new Set(paths.flatMap((path) => path.steps.map((step) => step.state.context.teamASide)));
  expect(sides).toEqual(new Set(['CT', 'T']));
});

describe('matchMachine sides', () => {
  it('a swap goes both ways, and a set that names the side played keeps the very same snapshot', () => {
    const match = startMatch();
    match.send({ type: 'match.sides.swap' });
    expect(match.getSnapshot().context.teamASide).toBe('T');
    match.send({ type: 'match.sides.swap' });
    expect(match.getSnapshot().context.teamASide).toBe('CT');
    const before = match.getSnapshot();
    match.send({ type: 'match.sides.set', teamASide: 'CT' });
    expect(match.getSnapshot()).toBe(before);
  });
});

const started = (teamA: Team, teamB: Team, boFormat: BoFormat, replacesUnfinished: boolean): MatchEvent => ({
  type: 'match.veto.sessionStarted',
  teamA,
  teamB,
  boFormat,
  replacesUnfinished,
});

describe('matchMachine, refusals', () => {
  it('a finished map without a winner is refused and explained', () => {
    const match = startMatch();
    match.send({ type: 'match.veto.apply', steps: BO3_STEPS, boFormat: 'bo3' });
    const before = match.getSnapshot();
    const draw = { index: 0, scoreA: 7, scoreB: 7, finished: true };
    expect(explainMapResult(before.context, draw)).toMatch(/needs a winner/);
    match.send({ type: 'match.mapResult.set', ...draw });
    expect(match.getSnapshot()).toBe(before);
  });

  it('a result for an empty slot is refused and explained', () => {
    const match = startMatch();
    match.send({ type: 'match.veto.apply', steps: BO1_STEPS, boFormat: 'bo1' });
    const before = match.getSnapshot();
    expect(explainMapResult(before.context, { index: 1, scoreA: 13, scoreB: 3 })).toBe(
      'map 2 is not in the series',
    );
    match.send({ type: 'match.mapResult.set', index: 1, scoreA: 13, scoreB: 3 });
    expect(match.getSnapshot()).toBe(before);
  });

  it('a draw is fine while the map is not finished, and finished omitted keeps the flag', () => {
    const match = startMatch();
    match.send({ type: 'match.veto.apply', steps: BO3_STEPS, boFormat: 'bo3' });
    match.send({ type: 'match.mapResult.set', index: 0, scoreA: 6, scoreB: 6 });
    expect(match.getSnapshot().context.maps[0]).toMatchObject({
      scoreA: 6,
      scoreB: 6,
      finished: false,
      winner: null,
    });
    match.send({ type: 'match.mapResult.set', index: 0, scoreA: 13, scoreB: 11, finished: true });
    match.send({ type: 'match.mapResult.set', index: 0, scoreA: 11, scoreB: 13 });
    expect(match.getSnapshot().context.maps[0]).toMatchObject({
      scoreA: 11,
      scoreB: 13,
      finished: true,
      winner: 'B',
    });
  });

  it('progress and cancel without a session change nothing', () => {
    const match = startMatch();
    match.send({ type: 'match.veto.apply', steps: BO3_STEPS, boFormat: 'bo3' });
    const before = match.getSnapshot();
    match.send({ type: 'match.veto.sessionProgress', steps: BO1_STEPS, complete: true });
    match.send({ type: 'match.veto.sessionCancelled' });
    expect(match.getSnapshot()).toBe(before);
  });

  it('a session that replaces one in progress keeps the setup from before the first: cancel restores that', () => {
    const match = startMatch();
    match.send({ type: 'match.veto.apply', steps: BO3_STEPS, boFormat: 'bo3', teamA: NAVI, teamB: VITALITY });
    const original = match.getSnapshot().context;
    match.send(started(ALPHA, BRAVO, 'bo1', false));
    match.send({ type: 'match.veto.sessionProgress', steps: BO1_STEPS.slice(0, 1), complete: false });
    match.send(started(BRAVO, ALPHA, 'bo1', true));
    expect(match.getSnapshot().context.maps).toEqual(original.maps);
    match.send({ type: 'match.veto.sessionCancelled' });
    expect(match.getSnapshot().context).toEqual(original);
  });

  // Issue 10, defect 2: a completed bo1, then a bo3 session cancelled, showed no format, maps or veto.
  it('a session that replaces a finished one: cancel restores the finished veto, format and maps', () => {
    const match = startMatch();
    match.send(started(ALPHA, BRAVO, 'bo1', false));
    match.send({ type: 'match.veto.sessionProgress', steps: BO1_STEPS, complete: true });
    match.send({ type: 'match.mapResult.set', index: 0, scoreA: 13, scoreB: 4, finished: true });
    const finished = match.getSnapshot().context;
    match.send(started(ALPHA, BRAVO, 'bo3', false));
    match.send({ type: 'match.veto.sessionProgress', steps: BO3_STEPS.slice(0, 1), complete: false });
    match.send({ type: 'match.veto.sessionCancelled' });
    const restored = match.getSnapshot().context;
    expect(seriesOf(restored)).toEqual(seriesOf(finished));
    expect(restored.boFormat).toBe('bo1');
    expect(restored.maps).toEqual([
      { map: 'de_ancient', pickedBy: 'decider', finished: true, scoreA: 13, scoreB: 4, winner: 'A' },
    ]);
    // The finished session was shown as any veto: nothing is left to cancel.
    expect(restored.beforeSession).toBeNull();
    expect(match.getSnapshot().matches('standing')).toBe(true);
  });
});

describe('matchMachine, team logos and tags', () => {
  const stored = {
    type: 'match.logo.stored',
    logo: BRAVO.logo,
    src: '/media/0123456789abcdef0123456789abcdef.png',
  } as const;
  const failed = { type: 'match.logo.failed', logo: BRAVO.logo, reason: 'refused' } as const;
  const children = (match: ReturnType<typeof startMatch>) => Object.keys(match.getSnapshot().children);

  it('a stored logo stays stored through a swap: nothing is fetched again', () => {
    const match = startMatch();
    match.send({ type: 'match.teams.set', teamA: NAVI, teamB: BRAVO });
    expect(children(match)).toEqual([logoFetchId(BRAVO.logo)]);
    match.send(stored);
    expect(children(match)).toEqual([]);
    match.send({ type: 'match.teams.set', teamA: BRAVO, teamB: NAVI });
    expect(match.getSnapshot().context.logos).toEqual({ [BRAVO.logo]: { state: 'stored', src: stored.src } });
    expect(children(match)).toEqual([]);
  });

  it('a failed logo is fetched again when set_teams sends it again, not when a session is cancelled', () => {
    const match = startMatch();
    match.send({ type: 'match.teams.set', teamA: NAVI, teamB: BRAVO });
    match.send(failed);
    expect(match.getSnapshot().context.logos[BRAVO.logo]).toEqual({ state: 'failed', reason: 'refused' });
    match.send({
      type: 'match.veto.sessionStarted',
      teamA: ALPHA,
      teamB: VITALITY,
      boFormat: 'bo1',
      replacesUnfinished: false,
    });
    match.send({ type: 'match.veto.sessionCancelled' });
    expect(match.getSnapshot().context.logos[BRAVO.logo]?.state).toBe('failed');
    expect(children(match)).toEqual([]);
    match.send({ type: 'match.teams.set', teamA: NAVI, teamB: BRAVO });
    expect(match.getSnapshot().context.logos[BRAVO.logo]).toEqual({ state: 'fetching' });
    expect(children(match)).toEqual([logoFetchId(BRAVO.logo)]);
  });

  it('a report for a logo no longer in use changes nothing, and its fetch was stopped', () => {
    const match = startMatch();
    match.send({ type: 'match.teams.set', teamA: NAVI, teamB: BRAVO });
    match.send({ type: 'match.teams.set', teamA: NAVI, teamB: VITALITY });
    expect(children(match)).toEqual([]);
    expect(match.getSnapshot().context.logos).toEqual({});
    const before = match.getSnapshot();
    match.send(stored);
    expect(match.getSnapshot()).toBe(before);
  });

  it('at start, a saved logo still fetching and a logo the saved state has no status for are fetched', () => {
    const match = startMatch({
      ...structuredClone(MATCH_DEFAULTS),
      teamA: BRAVO,
      teamB: CHARLIE,
      logos: { [BRAVO.logo]: { state: 'fetching' } },
    });
    expect(match.getSnapshot().context.logos).toEqual({
      [BRAVO.logo]: { state: 'fetching' },
      [CHARLIE.logo]: { state: 'fetching' },
    });
    expect(children(match).sort()).toEqual([logoFetchId(BRAVO.logo), logoFetchId(CHARLIE.logo)].sort());
  });

  it('a veto session, veto_set or an import keeps the tag of a team of the same name; set_teams sets exactly what it is sent', () => {
    const match = startMatch();
    match.send({ type: 'match.teams.set', teamA: { ...NAVI, tag: 'NAVI' }, teamB: VITALITY });
    match.send(started(NAVI, VITALITY, 'bo3', false));
    expect(match.getSnapshot().context.teamA).toEqual({ name: 'Navi', tag: 'NAVI' });
    match.send({ type: 'match.veto.apply', steps: BO3_STEPS, boFormat: 'bo3', teamA: NAVI, teamB: VITALITY });
    expect(match.getSnapshot().context.teamA).toEqual({ name: 'Navi', tag: 'NAVI' });
    match.send({
      type: 'match.veto.apply',
      steps: BO3_STEPS,
      boFormat: 'bo3',
      teamA: ALPHA,
      teamB: VITALITY,
    });
    expect(match.getSnapshot().context.teamA).toEqual(ALPHA);
    match.send({ type: 'match.teams.set', teamA: { ...ALPHA, tag: 'ALP' }, teamB: VITALITY });
    match.send({ type: 'match.teams.set', teamA: ALPHA, teamB: VITALITY });
    expect(match.getSnapshot().context.teamA).toEqual(ALPHA);
  });
});
