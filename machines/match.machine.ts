import { assign, setup } from 'xstate';
import type { BoFormat, Side, Team, VetoStep } from './veto-rules.ts';
import { seriesMapsOf } from './veto-rules.ts';
import type { TeamFormat } from './vocabulary.ts';

export type { TeamFormat } from './vocabulary.ts';

/** A map of the series. Teams are stored as sides so that renaming a team renames it everywhere. */
export interface SeriesMap {
  map: string;
  pickedBy: Side | 'decider';
  finished: boolean;
  scoreA: number;
  scoreB: number;
  winner: Side | null;
}

type SeriesSetup = Pick<MatchInput, 'boFormat' | 'teamA' | 'teamB' | 'maps' | 'veto'>;

export interface MatchInput {
  eventName: string;
  teamFormat: TeamFormat;
  boFormat: BoFormat | null;
  teamA: Team | null;
  teamB: Team | null;
  maps: SeriesMap[];
  /** The veto on the HUD: a finished one, or the live steps of a manual session. */
  veto: VetoStep[] | null;
  /** What a manual veto session replaced, restored by veto_cancel. */
  beforeSession: SeriesSetup | null;
}

export const MATCH_DEFAULTS: MatchInput = {
  eventName: '',
  teamFormat: 'auto',
  boFormat: null,
  teamA: null,
  teamB: null,
  maps: [],
  veto: null,
  beforeSession: null,
};

export interface MapResult {
  /** Index in context.maps (series number - 1). */
  index: number;
  scoreA: number;
  scoreB: number;
  finished?: boolean;
}

export type MatchEvent =
  | { type: 'match.teams.set'; teamA: Team; teamB: Team; boFormat?: BoFormat }
  | { type: 'match.eventName.set'; name: string }
  | { type: 'match.teamFormat.set'; format: TeamFormat }
  | ({ type: 'match.mapResult.set' } & MapResult)
  /** `replacesUnfinished`: the session replaces one still in progress, whose backup stays. */
  | {
      type: 'match.veto.sessionStarted';
      teamA: Team;
      teamB: Team;
      boFormat: BoFormat;
      replacesUnfinished: boolean;
    }
  | { type: 'match.veto.sessionProgress'; steps: VetoStep[]; complete: boolean }
  | { type: 'match.veto.sessionCancelled' }
  | { type: 'match.veto.apply'; steps: VetoStep[]; boFormat: BoFormat; teamA?: Team; teamB?: Team }
  | { type: 'match.veto.reset' };

/** Why a map result cannot be stored, or null when it can. A missing slot is the caller's 409. */
export function explainMapResult(context: MatchInput, result: MapResult): string | null {
  const current = context.maps[result.index];
  if (!current) return `map ${result.index + 1} is not in the series`;
  const finished = result.finished ?? current.finished;
  if (finished && result.scoreA === result.scoreB) {
    return `a finished map needs a winner: scoreA and scoreB are both ${result.scoreA}`;
  }
  return null;
}

const sameTeam = (a: Team | null | undefined, b: Team | null | undefined) =>
  (a?.name ?? null) === (b?.name ?? null);

/**
 * The series maps of a complete veto. Between the same two teams, a map that stays at the same place
 * keeps its result, so importing the same veto again does not wipe the scores; a new pairing starts
 * every map from 0-0.
 */
function mapsFromVeto(
  steps: readonly VetoStep[],
  previous: readonly SeriesMap[],
  sameSeries: boolean,
): SeriesMap[] {
  return seriesMapsOf(steps).map((step, index) => {
    const pickedBy = step.type === 'decider' ? 'decider' : (step.team ?? 'decider');
    const kept = sameSeries ? previous[index] : undefined;
    if (kept && kept.map === step.map) return { ...kept, pickedBy };
    return { map: step.map, pickedBy, finished: false, scoreA: 0, scoreB: 0, winner: null };
  });
}

/**
 * The match: teams, event, formats, series maps with their scores and the veto shown on the HUD.
 * While a manual veto session runs, the match shows its steps live and keeps what was there before.
 */
export const matchMachine = setup({
  types: {} as { context: MatchInput; input: MatchInput; events: MatchEvent },
  guards: {
    hasBackup: ({ context }) => context.beforeSession !== null,
    isStorableResult: ({ context, event }) =>
      event.type === 'match.mapResult.set' && explainMapResult(context, event) === null,
    isOtherEventName: ({ context, event }) =>
      event.type === 'match.eventName.set' && event.name !== context.eventName,
    isOtherTeamFormat: ({ context, event }) =>
      event.type === 'match.teamFormat.set' && event.format !== context.teamFormat,
  },
  actions: {
    setTeams: assign(({ context, event }) => {
      if (event.type !== 'match.teams.set') return {};
      return { teamA: event.teamA, teamB: event.teamB, boFormat: event.boFormat ?? context.boFormat };
    }),
    setEventName: assign({
      eventName: ({ context, event }) =>
        event.type === 'match.eventName.set' ? event.name : context.eventName,
    }),
    setTeamFormat: assign({
      teamFormat: ({ context, event }) =>
        event.type === 'match.teamFormat.set' ? event.format : context.teamFormat,
    }),
    setMapResult: assign({
      maps: ({ context, event }) => {
        if (event.type !== 'match.mapResult.set') return context.maps;
        return context.maps.map((entry, index) => {
          if (index !== event.index) return entry;
          const finished = event.finished ?? entry.finished;
          const winner: Side | null = finished ? (event.scoreA > event.scoreB ? 'A' : 'B') : null;
          return { ...entry, scoreA: event.scoreA, scoreB: event.scoreB, finished, winner };
        });
      },
    }),
    openSession: assign(({ context, event }) => {
      if (event.type !== 'match.veto.sessionStarted') return {};
      // A session that replaces one in progress keeps the setup from before that one; a session that
      // replaces a finished one keeps the finished veto, which is what the HUD showed.
      const shown: SeriesSetup = {
        boFormat: context.boFormat,
        teamA: context.teamA,
        teamB: context.teamB,
        maps: context.maps,
        veto: context.veto,
      };
      const beforeSession = (event.replacesUnfinished ? context.beforeSession : null) ?? shown;
      return {
        beforeSession,
        teamA: event.teamA,
        teamB: event.teamB,
        boFormat: event.boFormat,
        veto: [],
        maps: beforeSession.maps,
      };
    }),
    showSessionSteps: assign(({ context, event }) => {
      if (event.type !== 'match.veto.sessionProgress') return {};
      const before = context.beforeSession;
      const maps = before?.maps ?? [];
      const sameSeries = sameTeam(before?.teamA, context.teamA) && sameTeam(before?.teamB, context.teamB);
      return { veto: event.steps, maps: event.complete ? mapsFromVeto(event.steps, maps, sameSeries) : maps };
    }),
    restoreBeforeSession: assign(({ context }) => ({
      ...(context.beforeSession ?? {}),
      beforeSession: null,
    })),
    applyVeto: assign(({ context, event }) => {
      if (event.type !== 'match.veto.apply') return {};
      return {
        veto: event.steps,
        maps: mapsFromVeto(
          event.steps,
          context.maps,
          sameTeam(event.teamA ?? context.teamA, context.teamA) &&
            sameTeam(event.teamB ?? context.teamB, context.teamB),
        ),
        boFormat: event.boFormat,
        teamA: event.teamA ?? context.teamA,
        teamB: event.teamB ?? context.teamB,
        beforeSession: null,
      };
    }),
    clearVeto: assign({ veto: null, maps: [], beforeSession: null }),
  },
}).createMachine({
  id: 'match',
  context: ({ input }) => input,
  initial: 'standing',
  on: {
    'match.teams.set': { actions: 'setTeams' },
    'match.eventName.set': { guard: 'isOtherEventName', actions: 'setEventName' },
    'match.teamFormat.set': { guard: 'isOtherTeamFormat', actions: 'setTeamFormat' },
    'match.mapResult.set': { guard: 'isStorableResult', actions: 'setMapResult' },
    'match.veto.sessionStarted': { target: '.vetoLive', actions: 'openSession' },
    'match.veto.apply': { target: '.standing', actions: 'applyVeto' },
    'match.veto.reset': { target: '.standing', actions: 'clearVeto' },
  },
  states: {
    standing: {
      description: 'The veto and series maps are as set, imported or finished',
      always: { guard: 'hasBackup', target: 'vetoLive' },
    },
    vetoLive: {
      description:
        'A manual veto session shows its steps live; the setup from before it is kept for veto_cancel',
      on: {
        'match.veto.sessionProgress': { actions: 'showSessionSteps' },
        'match.veto.sessionCancelled': { target: 'standing', actions: 'restoreBeforeSession' },
      },
    },
  },
});
