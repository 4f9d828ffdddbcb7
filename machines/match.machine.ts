import type { EventObject } from 'xstate';
import { assign, enqueueActions, fromCallback, setup } from 'xstate';
import type { GameSide } from './game-sides.ts';
import { otherSide } from './game-sides.ts';
import type { LogoStatuses } from './team-logo.ts';
import { LOGO_REASON_MAX_LENGTH, logoFetchChanges, logoFetchId, logoStatusesFor } from './team-logo.ts';
import type { BoFormat, Side, Team, VetoStep } from './veto-rules.ts';
import { otherSide as otherTeam, seriesMapsOf } from './veto-rules.ts';
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
  /** The game side team A plays now (team B plays the other): set by the operator or the game data. */
  teamASide: GameSide;
  /** What the server holds of each team logo at an http(s) address the match uses (machines/team-logo.ts). */
  logos: LogoStatuses;
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
  teamASide: 'CT',
  logos: {},
};

/** What the logo fetch is given: the address to fetch. */
export interface LogoFetchInput {
  logo: string;
}

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
  /** `imported`: the veto comes from an import, applied by planImport's rules (the desk's teams kept). */
  | {
      type: 'match.veto.apply';
      steps: VetoStep[];
      boFormat: BoFormat;
      teamA?: Team;
      teamB?: Team;
      imported?: boolean;
    }
  | { type: 'match.veto.reset' }
  /** The teams change sides: the operator's swap, or half time and each overtime half in the game data. */
  | { type: 'match.sides.swap' }
  /** The game data named the side of team A (its team names match the match's). */
  | { type: 'match.sides.set'; teamASide: GameSide }
  /** The logo fetch stored the logo at `logo` in the media store: the pages load `src`. */
  | { type: 'match.logo.stored'; logo: string; src: string }
  /** The logo fetch could not store the logo at `logo`: the pages show the initials. */
  | { type: 'match.logo.failed'; logo: string; reason: string }
  /** Undo or redo puts an earlier match back (machines/history.machine.ts); the logo statuses follow it. */
  | { type: 'match.restore'; state: Partial<Omit<MatchInput, 'logos'>> };

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

/** A team of a veto (a session, veto_set, an import) keeps the tag the operator gave a team of the same name. */
function keepTag(incoming: Team | undefined, current: Team | null): Team | undefined {
  if (!incoming || incoming.tag !== undefined || !current?.tag || !sameTeam(incoming, current))
    return incoming;
  return { ...incoming, tag: current.tag };
}

/** The logos of the teams the match holds: on air, and kept for veto_cancel. */
const logosInUse = (context: MatchInput) =>
  [context.teamA, context.teamB, context.beforeSession?.teamA, context.beforeSession?.teamB].map(
    (team) => team?.logo,
  );

/** The logos an event sends again: a failed one among them is tried once more. */
function logosSent(event: MatchEvent): (string | undefined)[] {
  switch (event.type) {
    case 'match.teams.set':
    case 'match.veto.sessionStarted':
    case 'match.veto.apply':
      return [event.teamA?.logo, event.teamB?.logo];
    default:
      return [];
  }
}

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

/** A map result worth keeping: finished, or with rounds played. */
export const hasResult = (entry: SeriesMap) => entry.finished || entry.scoreA + entry.scoreB > 0;

/** A team's name or tag as compared: case and spaces do not count. */
const key = (text: string | undefined) => text?.toLowerCase().replace(/\s+/g, '') ?? '';

/** The same team by name or by tag (an import's "NAVI" is the desk's "Natus Vincere", tag NAVI). */
export function isSameTeamOf(desk: Team | null, incoming: Team): boolean {
  if (!desk) return false;
  const deskKeys = [key(desk.name), key(desk.tag)].filter((text) => text !== '');
  const incomingKeys = [key(incoming.name), key(incoming.tag)].filter((text) => text !== '');
  return incomingKeys.some((text) => deskKeys.includes(text));
}

/** What applying an imported veto does to the match: computed once, for the preview and the apply. */
export interface ImportPlan {
  teamA: Team;
  teamB: Team;
  boFormat: BoFormat;
  /** The steps with their teams as the match holds them (flipped when the source lists B first). */
  steps: VetoStep[];
  maps: SeriesMap[];
  /** The imported teams are the desk's: its A/B order, names, tags and logos stay. */
  teamsKept: boolean;
  /** The source lists the desk's team B first: the import was turned round to the desk's order. */
  swapped: boolean;
  /** Series maps with a result (finished, or rounds played) that the import replaces, by index. */
  lost: Array<{ index: number; entry: SeriesMap }>;
}

/**
 * The rule of an import over the desk (docs/import.md): when both imported teams are the current
 * ones (by name or tag, either way round) the operator's teams stay as they are, in their A/B order
 * with their tags and logos, and the steps follow that order; a series map that stays at the same
 * place keeps its result. Otherwise the import's teams come in the source's order (a tag the desk
 * gave a team of the same name kept) and every map starts from 0-0. `lost` lists what goes.
 */
export function planImport(
  context: Pick<MatchInput, 'teamA' | 'teamB' | 'maps'>,
  imported: { teamA: Team; teamB: Team; boFormat: BoFormat; steps: readonly VetoStep[] },
): ImportPlan {
  const { teamA, teamB } = context;
  const straight = isSameTeamOf(teamA, imported.teamA) && isSameTeamOf(teamB, imported.teamB);
  const swapped = !straight && isSameTeamOf(teamA, imported.teamB) && isSameTeamOf(teamB, imported.teamA);
  const teamsKept = (straight || swapped) && teamA !== null && teamB !== null;
  const steps = swapped
    ? imported.steps.map((step) => (step.team ? { ...step, team: otherTeam(step.team) } : step))
    : [...imported.steps];
  const maps = mapsFromVeto(steps, context.maps, teamsKept);
  const lost = context.maps.flatMap((entry, index) => {
    const next = maps[index];
    const kept =
      next !== undefined &&
      next.map === entry.map &&
      next.scoreA === entry.scoreA &&
      next.scoreB === entry.scoreB &&
      next.finished === entry.finished;
    return hasResult(entry) && !kept ? [{ index, entry }] : [];
  });
  return {
    teamA: teamsKept && teamA ? teamA : (keepTag(imported.teamA, teamA) ?? imported.teamA),
    teamB: teamsKept && teamB ? teamB : (keepTag(imported.teamB, teamB) ?? imported.teamB),
    boFormat: imported.boFormat,
    steps,
    maps,
    teamsKept,
    swapped: teamsKept && swapped,
    lost,
  };
}

/**
 * The match: teams, event, formats, series maps with their scores and the veto shown on the HUD.
 * While a manual veto session runs, the match shows its steps live and keeps what was there before.
 */
export const matchMachine = setup({
  types: {} as { context: MatchInput; input: MatchInput; events: MatchEvent },
  actors: {
    /** Fetches one logo into the media store and reports `match.logo.stored` or `match.logo.failed`. */
    logoFetch: fromCallback<EventObject, LogoFetchInput>(() => {}),
  },
  guards: {
    isFetchingLogo: ({ context, event }) =>
      (event.type === 'match.logo.stored' || event.type === 'match.logo.failed') &&
      context.logos[event.logo]?.state === 'fetching',
    hasBackup: ({ context }) => context.beforeSession !== null,
    isStorableResult: ({ context, event }) =>
      event.type === 'match.mapResult.set' && explainMapResult(context, event) === null,
    isOtherEventName: ({ context, event }) =>
      event.type === 'match.eventName.set' && event.name !== context.eventName,
    isOtherTeamFormat: ({ context, event }) =>
      event.type === 'match.teamFormat.set' && event.format !== context.teamFormat,
    isOtherSide: ({ context, event }) =>
      event.type === 'match.sides.set' && event.teamASide !== context.teamASide,
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
        teamA: keepTag(event.teamA, context.teamA) ?? event.teamA,
        teamB: keepTag(event.teamB, context.teamB) ?? event.teamB,
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
      if (event.imported && event.teamA && event.teamB) {
        const plan = planImport(context, { ...event, teamA: event.teamA, teamB: event.teamB });
        const { teamA, teamB, boFormat, steps, maps } = plan;
        return { veto: steps, maps, boFormat, teamA, teamB, beforeSession: null };
      }
      return {
        veto: event.steps,
        maps: mapsFromVeto(
          event.steps,
          context.maps,
          sameTeam(event.teamA ?? context.teamA, context.teamA) &&
            sameTeam(event.teamB ?? context.teamB, context.teamB),
        ),
        boFormat: event.boFormat,
        teamA: keepTag(event.teamA, context.teamA) ?? context.teamA,
        teamB: keepTag(event.teamB, context.teamB) ?? context.teamB,
        beforeSession: null,
      };
    }),
    /** After a change of the teams: the statuses follow the logos in use, and so do the fetches. */
    followLogos: enqueueActions(({ context, event, enqueue }) => {
      const logos = logoStatusesFor(logosInUse(context), context.logos, logosSent(event));
      if (logos === context.logos) return;
      enqueue.assign({ logos });
      const { start, stop } = logoFetchChanges(context.logos, logos);
      for (const logo of stop) enqueue.stopChild(logoFetchId(logo));
      for (const logo of start) enqueue.spawnChild('logoFetch', { id: logoFetchId(logo), input: { logo } });
    }),
    /**
     * At start, every logo in use still to fetch: the service stopped while fetching it, or the saved
     * state is older than the logo statuses.
     */
    fetchPendingLogos: enqueueActions(({ context, enqueue }) => {
      const logos = logoStatusesFor(logosInUse(context), context.logos, []);
      if (logos !== context.logos) enqueue.assign({ logos });
      for (const logo of logoFetchChanges({}, logos).start) {
        enqueue.spawnChild('logoFetch', { id: logoFetchId(logo), input: { logo } });
      }
    }),
    settleLogo: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'match.logo.stored' && event.type !== 'match.logo.failed') return;
      const status =
        event.type === 'match.logo.stored'
          ? { state: 'stored' as const, src: event.src }
          : { state: 'failed' as const, reason: event.reason.slice(0, LOGO_REASON_MAX_LENGTH) };
      enqueue.assign({ logos: { ...context.logos, [event.logo]: status } });
      enqueue.stopChild(logoFetchId(event.logo));
    }),
    clearVeto: assign({ veto: null, maps: [], beforeSession: null }),
    restoreMatch: assign(({ event }) => (event.type === 'match.restore' ? event.state : {})),
    swapSides: assign({ teamASide: ({ context }) => otherSide(context.teamASide) }),
    setSides: assign({
      teamASide: ({ context, event }) =>
        event.type === 'match.sides.set' ? event.teamASide : context.teamASide,
    }),
  },
}).createMachine({
  id: 'match',
  context: ({ input }) => input,
  initial: 'standing',
  entry: 'fetchPendingLogos',
  on: {
    'match.teams.set': { actions: ['setTeams', 'followLogos'] },
    'match.eventName.set': { guard: 'isOtherEventName', actions: 'setEventName' },
    'match.teamFormat.set': { guard: 'isOtherTeamFormat', actions: 'setTeamFormat' },
    'match.mapResult.set': { guard: 'isStorableResult', actions: 'setMapResult' },
    'match.veto.sessionStarted': { target: '.vetoLive', actions: ['openSession', 'followLogos'] },
    'match.veto.apply': { target: '.standing', actions: ['applyVeto', 'followLogos'] },
    'match.veto.reset': { target: '.standing', actions: ['clearVeto', 'followLogos'] },
    'match.sides.swap': { actions: 'swapSides' },
    'match.sides.set': { guard: 'isOtherSide', actions: 'setSides' },
    'match.logo.stored': { guard: 'isFetchingLogo', actions: 'settleLogo' },
    'match.logo.failed': { guard: 'isFetchingLogo', actions: 'settleLogo' },
    // Through standing, which moves on to vetoLive when the match put back holds a session's backup.
    'match.restore': { target: '.standing', actions: ['restoreMatch', 'followLogos'] },
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
        'match.veto.sessionCancelled': {
          target: 'standing',
          actions: ['restoreBeforeSession', 'followLogos'],
        },
      },
    },
  },
});
