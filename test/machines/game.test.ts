/**
 * The game machine (machines/game.machine.ts): a model-based walk of receiving and stale, held
 * frames, the stats pick and the half-time swap, each path played on the whole actor system (the
 * supervisor, a simulated clock) and checked where a user would see it: the host's "receiving" and
 * roster, the match's sides and score; then the rules on their own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from 'xstate';
import { createActor, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { GameEvent, GameFacts, GameSnapshot } from '../../machines/game.machine.ts';
import { GAME_DEFAULTS, gameMachine, RECEIVING_TIMEOUT_MS } from '../../machines/game.machine.ts';
import type { FrameMapFacts } from '../../machines/game-rules.ts';
import { recordScore, settleSides, sideByNames } from '../../machines/game-rules.ts';
import type { SeriesMap } from '../../machines/match.machine.ts';
import { MATCH_DEFAULTS } from '../../machines/match.machine.ts';
import type { HudInput } from '../../machines/supervisor.machine.ts';
import { supervisorMachine } from '../../machines/supervisor.machine.ts';
import { SYSTEM_ID } from '../../machines/system-ids.ts';
import { toDirectorFrame } from '../../src/observer/director-frame.ts';
import { hudInputFrom } from '../../src/persistence/saved-input.ts';
import { BOTS_DUST2, fixture } from '../helpers/gsi.ts';
import { describeEvent, machineModel, pathName, reachedValues, valueKey, walk } from '../helpers/model.ts';

const TIMER = 'xstate.after.receivingTimeout.game.receiving';
const TEAM_A = 'Vitality';
const TEAM_B = 'FaZe';
const director = toDirectorFrame(await fixture(BOTS_DUST2), { now: 0, hudSlot: (slot) => slot });
const ROSTER = [
  { slot: 1, name: 'apEX' },
  { slot: 6, name: 'karrigan' },
];

/** A spectator's frame of Dust II after `round` rounds, team names that match neither team. */
function facts(round: number, ctScore: number, tScore: number, dialect: 'cs2' | 'csgo' = 'cs2'): GameFacts {
  const map: FrameMapFacts = {
    name: 'de_dust2',
    phase: 'live',
    round,
    ctScore,
    tScore,
    ctName: null,
    tName: null,
  };
  return {
    spectator: true,
    dialect,
    roster: ROSTER,
    map,
    roundPhase: round === 12 ? 'freezetime' : 'live',
    figures: null,
    director,
  };
}

type ModelEvent = GameEvent | { type: typeof TIMER };
const FIRST_HALF: GameEvent = { type: 'game.frame', facts: facts(11, 6, 5), lasting: true };
const SECOND_HALF: GameEvent = { type: 'game.frame', facts: facts(12, 5, 7, 'csgo'), lasting: true };
const HELD: GameEvent = { type: 'game.frame', facts: facts(12, 5, 7), lasting: false };
const PLAYER_VIEW: GameEvent = {
  type: 'game.frame',
  facts: { ...facts(11, 6, 5), spectator: false, roster: [] },
  lasting: true,
};
const EVENTS: ModelEvent[] = [
  FIRST_HALF,
  SECOND_HALF,
  HELD,
  PLAYER_VIEW,
  { type: 'game.storage.restored' },
  { type: 'game.stats.pick', slot: 3 },
  { type: 'game.stats.pick', slot: null },
  { type: TIMER },
];

const describeModelEvent = (event: ModelEvent) => {
  if (event === FIRST_HALF) return 'frame(round 11)';
  if (event === SECOND_HALF) return 'frame(round 12, csgo)';
  if (event === HELD) return 'frame(round 12, storage failing)';
  if (event === PLAYER_VIEW) return "frame(a player's view)";
  if (event.type === TIMER) return `${RECEIVING_TIMEOUT_MS / 1000} s without a frame`;
  return describeEvent(event as never);
};

/** The whole system as the service starts it, with a series of Dust II between team A and team B. */
function hudInput(): HudInput {
  const input = hudInputFrom(
    null,
    { enabled: false, url: 'ws://127.0.0.1:4455', password: '' },
    { mainWindowOpen: true, signedIn: true, subscriptionActive: false, gameReceiving: false },
    0,
    null,
  );
  return {
    ...input,
    match: {
      ...MATCH_DEFAULTS,
      teamA: { name: TEAM_A },
      teamB: { name: TEAM_B },
      maps: [{ map: 'de_dust2', pickedBy: 'A', scoreA: 0, scoreB: 0, finished: false, winner: null }],
    },
  };
}

const systems: Array<Actor<typeof supervisorMachine>> = [];
afterEach(() => {
  for (const system of systems.splice(0)) system.stop();
});

function startSystem() {
  const clock = new SimulatedClock();
  const root = createActor(supervisorMachine, { input: hudInput(), clock });
  systems.push(root);
  root.start();
  const get = (id: string) => root.system.get(id) as NonNullable<ReturnType<typeof root.system.get>>;
  return {
    clock,
    game: () => get(SYSTEM_ID.game),
    host: () => get(SYSTEM_ID.host).getSnapshot().context,
    match: () => get(SYSTEM_ID.match).getSnapshot().context,
  };
}
type System = ReturnType<typeof startSystem>;

/**
 * What a user sees, from the spec of game data written without the machine's helpers: team A starts
 * on CT; a frame of round 12 applied after one of round 11 is the half-time swap; the score on the
 * series map is team A's side's; a frame held while storage fails applies when it works again.
 */
class Oracle {
  teamASide: 'CT' | 'T' = 'CT';
  lastRound: number | null = null;
  score: { scoreA: number; scoreB: number } | null = null;
  roster: typeof ROSTER | [] = [];
  held: GameFacts | null = null;

  apply(frame: GameFacts): void {
    if (this.lastRound === 11 && frame.map?.round === 12)
      this.teamASide = this.teamASide === 'CT' ? 'T' : 'CT';
    this.lastRound = frame.map?.round ?? this.lastRound;
    const { ctScore, tScore } = frame.map as FrameMapFacts;
    this.score =
      this.teamASide === 'CT' ? { scoreA: ctScore, scoreB: tScore } : { scoreA: tScore, scoreB: ctScore };
    this.roster = frame.roster;
    this.held = null;
  }

  take(event: ModelEvent): void {
    if (event.type === 'game.storage.restored' && this.held) this.apply(this.held);
    if (event.type !== 'game.frame' || !event.facts.spectator) return;
    if (event.lasting) this.apply(event.facts);
    else this.held = event.facts;
  }
}

it('createTestModel refuses the machine (receiving has an `after`), hence machineModel', () => {
  expect(() => createTestModel(gameMachine)).toThrow(/After events on test machines are not supported/);
});

describe('gameMachine, model-based on the whole actor system', () => {
  const model = machineModel(gameMachine, { input: GAME_DEFAULTS, events: EVENTS as never });
  const paths = model.getShortestPaths();

  it('walks every state', () => {
    expect([...reachedValues(paths)].sort()).toEqual(
      [valueKey('waiting'), valueKey('receiving'), valueKey('stale')].sort(),
    );
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeModelEvent as never)}`, async () => {
      let system: System | undefined;
      let oracle = new Oracle();
      const running = () => system as System;
      await walk<GameSnapshot, ModelEvent>(path as never, {
        start: () => {
          system = startSystem();
          oracle = new Oracle();
        },
        send: (event) => {
          const { clock, game } = running();
          if (event.type === TIMER) {
            // "Receiving" ends exactly the timeout after the last frame, not a millisecond earlier.
            clock.increment(RECEIVING_TIMEOUT_MS - 1);
            expect(running().host().gameReceiving).toBe(true);
            clock.increment(1);
          } else {
            game().send(event);
            oracle.take(event);
          }
        },
        check: (expected) => {
          const actual = running().game().getSnapshot() as GameSnapshot;
          expect(actual.value).toEqual(expected.value);
          expect(actual.context.statsPick).toBe(expected.context.statsPick);
          expect(actual.context.dialect).toBe(expected.context.dialect);
          expect(actual.context.held).toEqual(oracle.held);
          const host = running().host();
          expect(host.gameReceiving).toBe(expected.matches('receiving'));
          expect(host.roster).toEqual(oracle.roster);
          const match = running().match();
          expect(match.teamASide).toBe(oracle.teamASide);
          const [dust2] = match.maps;
          expect(dust2 && { scoreA: dust2.scoreA, scoreB: dust2.scoreB }).toEqual(
            oracle.score ?? { scoreA: 0, scoreB: 0 },
          );
          // The report the status shows: the series map in play once a frame applied.
          expect(actual.context.report.held).toBe(oracle.held !== null && actual.context.report.held);
          if (oracle.score && !actual.context.report.held) expect(actual.context.report.seriesMap).toBe(1);
        },
      });
    });
  }
});

describe('the game actor and the observer', () => {
  it('each frame reaches the observer with the dialect of the game that sent it', () => {
    const { game } = startSystem();
    game().send(SECOND_HALF);
    const observer = systems[0]?.system.get(SYSTEM_ID.observer);
    expect(observer?.getSnapshot().context.dialect).toBe('csgo');
    game().send(FIRST_HALF);
    expect(observer?.getSnapshot().context.dialect).toBe('cs2');
  });

  it('an unchanged frame sends nothing lasting: the host and the match keep the same snapshots', () => {
    const system = startSystem();
    system.game().send(FIRST_HALF);
    const host = systems[0]?.system.get(SYSTEM_ID.host)?.getSnapshot();
    const match = systems[0]?.system.get(SYSTEM_ID.match)?.getSnapshot();
    system.game().send({ type: 'game.frame', facts: facts(11, 6, 5), lasting: true });
    expect(systems[0]?.system.get(SYSTEM_ID.host)?.getSnapshot()).toBe(host);
    expect(systems[0]?.system.get(SYSTEM_ID.match)?.getSnapshot()).toBe(match);
  });
});

describe('the game rules', () => {
  const map = (round: number, phase = 'live'): FrameMapFacts => ({
    name: 'de_dust2',
    phase,
    round,
    ctScore: 7,
    tScore: 5,
    ctName: null,
    tName: null,
  });
  const match = { teamA: { name: TEAM_A }, teamB: { name: TEAM_B }, teamASide: 'CT' as const };

  it('the team names decide the side when they name team A or team B', () => {
    expect(sideByNames(match, TEAM_B, TEAM_A)).toBe('T');
    expect(settleSides(match, { ...map(3), ctName: TEAM_B, tName: TEAM_A }, 'live', null).event).toEqual({
      type: 'match.sides.set',
      teamASide: 'T',
    });
  });

  it('half time swaps when the next round starts, not at the end of the last one', () => {
    const at11 = { map: 'de_dust2', round: 11 };
    expect(settleSides(match, map(12), 'over', at11).event).toBeNull();
    expect(settleSides(match, map(12), 'freezetime', at11)).toMatchObject({
      event: { type: 'match.sides.swap' },
      teamASide: 'T',
      sidesAt: { map: 'de_dust2', round: 12 },
    });
    // Another map is nothing to swap from.
    expect(settleSides(match, map(12), 'freezetime', { map: 'de_nuke', round: 11 }).event).toBeNull();
  });

  it('a draw at game over is not finished; a finished map keeps its score', () => {
    const maps: SeriesMap[] = [
      { map: 'de_dust2', pickedBy: 'A', scoreA: 0, scoreB: 0, finished: false, winner: null },
    ];
    expect(recordScore({ maps }, 'CT', { ...map(24, 'gameover'), ctScore: 12, tScore: 12 })).toMatchObject({
      result: null,
      notes: [expect.stringContaining('a draw is not recorded as finished')],
    });
    expect(recordScore({ maps }, 'T', map(12))).toEqual({
      result: { index: 0, scoreA: 5, scoreB: 7 },
      seriesMap: 1,
      notes: [],
    });
    const finished: SeriesMap[] = [{ ...(maps[0] as SeriesMap), scoreA: 13, scoreB: 5, finished: true }];
    expect(recordScore({ maps: finished }, 'CT', map(12)).notes).toEqual([
      expect.stringContaining('is finished: the live score is not recorded'),
    ]);
  });
});
