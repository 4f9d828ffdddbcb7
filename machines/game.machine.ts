import { assign, enqueueActions, type SnapshotFrom, setup } from 'xstate';
import type { FrameMapFacts, GameDialect, ScoreDecision, SidesAt } from './game-rules.ts';
import { recordScore, settleSides } from './game-rules.ts';
import type { HostEvent, MapFigures, RosterEntry } from './host.machine.ts';
import { sameRoster } from './host.machine.ts';
import type { MatchEvent, MatchInput } from './match.machine.ts';
import type { DirectorFrame, ObserverEvent } from './observer.machine.ts';
import { SYSTEM_ID } from './system-ids.ts';

export type { FrameMapFacts, GameDialect } from './game-rules.ts';

/** "Receiving" ends this long after the last good frame: the cfg's heartbeat (2 s) twice, and a second. */
export const RECEIVING_TIMEOUT_MS = 5_000;

/**
 * What one accepted frame tells the game actor, read off it by src/game (the adapter): nothing of the
 * live view (round clock, positions, bomb), which goes to the pages from there at the frames' rate.
 */
export interface GameFacts {
  /** The frame comes from a spectator or GOTV (it carries allplayers): a player's own view does not. */
  spectator: boolean;
  dialect: GameDialect;
  /** The ten on the playing sides by HUD slot, in roster order. */
  roster: RosterEntry[];
  map: FrameMapFacts | null;
  /** `round.phase` (freezetime, live, over), null without the round section. */
  roundPhase: string | null;
  /** ADR's rounds that are over (src/game/adr.ts): a new object only when a round closed. */
  figures: MapFigures | null;
  /** The frame as the observer's director reads it. */
  director: DirectorFrame;
}

/** What the last frame's lasting part came to, for the game status the pages show. */
export interface GameReport {
  /** The series map in play (1-based), null when none. */
  seriesMap: number | null;
  /** Why a score was not recorded (a draw, a map not in the series …). */
  notes: string[];
  /** Storage is failing: the roster, the sides, the map score and ADR's rounds are held, not applied. */
  held: boolean;
}

/** The game actor starts knowing only whether frames were arriving (a restart of the actors). */
export interface GameInput {
  receiving: boolean;
}

export const GAME_DEFAULTS: GameInput = { receiving: false };

export type GameEvent =
  /** `lasting`: storage works, so what lasts may change (else it is held until it does). */
  | { type: 'game.frame'; facts: GameFacts; lasting: boolean }
  /** The disk takes writes again: the held frame's lasting part applies now. */
  | { type: 'game.storage.restored' }
  /** The operator's player for the stats panel; null follows the observed player. */
  | { type: 'game.stats.pick'; slot: number | null };

export interface GameContext {
  receivingAtStart: boolean;
  dialect: GameDialect;
  sidesAt: SidesAt;
  statsPick: number | null;
  /** The last frame's facts while storage fails. */
  held: GameFacts | null;
  /** The roster last told to the host: only a new one is sent, never one per frame. */
  reportedRoster: RosterEntry[] | null;
  /** ADR's figures last told to the host (undefined: none yet). */
  reportedFigures: MapFigures | null | undefined;
  report: GameReport;
}

const NO_REPORT: GameReport = { seriesMap: null, notes: [], held: false };

/** A frame's lasting part applies when it comes from a spectator and storage works. */
const LASTING = {
  type: 'applyLasting',
  params: ({ event }: { event: GameEvent }) => ({
    facts: event.type === 'game.frame' && event.lasting && event.facts.spectator ? event.facts : null,
  }),
} as const;

/**
 * The live game's rules: whether frames arrive (receiving until RECEIVING_TIMEOUT_MS without one),
 * the game's dialect, the roster and ADR's figures it reports to the host, the sides of team A and
 * team B (by the team names, else swapped at each half) and the map's score and result on the
 * match, the director's frames to the observer, and the operator's stats pick. It reaches the
 * others by systemId; what it decides that lasts is theirs to keep and save.
 */
export const gameMachine = setup({
  types: {} as { context: GameContext; input: GameInput; events: GameEvent },
  delays: { receivingTimeout: RECEIVING_TIMEOUT_MS },
  guards: {
    wasReceiving: ({ context }) => context.receivingAtStart,
    hasHeld: ({ context }) => context.held !== null,
    isOtherPick: ({ context, event }) => event.type === 'game.stats.pick' && event.slot !== context.statsPick,
  },
  actions: {
    markReceiving: enqueueActions(({ enqueue, system }) => {
      const host = system.get(SYSTEM_ID.host);
      const receiving: HostEvent = { type: 'host.gameReceiving', receiving: true };
      if (host) enqueue.sendTo(host, receiving);
    }),
    markStopped: enqueueActions(({ enqueue, system }) => {
      const host = system.get(SYSTEM_ID.host);
      const stopped: HostEvent = { type: 'host.gameReceiving', receiving: false };
      if (host) enqueue.sendTo(host, stopped);
    }),
    takeFrame: enqueueActions(({ context, event, enqueue, system }) => {
      if (event.type !== 'game.frame') return;
      const { facts } = event;
      if (facts.dialect !== context.dialect) enqueue.assign({ dialect: facts.dialect });
      // The director scores every frame (the observer ignores it while it is off); a cut it makes
      // goes to the game from the observer's own console actor, with the dialect of this frame.
      const observer = system.get(SYSTEM_ID.observer);
      const frame: ObserverEvent = { type: 'observer.frame', frame: facts.director, dialect: facts.dialect };
      if (observer) enqueue.sendTo(observer, frame);
      // While storage fails, what lasts is held, not applied then rolled back by the failed write.
      if (facts.spectator && !event.lasting) {
        enqueue.assign({ held: facts, report: { ...context.report, held: true } });
      }
    }),
    // What a frame changes that lasts goes to the actors that keep it (and save it).
    applyLasting: enqueueActions(({ context, enqueue, system }, params: { facts: GameFacts | null }) => {
      if (!params.facts) return;
      const host = system.get(SYSTEM_ID.host);
      const match = system.get(SYSTEM_ID.match);
      const plan = lastingPlan(context, params.facts, match?.getSnapshot().context as MatchInput | undefined);
      if (host) for (const event of plan.toHost) enqueue.sendTo(host, event);
      if (match) for (const event of plan.toMatch) enqueue.sendTo(match, event);
      enqueue.assign(plan.changes);
    }),
    storePick: assign({
      statsPick: ({ context, event }) => (event.type === 'game.stats.pick' ? event.slot : context.statsPick),
    }),
  },
}).createMachine({
  id: 'game',
  description: 'The live game from its frames: whether they arrive, and the rules of what lasts',
  context: ({ input }) => ({
    receivingAtStart: input.receiving,
    dialect: 'cs2',
    sidesAt: null,
    statsPick: null,
    held: null,
    reportedRoster: null,
    reportedFigures: undefined,
    report: NO_REPORT,
  }),
  initial: 'starting',
  on: {
    'game.stats.pick': { guard: 'isOtherPick', actions: 'storePick' },
    'game.storage.restored': {
      guard: 'hasHeld',
      actions: { type: 'applyLasting', params: ({ context }) => ({ facts: context.held }) },
    },
  },
  states: {
    starting: {
      description: 'Frames were arriving before the actors restarted (a rollback): they still count',
      always: [{ guard: 'wasReceiving', target: 'receiving' }, { target: 'waiting' }],
    },
    waiting: {
      description: 'Nothing received from the game since the service started',
      on: { 'game.frame': { target: 'receiving', actions: ['markReceiving', 'takeFrame', LASTING] } },
    },
    receiving: {
      description: 'Frames arrive: each one pushes the end of "receiving" back by the timeout',
      after: { receivingTimeout: 'stale' },
      on: { 'game.frame': { target: 'receiving', reenter: true, actions: ['takeFrame', LASTING] } },
    },
    stale: {
      description: 'No frame for the timeout: is the game running and spectating?',
      entry: 'markStopped',
      on: { 'game.frame': { target: 'receiving', actions: ['markReceiving', 'takeFrame', LASTING] } },
    },
  },
});

/** What a frame's lasting part sends and keeps: the events for the host and the match, the context's changes. */
export interface LastingPlan {
  toHost: HostEvent[];
  toMatch: MatchEvent[];
  changes: Partial<GameContext>;
}

/**
 * What a frame changes that lasts: the roster and ADR's figures to the host, the sides and the map's
 * score to the match (`match`: its context, undefined without a match actor). Each is sent only when
 * it is new, so an unchanged frame makes no revision and no write.
 */
export function lastingPlan(
  context: GameContext,
  facts: GameFacts,
  match: MatchInput | undefined,
): LastingPlan {
  const plan: LastingPlan = { toHost: [], toMatch: [], changes: { held: null } };
  if (context.reportedRoster === null || !sameRoster(context.reportedRoster, facts.roster)) {
    plan.toHost.push({ type: 'host.roster', roster: facts.roster });
    plan.changes.reportedRoster = facts.roster;
  }
  if (facts.figures !== context.reportedFigures) {
    plan.toHost.push({ type: 'host.mapFigures', figures: facts.figures });
    plan.changes.reportedFigures = facts.figures;
  }
  let score: ScoreDecision = { result: null, seriesMap: null, notes: [] };
  if (facts.map && match) {
    const sides = settleSides(match, facts.map, facts.roundPhase, context.sidesAt);
    if (sides.event) plan.toMatch.push(sides.event);
    if (sides.sidesAt !== context.sidesAt) plan.changes.sidesAt = sides.sidesAt;
    // The score by the sides as this frame leaves them (the swap above reaches the match after this).
    score = recordScore(match, sides.teamASide, facts.map);
    if (score.result) plan.toMatch.push({ type: 'match.mapResult.set', ...score.result });
  }
  const report = context.report;
  if (
    report.held ||
    report.seriesMap !== score.seriesMap ||
    report.notes.length !== score.notes.length ||
    report.notes.some((note, i) => note !== score.notes[i])
  ) {
    plan.changes.report = { seriesMap: score.seriesMap, notes: score.notes, held: false };
  }
  return plan;
}

export type GameSnapshot = SnapshotFrom<typeof gameMachine>;
