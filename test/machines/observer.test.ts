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
type ModelEvent = ObserverEvent | { type: typeof AFTER_RETRY } | { type: typeof LINK_STABLE };

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
];

function describeEvent(event: ModelEvent): string {
  switch (event.type) {
    case 'observer.configure':
      return event.changes.enabled === false ? 'disable' : `enable(${event.changes.mode})`;
    case 'observer.subscription':
      return `subscription ${event.active ? 'on' : 'off'}`;
    case 'observer.frame':
      return event.frame === QUIET ? 'frame(quiet)' : 'frame(kill)';
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
    attempt: context.attempt,
    error: context.lastError?.reason ?? null,
  });
}

const model = new TestModel<ObserverSnapshot, ModelEvent, ObserverInput>(observerMachine as never, {
  input: SAVED,
  events: MODEL_EVENTS,
  filterEvents: (snapshot, event) => snapshot.can(event as ObserverEvent),
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
    for (const mode of ['disabled', 'suggest']) {
      expect(reached).toContain(JSON.stringify({ observer: mode, link: 'off' }));
    }
    // Auto always has a link: opening, open, or waiting to try again.
    for (const link of ['backoff', { session: 'connecting' }, { session: 'connected' }]) {
      expect(reached).toContain(JSON.stringify({ observer: 'auto', link }));
    }
    expect(reached).not.toContain(JSON.stringify({ observer: 'auto', link: 'off' }));
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

            // The link runs exactly in auto mode; the game is never touched otherwise.
            const auto = status.state === 'auto';
            if (expected.matches({ link: 'session' })) {
              expect(h.socket().input).toEqual(expected.context.netcon);
            } else {
              expect(h.live()).toHaveLength(0);
            }
            if (!auto) expect(status.link).toMatchObject({ status: 'disconnected', reason: 'not_auto' });
            if (h.sockets.length > 0)
              expect(h.sockets.every((socket) => socket.input.port === 2121)).toBe(true);

            // Connected in auto: the game shows the director's camera target, told exactly once per change.
            if (expected.matches({ link: { session: 'connected' } })) {
              expect(status.link.status).toBe('connected');
              const target = cameraTargetOf(expected.context.director);
              const commands = h.socket().commands;
              if (target)
                expect(commands.at(-1)).toEqual({
                  type: 'netcon.cut',
                  steamid: target.steamid,
                  slot: target.slot,
                  dialect: 'cs2',
                });
              const steamids = commands.map((command) => command.steamid);
              expect(steamids.every((steamid, i) => i === 0 || steamid !== steamids[i - 1])).toBe(true);
            }
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

  it('suggest mode suggests and keeps the last cuts, but never opens the console', () => {
    const h = start();
    h.actor.send({ type: 'observer.subscription', active: true });
    h.actor.send({ type: 'observer.configure', changes: { enabled: true, mode: 'suggest' } });
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
    expect(h.sockets).toHaveLength(0);
  });

  it('auto mode sends each cut once, resends the current one after a reconnect, and backs off 1, 2, 5, 10 s', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: false } });
    h.actor.send({ type: 'observer.subscription', active: true });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    h.socket().report({ type: 'observer.link.connected' });
    expect(h.socket().commands).toEqual([{ type: 'netcon.cut', steamid: CRUSHER, slot: 0, dialect: 'cs2' }]);
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
    expect(h.socket().commands).toEqual([
      { type: 'netcon.cut', steamid: CRUSHER, slot: 0, dialect: 'cs2' },
      { type: 'netcon.cut', steamid: KYLE, slot: 1, dialect: 'cs2' },
    ]);
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
    expect(h.socket().commands).toEqual([{ type: 'netcon.cut', steamid: KYLE, slot: 1, dialect: 'cs2' }]);
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
    expect(h.socket().commands.map((command) => command.steamid)).toEqual([CRUSHER, KYLE]);
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: death(3_100 + CINEMATIC_HOLD_MS) });
    expect(h.socket().commands.map((command) => command.steamid)).toEqual([CRUSHER, KYLE, next?.steamid]);
    expect(h.status().holdingUntil).toBeNull();
  });

  it('tells whether the game camera followed the cut', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: false } });
    h.actor.send({ type: 'observer.subscription', active: true });
    h.socket().report({ type: 'observer.link.connected' });
    expect(h.status().cameraFollows).toBeNull();
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: QUIET });
    // The game already shows Crusher (the spectated player of the capture).
    expect(h.status().cameraFollows).toBe('pending');
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: { ...QUIET, now: 50 } });
    expect(h.status().cameraFollows).toBe('following');
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: KILL });
    expect(h.status()).toMatchObject({ cameraFollows: 'pending', suggestion: { steamid: KYLE } });
    // DERIVED: frames that still show Crusher 1.5 s after the cut to Kyle: the game ignored it.
    h.actor.send({
      type: 'observer.frame',
      dialect: 'cs2',
      frame: { ...KILL, now: 3_000 + FOLLOW_TIMEOUT_MS - 1 },
    });
    expect(h.status().cameraFollows).toBe('pending');
    h.actor.send({
      type: 'observer.frame',
      dialect: 'cs2',
      frame: { ...KILL, now: 3_000 + FOLLOW_TIMEOUT_MS },
    });
    expect(h.status().cameraFollows).toBe('ignored');
    // Frames that show Kyle: followed after all.
    h.actor.send({ type: 'observer.frame', dialect: 'cs2', frame: { ...KILL, now: 5_000, observedSlot: 1 } });
    expect(h.status().cameraFollows).toBe('following');
  });

  it('a new console address restarts the link there; leaving auto closes it', () => {
    const h = start({ ...SAVED, settings: { enabled: true, mode: 'auto', cinematicEnabled: false } });
    h.actor.send({ type: 'observer.subscription', active: true });
    h.actor.send({ type: 'observer.netcon.configure', host: '192.168.1.20', port: 2020 });
    expect(h.socket().input).toEqual({ host: '192.168.1.20', port: 2020 });
    expect(h.sockets).toHaveLength(2);
    h.actor.send({ type: 'observer.configure', changes: { mode: 'suggest' } });
    expect(h.live()).toHaveLength(0);
    expect(h.status().link).toMatchObject({ status: 'disconnected', reason: 'not_auto' });
    h.actor.send({ type: 'observer.subscription', active: false });
    expect(h.status()).toMatchObject({ state: 'disabled', blockedBy: 'no_subscription', suggestion: null });
  });
});
