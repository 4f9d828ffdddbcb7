import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import type { UndoableState } from './history.machine.ts';
import { undoableStateOf } from './history.machine.ts';
import type { ImportPlan, MatchInput } from './match.machine.ts';
import { planImport } from './match.machine.ts';
import { SYSTEM_ID } from './system-ids.ts';
import type { BoFormat, Side, Team, VetoStep } from './veto-rules.ts';
import { explainPool, explainSteps, nextStep, remainingMaps, sameSteps, stepOrder } from './veto-rules.ts';

/**
 * A manual veto in progress: who bans first, over which pool, and the steps played so far. The
 * teams belong to the match (veto_start sets them there), so renaming a team renames it here too.
 */
export interface VetoSession {
  boFormat: BoFormat;
  firstBanner: Side;
  pool: string[];
  steps: VetoStep[];
}

export interface VetoSessionInput {
  session: VetoSession | null;
}

/** A finished veto as read from a match room or a match page, in the service's own vocabulary. */
export interface ImportedVeto {
  provider: 'faceit' | 'hltv';
  /** The platform's id: `1-<uuid>` on FACEIT, the numeric match id on HLTV. */
  matchId: string;
  /** FACEIT faction1 / the first team of the HLTV page. */
  teamA: Team;
  /** FACEIT faction2 / the second team of the HLTV page. */
  teamB: Team;
  boFormat: BoFormat;
  /** Bans and picks in the order they were made (attributed as the source says), then the decider. */
  steps: VetoStep[];
  /** When the match is (or was) scheduled to start, ISO 8601 in UTC. */
  matchTime?: string;
}

export interface ImportRequest {
  requestId: string;
  url?: string;
  platformMatchId?: string;
  apply: boolean;
  show: boolean;
}

export type ImportOutcome =
  | {
      requestId: string;
      ok: true;
      imported: ImportedVeto;
      applied: boolean;
      shown: boolean;
      /** What applying it changes (or, with apply false, would change), from the match before it. */
      plan: ImportPlan;
      /** The match, session and reveal before it: what undo brings back (the command records it). */
      before: UndoableState;
    }
  | { requestId: string; ok: false; error: { code: string; message: string } };

export interface VetoSessionContext extends VetoSessionInput {
  importing: ImportRequest | null;
  lastImport: ImportOutcome | null;
}

export type VetoSessionEvent =
  | { type: 'veto.start'; boFormat: BoFormat; teamA: Team; teamB: Team; firstBanner: Side; pool: string[] }
  | { type: 'veto.select'; map: string }
  | { type: 'veto.undo' }
  | { type: 'veto.cancel' }
  | { type: 'veto.set'; boFormat: BoFormat; teamA: Team; teamB: Team; steps: VetoStep[] }
  | { type: 'veto.reset' }
  | { type: 'veto.import'; request: ImportRequest }
  /** Undo or redo puts an earlier session (or none) back (machines/history.machine.ts). */
  | { type: 'veto.restore'; session: VetoSession | null };

/** Why a map cannot be played now, or null when it can. */
export function explainSelection(session: VetoSession | null, map: string): string | null {
  if (!session) return 'no veto session is running: start one with veto_start';
  if (isSessionComplete(session)) return 'the veto is complete: undo a step or start a new session';
  if (!session.pool.includes(map)) return `${map} is not in the map pool (${session.pool.join(', ')})`;
  if (session.steps.some((step) => step.map === map)) return `${map} has already been played`;
  return null;
}

export const isSessionComplete = (session: VetoSession) =>
  session.steps.length === stepOrder(session.boFormat, session.pool.length).length;

/**
 * A session still in progress. A new veto_start replacing one keeps what was there before it; one
 * replacing a finished session keeps the finished veto, which is what was on the HUD.
 */
const isUnfinished = (session: VetoSession | null) => session !== null && !isSessionComplete(session);

/** The step a selection makes, and the decider with it when only the decider is left. */
function stepsAfterSelection(session: VetoSession, map: string): VetoStep[] {
  const turn = nextStep(session.boFormat, session.pool.length, session.firstBanner, session.steps.length);
  if (!turn || turn.type === 'decider' || turn.team === null) return session.steps;
  const steps = [...session.steps, { type: turn.type, team: turn.team, map }];
  const after = nextStep(session.boFormat, session.pool.length, session.firstBanner, steps.length);
  if (after?.type === 'decider') {
    const [decider] = remainingMaps(session.pool, steps);
    if (decider) steps.push({ type: 'decider', map: decider });
  }
  return steps;
}

/** Undo takes back the last ban or pick, and the decider that came with it. */
function stepsAfterUndo(steps: readonly VetoStep[]): VetoStep[] {
  const withoutDecider = steps.at(-1)?.type === 'decider' ? steps.slice(0, -1) : steps;
  return withoutDecider.slice(0, -1);
}

/**
 * The veto: a manual session (start, select, undo, cancel) beside the ways a whole veto arrives
 * (veto_set, import_match_veto) or leaves (reset_veto). The match actor shows the result; the
 * import runs as the provided `matchImport` actor.
 */
export const vetoSessionMachine = setup({
  types: {} as {
    context: VetoSessionContext;
    input: VetoSessionInput;
    events: VetoSessionEvent;
  },
  actors: {
    // Provided from src/ with the real HTTP importers.
    matchImport: fromPromise<ImportedVeto, ImportRequest>(async () => {
      throw new Error('matchImport is provided by the application');
    }),
  },
  guards: {
    hasSession: ({ context }) => context.session !== null,
    isComplete: ({ context }) => context.session !== null && isSessionComplete(context.session),
    isPlayablePool: ({ event }) =>
      event.type === 'veto.start' && explainPool(event.boFormat, event.pool) === null,
    isPlayableMap: ({ context, event }) =>
      event.type === 'veto.select' && explainSelection(context.session, event.map) === null,
    hasSteps: ({ context }) => (context.session?.steps.length ?? 0) > 0,
    followsRules: ({ event }) =>
      event.type === 'veto.set' && explainSteps(event.boFormat, event.steps) === null,
    importShouldApply: ({ context }) => context.importing?.apply === true,
    importShouldShow: ({ context }) => context.importing?.show === true,
  },
  actions: {
    startSession: assign({
      session: ({ event }) => {
        if (event.type !== 'veto.start') return null;
        const { boFormat, firstBanner, pool } = event;
        return { boFormat, firstBanner, pool, steps: [] };
      },
    }),
    recordSelection: assign({
      session: ({ context: { session }, event }) =>
        session && event.type === 'veto.select'
          ? { ...session, steps: stepsAfterSelection(session, event.map) }
          : session,
    }),
    undoLastStep: assign({
      session: ({ context: { session } }) => session && { ...session, steps: stepsAfterUndo(session.steps) },
    }),
    endSession: assign({ session: null }),
    restoreSession: assign({
      session: ({ event }) => (event.type === 'veto.restore' ? event.session : null),
    }),
    rememberImport: assign({
      importing: ({ event }) => (event.type === 'veto.import' ? event.request : null),
    }),
    // Reads the match before the apply (sendTo is delivered after this transition): the plan is what
    // the match actor's applyVeto computes from the same match.
    recordImport: assign(({ context, event, system }) => {
      const request = context.importing;
      if (!request) return {};
      const imported = (event as unknown as { output: ImportedVeto }).output;
      const plan = planImport(matchOf(system), imported);
      const before = undoableStateOf(system);
      return {
        importing: null,
        lastImport: {
          requestId: request.requestId,
          ok: true,
          imported,
          applied: request.apply,
          shown: request.show,
          plan,
          before,
        },
      };
    }),
    recordImportFailure: assign(({ context, event }) => {
      const error = (event as unknown as { error: unknown }).error;
      const { code, message } = describeFailure(error);
      return {
        importing: null,
        lastImport: { requestId: context.importing?.requestId ?? '', ok: false, error: { code, message } },
      };
    }),
    // Both read the session being replaced: they run before startSession.
    startMatchVeto: sendTo(
      ({ system }) => system.get(SYSTEM_ID.match),
      ({ context, event }) => {
        assertEvent(event, 'veto.start');
        return {
          type: 'match.veto.sessionStarted',
          teamA: event.teamA,
          teamB: event.teamB,
          boFormat: event.boFormat,
          replacesUnfinished: isUnfinished(context.session),
        };
      },
    ),
    startRevealSession: sendTo(
      ({ system }) => system.get(SYSTEM_ID.vetoReveal),
      ({ context }) => ({
        type: 'veto.reveal.sessionStarted',
        replacesUnfinished: isUnfinished(context.session),
      }),
    ),
    forgetRemovedReveals: sendTo(
      ({ system }) => system.get(SYSTEM_ID.vetoReveal),
      ({ context: { session } }) => ({ type: 'veto.reveal.stepsRemoved', total: session?.steps.length ?? 0 }),
    ),
    cancelRevealSession: sendTo(({ system }) => system.get(SYSTEM_ID.vetoReveal), {
      type: 'veto.reveal.sessionCancelled',
    }),
    // Before applyMatchVeto and resetMatchVeto: it compares the new veto with the one still on the HUD.
    replaceRevealedVeto: sendTo(
      ({ system }) => system.get(SYSTEM_ID.vetoReveal),
      ({ system, event }) => {
        const shown: VetoStep[] | null = matchOf(system).veto;
        const steps = newVetoOf(event, matchOf(system));
        return {
          type: 'veto.reveal.vetoReplaced',
          sameSteps: sameSteps(shown, steps),
          waits: steps !== null,
        };
      },
    ),
    syncMatchVeto: sendTo(
      ({ system }) => system.get(SYSTEM_ID.match),
      ({ context: { session } }) => ({
        type: 'match.veto.sessionProgress',
        steps: session?.steps ?? [],
        complete: session !== null && isSessionComplete(session),
      }),
    ),
    cancelMatchVeto: sendTo(({ system }) => system.get(SYSTEM_ID.match), {
      type: 'match.veto.sessionCancelled',
    }),
    applyMatchVeto: sendTo(
      ({ system }) => system.get(SYSTEM_ID.match),
      ({ event }) => {
        if (event.type === 'veto.set') {
          const { steps, boFormat, teamA, teamB } = event;
          return { type: 'match.veto.apply', steps, boFormat, teamA, teamB };
        }
        const { steps, boFormat, teamA, teamB } = (event as unknown as { output: ImportedVeto }).output;
        return { type: 'match.veto.apply', steps, boFormat, teamA, teamB, imported: true };
      },
    ),
    resetMatchVeto: sendTo(({ system }) => system.get(SYSTEM_ID.match), { type: 'match.veto.reset' }),
    showVetoPanel: sendTo(({ system }) => system.get(SYSTEM_ID.vetoPanel), { type: 'panel.show' }),
  },
}).createMachine({
  id: 'vetoSession',
  context: ({ input }) => ({ session: input.session, importing: null, lastImport: null }),
  type: 'parallel',
  states: {
    session: {
      initial: 'none',
      on: {
        'veto.start': {
          guard: 'isPlayablePool',
          target: '.active',
          actions: ['startMatchVeto', 'startRevealSession', 'startSession'],
        },
        'veto.set': {
          guard: 'followsRules',
          target: '.none',
          actions: ['endSession', 'replaceRevealedVeto', 'applyMatchVeto'],
        },
        // Through none, which moves on to active (and complete) when a session is put back.
        'veto.restore': { target: '.none', actions: 'restoreSession' },
        'veto.reset': {
          target: '.none',
          actions: ['endSession', 'replaceRevealedVeto', 'resetMatchVeto'],
        },
        'xstate.done.actor.matchImport': {
          guard: 'importShouldApply',
          target: '.none',
          actions: ['endSession', 'replaceRevealedVeto', 'applyMatchVeto'],
        },
      },
      states: {
        none: {
          description: 'No manual session: veto_status answers { active: false }',
          always: { guard: 'hasSession', target: 'active' },
        },
        active: {
          initial: 'inProgress',
          on: {
            'veto.undo': {
              guard: 'hasSteps',
              target: '.inProgress',
              actions: ['undoLastStep', 'syncMatchVeto', 'forgetRemovedReveals'],
            },
            'veto.cancel': {
              target: 'none',
              actions: ['endSession', 'cancelMatchVeto', 'cancelRevealSession'],
            },
          },
          states: {
            inProgress: {
              description: 'Waiting for the map of the next turn; the service adds the decider itself',
              always: { guard: 'isComplete', target: 'complete' },
              on: {
                'veto.select': { guard: 'isPlayableMap', actions: ['recordSelection', 'syncMatchVeto'] },
              },
            },
            complete: {
              description: 'Every step is played and the series maps are filled',
            },
          },
        },
      },
    },
    import: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'veto.import': { target: 'loading', actions: 'rememberImport' } },
        },
        loading: {
          description:
            'Reading the veto from the match room or match page (20 s at most); a second import is refused',
          invoke: {
            id: 'matchImport',
            src: 'matchImport',
            input: ({ context }) => context.importing as ImportRequest,
            onDone: [
              { guard: 'importShouldShow', target: 'idle', actions: ['recordImport', 'showVetoPanel'] },
              { target: 'idle', actions: 'recordImport' },
            ],
            onError: { target: 'idle', actions: 'recordImportFailure' },
          },
        },
      },
    },
  },
});

type MatchShown = Pick<MatchInput, 'teamA' | 'teamB' | 'maps' | 'veto'>;
const NO_MATCH: MatchShown = { teamA: null, teamB: null, maps: [], veto: null };

/** The match as it is now (before a veto this transition sends it); none when run without one. */
const matchOf = (system: { get(id: string): { getSnapshot(): { context: unknown } } | undefined }) =>
  (system.get(SYSTEM_ID.match)?.getSnapshot().context as MatchShown | undefined) ?? NO_MATCH;

/** The veto an event puts on the HUD: veto_set's steps, an import's as the match applies it, none for reset_veto. */
function newVetoOf(event: { type: string }, match: MatchShown): VetoStep[] | null {
  if (event.type === 'veto.set') return (event as Extract<VetoSessionEvent, { type: 'veto.set' }>).steps;
  if (event.type === 'xstate.done.actor.matchImport')
    return planImport(match, (event as unknown as { output: ImportedVeto }).output).steps;
  return null;
}

/** A thrown error as a plain code and message, so snapshots stay serialisable. */
function describeFailure(error: unknown): { code: string; message: string } {
  if (error && typeof error === 'object' && 'code' in error && 'message' in error) {
    return { code: String(error.code), message: String(error.message) };
  }
  return { code: 'upstream_error', message: error instanceof Error ? error.message : String(error) };
}

/** How an applied import reads in the undo history: "Import: NaVi vs FaZe (replaced 2 results)". */
export function importLabel(plan: ImportPlan): string {
  const lost = plan.lost.length;
  const replaced = lost === 0 ? '' : ` (replaced ${lost} result${lost === 1 ? '' : 's'})`;
  return `Import: ${plan.teamA.name} vs ${plan.teamB.name}${replaced}`;
}
