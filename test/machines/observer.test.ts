/**
 * The observer machine (machines/observer.machine.ts): a model-based walk of its modes and its link
 * to the game console with a fake console actor and a simulated clock, then the behaviour an
 * operator would notice (start from saved settings, the subscription gate, cuts only in auto).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  configureRefusal,
  FOLLOW_TIMEOUT_MS,
  NETCON_STABLE_MS,
  type NetconCommand,
  type NetconSocketEvent,
  type NetconSocketInput,
  netconBackoffDelay,
  type ObserverEvent,
  type ObserverInput,
  type ObserverSnapshot,
  observerMachine,
  observerStatusOf,
} from '../../machines/observer.machine.ts';
import { CINEMATIC_HOLD_MS, cameraTargetOf, type DirectorFrame } from '../../machines/observer-director.ts';
import { toDirectorFrame } from '../../src/observer/director-frame.ts';
import { BOTS_DUST2, type Frame, fixture } from '../helpers/gsi.ts';

const SAVED: ObserverInput = {
  settings: { enabled: false, mode: 'suggest', cinematicEnabled: false },
  netcon: { host: '127.0.0.1', port: 2121 },
};

// Real frames: the bots capture (Crusher watched first), and DERIVED from it Kyle's kill 3 s later,
// past the hold, so the director cuts to Kyle.
const quietRaw: Frame = await fixture(BOTS_DUST2);
const killRaw: Frame = structuredClone(quietRaw);
killRaw.allplayers['76561197960265729'].state.round_kills = 1;
killRaw.allplayers['2'].state.health = 0;
const hudSlot = (slot: number) => (slot >= 0 && slot <= 9 ? slot : null);
const QUIET: DirectorFrame = toDirectorFrame(quietRaw, { now: 0, hudSlot });
const KILL: DirectorFrame = toDirectorFrame(killRaw, { now: 3_000, hudSlot });
// DERIVED: the same frame with the game showing Kyle (his HUD slot 1): a camera that followed the cut.
const KYLE_SHOWN: DirectorFrame = { ...KILL, now: 3_050, observedSlot: 1 };
const CRUSHER = '76561197960265735';
const KYLE = '76561197960265729';

interface FakeSocket {
  input: NetconSocketInput;
  commands: NetconCommand[];
  stopped: boolean;
  report: (event: NetconSocketEvent) => void;
}

function createHarness(input: ObserverInput = SAVED) {
  const sockets: FakeSocket[] = [];
  const netconSocket = fromCallback<NetconCommand, NetconSocketInput>(({ input, sendBack, receive }) => {
    const socket: FakeSocket = { input, commands: [], stopped: false, report: (event) => sendBack(event) };
    sockets.push(socket);
    receive((command) => socket.commands.push(command));
    return () => {
      socket.stopped = true;
    };
  });
  const clock = new SimulatedClock();
  const actor = createActor(observerMachine.provide({ actors: { netconSocket } }), { clock, input });
  actor.start();
  const live = () => sockets.filter((socket) => !socket.stopped);
  return {
    actor,
    clock,
    sockets,
    live,
    socket(): FakeSocket {
      const open = live();
      expect(open).toHaveLength(1);
      return open[0] as FakeSocket;
    },
    status: () => observerStatusOf(actor.getSnapshot()),
  };
}
type Harness = ReturnType<typeof createHarness>;

let current: Harness | undefined;
afterEach(() => {
  current?.actor.stop();
  current = undefined;
});
function start(input: ObserverInput = SAVED): Harness {
  current = createHarness(input);
  return current;
}

// ---------------------------------------------------------------------------------------------
// Model-based walk

const AFTER_RETRY = 'xstate.after.retryDelay.observer.link.backoff';
const LINK_STABLE = 'xstate.after.linkStable.observer.link.session.connected';
const AFTER_FOLLOW = 'xstate.after.followTimeout.observer.camera.awaiting';
type ModelEvent =
  | ObserverEvent
  | { type: typeof AFTER_RETRY }
  | { type: typeof LINK_STABLE }
  | { type: typeof AFTER_FOLLOW };

const MODEL_EVENTS: ModelEvent[] = [
  { type: 'observer.configure', changes: { enabled: true, mode: 'auto' } },
  { type: 'observer.configure', changes: { enabled: true, mode: 'suggest' } },
  { type: 'observer.configure', changes: { enabled: false } },
  { type: 'observer.subscription', active: true },
  { type: 'observer.subscription', active: false },
  { type: 'observer.frame', dialect: 'cs2', frame: QUIET },
  { type: 'observer.frame', dialect: 'cs2', frame: KILL },
  { type: 'observer.link.connected' },
  { type: 'observer.link.closed', reason: 'refused', message: 'connect ECONNREFUSED 127.0.0.1:2121' },
  { type: AFTER_RETRY },
  { type: LINK_STABLE },
  { type: 'observer.frame', dialect: 'cs2', frame: KYLE_SHOWN },
  { type: AFTER_FOLLOW },
  { type: 'observer.testCut' },
  { type: 'observer.probeAgain' },
  { type: 'observer.pin', strategy: 'lock' },
];

const LOOP_EVENTS = new Set<string>([
  AFTER_FOLLOW,
  'observer.testCut',
  'observer.probeAgain',
  'observer.pin',
]);
const BACKOFF_EVENTS = new Set<string>([AFTER_RETRY, 'observer.link.closed']);
const touchedLoop = (snapshot: ObserverSnapshot) => {
  const { strategy } = snapshot.context;
  return (
    strategy.failed.length > 0 || strategy.pinned !== null || strategy.working !== null || strategy.exhausted
  );
};

function describeEvent(event: ModelEvent): string {
  switch (event.type) {
    case 'observer.configure':
      return event.changes.enabled === false ? 'disable' : `enable(${event.changes.mode})`;
    case 'observer.subscription':
      return `subscription ${event.active ? 'on' : 'off'}`;
    case 'observer.frame':
      return event.frame === QUIET
        ? 'frame(quiet)'
        : event.frame === KILL
          ? 'frame(kill)'
          : 'frame(Kyle shown)';
    case AFTER_FOLLOW:
      return 'no follow in time';
    case 'observer.testCut':
      return 'test cut';
    case 'observer.probeAgain':
      return 'probe again';
    case 'observer.pin':
      return `pin ${event.strategy}`;
    case 'observer.link.closed':
      return 'link closed';
    case 'observer.link.connected':
      return 'link up';
    case LINK_STABLE:
      return 'link lasts';
    default:
      return 'after retry';
  }
}

/** The parts of the context that tell states apart for a viewer (the director's memory does not). */
function keyOf(snapshot: ObserverSnapshot): string {
  const { context } = snapshot;
  return JSON.stringify({
    value: snapshot.value,
    settings: context.settings,
    subscription: context.subscriptionActive,
    suggestion: context.director.suggestion?.steamid ?? null,
    sent: context.sentSteamid,
    sentStrategy: context.sentStrategy,
    strategy: context.strategy,
    follow: context.follow,
    attempt: context.attempt,
    error: context.lastError?.reason ?? null,
  });
}

const model = new TestModel<ObserverSnapshot, ModelEvent, ObserverInput>(observerMachine as never, {
  input: SAVED,
  events: MODEL_EVENTS,
  // The simulated clock moves for the back-off and the link's 10 s too: those steps are taken only
  // where no cut waits for the frames, so the follow timer cannot fire unseen by the model.
  filterEvents: (snapshot, event) =>
    snapshot.can(event as ObserverEvent) &&
    !(event.type === LINK_STABLE && snapshot.matches({ camera: 'awaiting' })) &&
    !(event.type === AFTER_FOLLOW && snapshot.context.attempt > 0) &&
    // The loop and the back-off are walked apart (each fully), or the paths multiply past use.
    !(LOOP_EVENTS.has(event.type) && snapshot.context.attempt > 0) &&
    !(BACKOFF_EVENTS.has(event.type) && touchedLoop(snapshot)),
  serializeState: (snapshot, event, previous) => {
    const moved = event && previous && keyOf(previous) !== keyOf(snapshot);
    return `${keyOf(snapshot)}${moved ? ` via ${describeEvent(event as ModelEvent)} from ${JSON.stringify(previous.value)}` : ''}`;
  },
});

/** The mode a user should see, from the rules: off without the switch or the subscription. */
function expectedState(snapshot: ObserverSnapshot) {
  const { settings, subscriptionActive } = snapshot.context;
  if (!settings.enabled || !subscriptionActive) return 'disabled';
  return settings.mode;
}

describe('observerMachine, model-based', () => {
  const paths = model.getShortestPaths();

  it('reaches every mode and every link state (and auto never without a link)', () => {
    const reached = new Set(
      paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))),
    );
    const values = [...reached].map((value) => JSON.parse(value));
    expect(values).toContainEqual({ observer: 'disabled', link: 'off', camera: 'idle' });
    // Suggest and auto always have a link (so "connected" shows before going live): opening, open, or waiting.
    for (const mode of ['suggest', 'auto'])
      for (const link of ['backoff', { session: 'connecting' }, { session: 'connected' }])
        expect(
          values.some(
            (value) => value.observer === mode && JSON.stringify(value.link) === JSON.stringify(link),
          ),
        ).toBe(true);
    expect(values.filter((value) => value.observer !== 'disabled' && value.link === 'off')).toEqual([]);
    // Every step of the closed loop.
    for (const camera of ['awaiting', 'following', 'movedAway', 'exhausted'])
      expect(
        values.some((value) => value.camera === camera),
        camera,
      ).toBe(true);
    expect(paths.length).toBeGreaterThan(20);
  });

  for (const [index, path] of paths.entries()) {
    const name = path.steps
      .slice(1)
      .map(({ event }) => describeEvent(event))
      .join(' → ');
    it(`path ${index}: ${name || 'initial state'}`, async () => {
      let harness: Harness | undefined;
      await path.test({
        events: {
          'xstate.init': () => {
            harness = start();
          },
          ...Object.fromEntries(
            MODEL_EVENTS.map((modelEvent) => [
              modelEvent.type,
              ({ event }: { event: ModelEvent }) => {
                const h = harness as Harness;
                const before = h.actor.getSnapshot();
                if (event.type === AFTER_RETRY) {
                  const delay = netconBackoffDelay(before.context.attempt);
                  h.clock.increment(delay - 1);
                  expect(h.live()).toHaveLength(0);
                  h.clock.increment(1);
                } else if (event.type === AFTER_FOLLOW) {
                  h.clock.increment(FOLLOW_TIMEOUT_MS - 1);
                  expect(h.actor.getSnapshot().matches({ camera: 'awaiting' })).toBe(true);
                  h.clock.increment(1);
                } else if (event.type === LINK_STABLE) {
                  h.clock.increment(NETCON_STABLE_MS - 1);
                  expect(h.actor.getSnapshot().context.attempt).toBe(before.context.attempt);
                  h.clock.increment(1);
                } else if (
                  event.type === 'observer.link.connected' ||
                  event.type === 'observer.link.closed'
                ) {
                  h.socket().report(event);
                } else {
                  h.actor.send(event);
                }
              },
            ]),
          ),
        } as never,
        states: {
          '*': (expected) => {
            const h = harness as Harness;
            const actual = h.actor.getSnapshot();
            expect(actual.value).toEqual(expected.value);
            expect(keyOf(actual)).toEqual(keyOf(expected));
            const status = observerStatusOf(actual);
            expect(status.state).toBe(expectedState(expected));

            // The link runs whenever the observer does (suggest or auto); never while it is off.
            if (expected.matches({ link: 'session' })) {
              expect(h.socket().input).toEqual(expected.context.netcon);
            } else {
              expect(h.live()).toHaveLength(0);
            }
            if (status.state === 'disabled')
              expect(status.link).toMatchObject({ status: 'disconnected', reason: 'not_auto' });
            else expect(expected.matches({ link: 'off' })).toBe(false);
            if (h.sockets.length > 0)
              expect(h.sockets.every((socket) => socket.input.port === 2121)).toBe(true);

            if (expected.matches({ link: { session: 'connected' } })) {
              expect(status.link.status).toBe('connected');
              const cuts = h.socket().commands.filter((command) => command.type === 'netcon.cut');
              // In auto, the last cut is the director's target (unless no strategy is left to try).
              const target = cameraTargetOf(expected.context.director);
              if (
                status.state === 'auto' &&
                target &&
                !expected.context.strategy.exhausted &&
                cuts.length > 0
              )
                expect(cuts.at(-1)).toMatchObject({
                  type: 'netcon.cut',
                  steamid: target.steamid,
                  slot: target.slot,
                });
              // Every strategy sent is one the CS2 order has, or the pinned one.
              for (const cut of cuts) expect(['name', 'name_lock', 'lock']).toContain(cut.strategy);
            }
            // What the status says of the camera matches the loop's state.
            const camera = expected.value as { camera: string };
            if (camera.camera === 'following') expect(status.cameraFollows).toBe('following');
            if (camera.camera === 'movedAway') expect(status.cameraFollows).toBe('moved_away');
            if (camera.camera === 'awaiting') expect(status.cameraFollows).toBe('pending');
            expect(status.camera.exhausted).toBe(
              camera.camera === 'exhausted' || expected.context.strategy.exhausted,
            );
            if (status.camera.exhausted) expect(status.camera.text).toMatch(/did not follow any cut/);
            // A suggestion exists only while observing, and is a living player.
            const suggestion = status.suggestion;
            if (status.state === 'disabled') expect(suggestion).toBeNull();
            if (suggestion) expect([CRUSHER, KYLE]).toContain(suggestion.steamid);
          },
        },
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// What an operator notices

describe('observerMachine, behaviour', () => {
  it('starts from saved settings: enabled in auto, it waits for the subscription, then connects', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: true } });
    expect(h.status()).toMatchObject({ state: 'disabled', blockedBy: 'no_subscription' });
    expect(h.live()).toHaveLength(0);
    h.actor.send({ type: 'observer.subscription', active: true });
    expect(h.status().state).toBe('auto');
    expect(h.status().link.status).toBe('connecting');
    expect(h.socket().input).toEqual({ host: '127.0.0.1', port: 2121 });
  });

  it('refuses to enable without a subscription and says why', () => {
    const h = start();
    expect(configureRefusal(h.actor.getSnapshot().context, { enabled: true })).toBe('no_subscription');
    h.actor.send({ type: 'observer.configure', changes: { enabled: true, mode: 'auto' } });
    expect(h.status().settings.enabled).toBe(false);
    h.actor.send({ type: 'observer.subscription', active: true });
    expect(configureRefusal(h.actor.getSnapshot().context, { enabled: true })).toBeNull();
    h.actor.send({ type: 'observer.configure', changes: { enabled: true, mode: 'auto' } });
    expect(h.status().state).toBe('auto');
  });

  it('suggest mode suggests and keeps the last cuts; the link connects but nothing is sent', () => {
    const h = start();
    h.actor.send({ type: 'observer.subscription', active: true });
    h.actor.send({ type: 'observer.configure', changes: { enabled: true, mode: 'suggest' } });
    h.socket().report({ type: 'observer.link.connected' });
    expect(h.status().link.status).toBe('connected');
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
    const status = h.status();
    expect(status.suggestion).toMatchObject({
      steamid: KYLE,
      name: 'Kyle',
      reason: 'fresh_kill',
      since: 3_000,
    });
    expect(status.cuts.map((cut) => [cut.name, cut.reason, cut.sent])).toEqual([
      ['Crusher', 'alive', false],
      ['Kyle', 'fresh_kill', false],
    ]);
    expect(h.socket().commands).toEqual([]);
  });

  it('auto mode sends each cut once, resends the current one after a reconnect, and backs off 1, 2, 5, 10 s', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: false } });
    h.actor.send({ type: 'observer.subscription', active: true });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    h.socket().report({ type: 'observer.link.connected' });
    const crusher = { type: 'netcon.cut', steamid: CRUSHER, name: 'Crusher', slot: 0, strategy: 'name' };
    const kyle = { type: 'netcon.cut', steamid: KYLE, name: 'Kyle', slot: 1, strategy: 'name' };
    expect(h.socket().commands).toEqual([crusher]);
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
    expect(h.socket().commands).toEqual([crusher, kyle]);
    expect(h.status().cuts.map((cut) => cut.sent)).toEqual([true, true]);

    const waits: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      h.socket().report({ type: 'observer.link.closed', reason: 'refused', message: 'connect ECONNREFUSED' });
      expect(h.status().link).toMatchObject({ status: 'connecting', reason: 'refused' });
      let waited = 0;
      while (h.live().length === 0 && waited < 60_000) {
        h.clock.increment(100);
        waited += 100;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1_000, 2_000, 5_000, 10_000, 10_000]);
    h.socket().report({ type: 'observer.link.connected' });
    expect(h.socket().commands).toEqual([kyle]);
  });

  it('a link the console drops before it lasted 10 s is a failed try: the waits grow; one that lasted starts again from 1 s', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: false } });
    h.actor.send({ type: 'observer.subscription', active: true });
    const waitForTry = () => {
      let waited = 0;
      while (h.live().length === 0 && waited < 60_000) {
        h.clock.increment(100);
        waited += 100;
      }
      return waited;
    };
    // A console that accepts and closes at once, five times.
    const waits: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      h.socket().report({ type: 'observer.link.connected' });
      h.socket().report({
        type: 'observer.link.closed',
        reason: 'closed',
        message: 'the game closed the console',
      });
      waits.push(waitForTry());
    }
    expect(waits).toEqual([1_000, 2_000, 5_000, 10_000, 10_000]);

    // A link that stays up 10 s has lasted: when it drops, the next try is after 1 s again.
    h.socket().report({ type: 'observer.link.connected' });
    h.clock.increment(NETCON_STABLE_MS - 1);
    expect(h.actor.getSnapshot().context.attempt).toBe(4);
    h.clock.increment(1);
    expect(h.actor.getSnapshot().context.attempt).toBe(0);
    h.socket().report({
      type: 'observer.link.closed',
      reason: 'closed',
      message: 'the game closed the console',
    });
    expect(waitForTry()).toBe(1_000);
  });

  it('with the cinematic camera, a death of the watched player holds the camera before the next cut', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: true } });
    h.actor.send({ type: 'observer.subscription', active: true });
    h.socket().report({ type: 'observer.link.connected' });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
    // DERIVED: Kyle dies 100 ms after the cut to him.
    const deathRaw = structuredClone(killRaw);
    deathRaw.allplayers[KYLE].state.health = 0;
    const death = (now: number) => toDirectorFrame(deathRaw, { now, hudSlot });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: death(3_100) });
    const next = h.status().suggestion;
    expect(next?.steamid).not.toBe(KYLE);
    expect(h.status().holdingUntil).toBe(3_100 + CINEMATIC_HOLD_MS);
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: death(3_100 + CINEMATIC_HOLD_MS - 1) });
    expect(
      h.socket().commands.map((command) => (command.type === 'netcon.cut' ? command.steamid : null)),
    ).toEqual([CRUSHER, KYLE]);
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: death(3_100 + CINEMATIC_HOLD_MS) });
    expect(
      h.socket().commands.map((command) => (command.type === 'netcon.cut' ? command.steamid : null)),
    ).toEqual([CRUSHER, KYLE, next?.steamid]);
    expect(h.status().holdingUntil).toBeNull();
  });

  it('a new console address restarts the link there; leaving auto hands the camera back and keeps the link', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: false } });
    h.actor.send({ type: 'observer.subscription', active: true });
    h.actor.send({ type: 'observer.netcon.configure', host: '192.168.1.20', port: 2020 });
    expect(h.socket().input).toEqual({ host: '192.168.1.20', port: 2020 });
    expect(h.sockets).toHaveLength(2);
    h.socket().report({ type: 'observer.link.connected' });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
    h.actor.send({ type: 'observer.configure', changes: { mode: 'suggest' } });
    expect(h.socket().commands.map((command) => command.type)).toEqual(['netcon.cut', 'netcon.release']);
    expect(h.status().link).toMatchObject({ status: 'connected', reason: null });
    h.actor.send({ type: 'observer.subscription', active: false });
    expect(h.live()).toHaveLength(0);
    expect(h.status()).toMatchObject({ state: 'disabled', blockedBy: 'no_subscription', suggestion: null });
    expect(h.status().link).toMatchObject({ status: 'disconnected', reason: 'not_auto' });
  });
});

// ---------------------------------------------------------------------------------------------
// The closed loop: the frames say whether the camera followed (on the actor's simulated clock)

/** In auto, connected, the game showing Crusher; the director picks Kyle at 3 s (KILL). */
function autoOnKyle(): Harness {
  const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: false } });
  h.actor.send({ type: 'observer.subscription', active: true });
  h.socket().report({ type: 'observer.link.connected' });
  h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
  h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
  return h;
}
const cutsOf = (h: Harness) =>
  h
    .socket()
    .commands.flatMap((command) => (command.type === 'netcon.cut' ? [[command.name, command.strategy]] : []));
/** A frame of the game still showing Crusher, or showing Kyle, at `now`. */
const showing = (slot: number, now: number): DirectorFrame => ({ ...KILL, now, observedSlot: slot });

describe('observerMachine, the closed loop', () => {
  it('a cut the frames do not follow within 1.5 s is tried with the next strategy; the one that works is kept', () => {
    const h = autoOnKyle();
    expect(cutsOf(h)).toEqual([
      ['Crusher', 'name'],
      ['Kyle', 'name'],
    ]);
    expect(h.status().cameraFollows).toBe('pending');
    expect(h.status().camera.text).toBe(
      'Cut to Kyle by name (spec_player "name"): waiting for the game to show him.',
    );
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: showing(0, 3_500) });
    h.clock.increment(FOLLOW_TIMEOUT_MS - 1);
    expect(cutsOf(h)).toHaveLength(2);
    h.clock.increment(1);
    // Not followed: the same pick by the next strategy, at once.
    expect(cutsOf(h).at(-1)).toEqual(['Kyle', 'name_lock']);
    expect(
      h
        .status()
        .cuts.slice(-2)
        .map((cut) => [cut.name, cut.strategy, cut.outcome]),
    ).toEqual([
      ['Kyle', 'name', 'not_followed'],
      ['Kyle', 'name_lock', 'pending'],
    ]);
    // The game shows Kyle 400 ms (frame time) after the second cut went out (with the frame of 3.5 s).
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: showing(1, 3_900) });
    const status = h.status();
    expect(status.cameraFollows).toBe('following');
    expect(status.cuts.at(-1)).toMatchObject({
      strategy: 'name_lock',
      outcome: 'followed',
      followedAfterMs: 400,
    });
    expect(status.camera).toMatchObject({ strategy: 'name_lock', source: 'proven', exhausted: false });
    expect(status.camera.text).toMatch(/^The camera follows: Kyle shown 400 ms after the cut/);
    // Kept for the rest of the session: the next cut goes straight to it.
    h.actor.send({ type: 'observer.configure', changes: { mode: 'suggest' } });
    h.actor.send({ type: 'observer.configure', changes: { mode: 'auto' } });
    expect(cutsOf(h).at(-1)).toEqual(['Kyle', 'name_lock']);
  });

  it('when no strategy moves the camera, auto says so and stops sending after one try each; probe again starts over', () => {
    const h = autoOnKyle();
    for (let i = 0; i < 5; i += 1) h.clock.increment(FOLLOW_TIMEOUT_MS);
    expect(cutsOf(h)).toEqual([
      ['Crusher', 'name'],
      ['Kyle', 'name'],
      ['Kyle', 'name_lock'],
      ['Kyle', 'lock'],
    ]);
    const status = h.status();
    expect(status.state).toBe('auto');
    expect(status.camera.exhausted).toBe(true);
    expect(status.cameraFollows).toBe('ignored');
    expect(status.camera.text).toMatch(/^The game did not follow any cut .*auto only suggests now/);
    // More frames, a new pick: nothing more goes to the game, the suggestion still moves.
    const deathRaw = structuredClone(killRaw);
    deathRaw.allplayers[KYLE].state.health = 0;
    h.actor.send({
      type: 'observer.frame',
      dialect: 'cs2',
      frame: toDirectorFrame(deathRaw, { now: 9_000, hudSlot }),
    });
    expect(h.status().suggestion?.steamid).not.toBe(KYLE);
    expect(cutsOf(h)).toHaveLength(4);
    h.actor.send({ type: 'observer.probeAgain' });
    expect(cutsOf(h)).toHaveLength(5);
    expect(cutsOf(h).at(-1)?.[1]).toBe('name');
    expect(h.status().camera).toMatchObject({ exhausted: false, source: 'probing', strategy: 'name' });
  });

  it('a pinned strategy is the only one used, followed or not', () => {
    const h = autoOnKyle();
    h.actor.send({ type: 'observer.pin', strategy: 'lock' });
    expect(cutsOf(h).at(-1)).toEqual(['Kyle', 'lock']);
    h.clock.increment(FOLLOW_TIMEOUT_MS * 3);
    expect(cutsOf(h).at(-1)).toEqual(['Kyle', 'lock']);
    expect(h.status().camera).toMatchObject({ strategy: 'lock', source: 'pinned', exhausted: false });
    expect(h.status().cuts.at(-1)).toMatchObject({ strategy: 'lock', outcome: 'not_followed' });
  });

  it('entering auto sends the suggestion of the latest frame, once (issue 32: a stale target, then a second cut 27 ms later)', () => {
    const h = start();
    h.actor.send({ type: 'observer.subscription', active: true });
    h.actor.send({ type: 'observer.configure', changes: { enabled: true, mode: 'suggest' } });
    h.socket().report({ type: 'observer.link.connected' });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
    expect(h.socket().commands).toEqual([]);
    h.actor.send({ type: 'observer.configure', changes: { mode: 'auto' } });
    expect(cutsOf(h)).toEqual([['Kyle', 'name']]);
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: { ...KILL, now: 3_027 } });
    expect(cutsOf(h)).toEqual([['Kyle', 'name']]);
  });

  it('says the camera moved when the frames show someone else after it followed (issue 32: it kept saying "follows")', () => {
    const h = autoOnKyle();
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: showing(1, 3_200) });
    expect(h.status().cameraFollows).toBe('following');
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: showing(0, 3_700) });
    expect(h.status().cameraFollows).toBe('moved_away');
    expect(h.status().camera.text).toBe(
      'The camera left Kyle for Crusher while he was alive: the game or the person at the observer PC moved it.',
    );
  });

  it('a test cut in suggest mode sends the current suggestion and judges it like any cut', () => {
    const h = start();
    h.actor.send({ type: 'observer.subscription', active: true });
    h.actor.send({ type: 'observer.configure', changes: { enabled: true, mode: 'suggest' } });
    h.actor.send({ type: 'observer.testCut' });
    expect(h.sockets[0]?.commands).toEqual([]); // not connected: nothing
    h.socket().report({ type: 'observer.link.connected' });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
    h.actor.send({ type: 'observer.testCut' });
    expect(cutsOf(h)).toEqual([['Kyle', 'name']]);
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: showing(1, 3_100) });
    expect(h.status().cuts.at(-1)).toMatchObject({ name: 'Kyle', outcome: 'followed', followedAfterMs: 100 });
  });

  it('a player the name cannot reach safely is cut to by his account; a death before the frames tell blames no strategy', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: false } });
    h.actor.send({ type: 'observer.subscription', active: true });
    h.socket().report({ type: 'observer.link.connected' });
    const hostile = structuredClone(killRaw);
    hostile.allplayers[KYLE].name = 'x"; quit; echo "';
    h.actor.send({
      type: 'observer.frame',
      dialect: 'cs2',
      frame: toDirectorFrame(quietRaw, { now: 0, hudSlot }),
    });
    h.actor.send({
      type: 'observer.frame',
      dialect: 'cs2',
      frame: toDirectorFrame(hostile, { now: 3_000, hudSlot }),
    });
    expect(cutsOf(h).at(-1)).toEqual(['x"; quit; echo "', 'lock']);
    // He dies before the wait ends: the outcome is unknown, the probe goes on where it was.
    const dead = structuredClone(hostile);
    dead.allplayers[KYLE].state.health = 0;
    h.actor.send({
      type: 'observer.frame',
      dialect: 'cs2',
      frame: toDirectorFrame(dead, { now: 3_100, hudSlot }),
    });
    h.clock.increment(FOLLOW_TIMEOUT_MS);
    expect(h.status().cuts.find((cut) => cut.steamid === KYLE)).toMatchObject({ outcome: 'target_died' });
    expect(h.actor.getSnapshot().context.strategy.failed).not.toContain('lock');
  });
});
