import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, type StateValue } from 'xstate';
import { serializeSnapshot, TestModel } from 'xstate/graph';
import {
  backoffDelay,
  canSaveReplay,
  OBS_AUTH_RETRY_MS,
  OBS_BACKOFF_MS,
  OBS_SAVE_TIMEOUT_MS,
  type ObsConnectionEmitted,
  type ObsConnectionEvent,
  type ObsConnectionSnapshot,
  type ObsFailure,
  type ObsSettings,
  type ObsSocketCommand,
  type ObsSocketEvent,
  type ObsSocketInput,
  obsConnectionMachine,
  obsStatusOf,
} from '../../machines/obs-connection.machine.ts';
import { obsProblemOf } from '../helpers/obs-problem.ts';

const SETTINGS: ObsSettings = { url: 'ws://127.0.0.1:4455', password: 'secret', enabled: true };
const REPLAY_PATH = '/home/caster/Videos/Replay 2025-01-01 20-00-00.mkv';
const REPLAY_FOLDER = '/home/caster/Videos';

/** A stand-in for OBS: every socket the machine opens, what it was given and what it was told. */
interface FakeSocket {
  input: ObsSocketInput;
  commands: ObsSocketCommand[];
  stopped: boolean;
  /** Plays OBS's side: what the real socket would sendBack. */
  report: (event: ObsSocketEvent) => void;
}

function createHarness(settings: ObsSettings = SETTINGS) {
  const sockets: FakeSocket[] = [];
  const obsSocket = fromCallback<ObsSocketCommand, ObsSocketInput>(({ input, sendBack, receive }) => {
    const socket: FakeSocket = { input, commands: [], stopped: false, report: (event) => sendBack(event) };
    sockets.push(socket);
    receive((command) => socket.commands.push(command));
    return () => {
      socket.stopped = true;
    };
  });
  const clock = new SimulatedClock();
  const actor = createActor(obsConnectionMachine.provide({ actors: { obsSocket } }), {
    clock,
    input: settings,
  });
  const emitted: ObsConnectionEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const live = () => sockets.filter((socket) => !socket.stopped);
  return {
    actor,
    clock,
    sockets,
    emitted,
    live,
    /** The one open socket; fails the test when there is none (or, a leak, more than one). */
    socket(): FakeSocket {
      const open = live();
      expect(open).toHaveLength(1);
      return open[0] as FakeSocket;
    },
    status: () => obsStatusOf(actor.getSnapshot()),
    /** How the last try failed, as the model walk sends it (null after a connect or new settings). */
    lastFailure: null as ObsFailure | null,
  };
}

type Harness = ReturnType<typeof createHarness>;

let current: Harness | undefined;
afterEach(() => {
  current?.actor.stop();
  current = undefined;
});

function start(settings: ObsSettings = SETTINGS): Harness {
  current = createHarness(settings);
  return current;
}

// ---------------------------------------------------------------------------------------------
// Model-based walk
// ---------------------------------------------------------------------------------------------

// Delayed transitions are events named by xstate: the walk takes them like any other, and the
// running actor gets them by moving the simulated clock.
const AFTER_RETRY = 'xstate.after.retryDelay.obsConnection.backoff';
const AFTER_AUTH_RETRY = 'xstate.after.authRetryDelay.obsConnection.authFailed';
const AFTER_SAVE_TIMEOUT = 'xstate.after.saveTimeout.obsConnection.session.connected.replaySave.saving';
type AfterEvent = { type: typeof AFTER_RETRY | typeof AFTER_AUTH_RETRY | typeof AFTER_SAVE_TIMEOUT };
type ModelEvent = ObsConnectionEvent | AfterEvent;

const MODEL_EVENTS: ModelEvent[] = [
  { type: 'obs.socket.connected' },
  {
    type: 'obs.socket.closed',
    code: 1006,
    reason: 'connect ECONNREFUSED 127.0.0.1:4455',
    failure: 'refused',
  },
  { type: 'obs.socket.closed', code: 4009, reason: 'Authentication failed.', failure: 'auth_failed' },
  { type: 'obs.replayBuffer.state', active: true },
  { type: 'obs.replayBuffer.state', active: false },
  { type: 'obs.replay.save' },
  { type: 'obs.replay.saved', path: REPLAY_PATH, folder: REPLAY_FOLDER },
  { type: 'obs.replay.saveFailed', message: 'code 501' },
  { type: 'obs.configure', ...SETTINGS },
  { type: 'obs.configure', ...SETTINGS, enabled: false },
  { type: 'obs.configure', ...SETTINGS, password: 'changed' },
  { type: AFTER_RETRY },
  { type: AFTER_AUTH_RETRY },
  { type: AFTER_SAVE_TIMEOUT },
];

/** The visible status each state should show, written out here independently of the machine's tags. */
const EXPECTED_CONNECTION: Array<[StateValue, 'connected' | 'connecting' | 'disconnected']> = [
  ['switchedOff', 'disconnected'],
  ['backoff', 'connecting'],
  ['authFailed', 'disconnected'],
  [{ session: 'opening' }, 'connecting'],
  [{ session: 'probing' }, 'disconnected'],
  [{ session: 'connected' }, 'connected'],
];

function expectedConnection(snapshot: ObsConnectionSnapshot) {
  const row = EXPECTED_CONNECTION.find(([value]) => snapshot.matches(value as never));
  if (!row) throw new Error(`no expected status for ${JSON.stringify(snapshot.value)}`);
  return row[1];
}

/** What a user would see emitted for an event, stated from the rules rather than from the machine. */
function expectedEmits(before: ObsConnectionSnapshot, event: ModelEvent): ObsConnectionEmitted[] {
  const connected = before.matches({ session: 'connected' });
  const saving = before.matches({ session: { connected: { replaySave: 'saving' } } });
  switch (event.type) {
    case 'obs.replay.save':
      return connected ? [] : [{ type: 'replay.failed', message: 'OBS is not connected' }];
    case 'obs.replay.saved':
      return connected ? [{ type: 'replay.saved', path: event.path, folder: event.folder }] : [];
    case 'obs.replay.saveFailed':
      return saving
        ? [{ type: 'replay.failed', message: `OBS refused to save the replay: ${event.message}` }]
        : [];
    case AFTER_SAVE_TIMEOUT:
      return [{ type: 'replay.failed', message: 'OBS did not report the saved replay within 10 s' }];
    case 'obs.socket.closed':
    case 'obs.configure':
      // Leaving `connected` with a save in flight answers it. (A configure that changes nothing
      // keeps the connection, and the walk only takes events that do something.)
      return saving
        ? [{ type: 'replay.failed', message: 'The connection to OBS ended before the replay was saved' }]
        : [];
    default:
      return [];
  }
}

function delayOf(before: ObsConnectionSnapshot, event: AfterEvent): number {
  if (event.type === AFTER_RETRY) return backoffDelay(before.context.attempt);
  if (event.type === AFTER_AUTH_RETRY) return OBS_AUTH_RETRY_MS;
  return OBS_SAVE_TIMEOUT_MS;
}

/** Short, distinct test names: the event and the data that tells it apart from its siblings. */
function describeEvent(event: ModelEvent): string {
  switch (event.type) {
    case 'obs.socket.closed':
      return `closed ${event.code}`;
    case 'obs.replayBuffer.state':
      return `buffer ${event.active ? 'on' : 'off'}`;
    case 'obs.configure':
      if (!event.enabled) return 'configure(off)';
      return event.password === SETTINGS.password ? 'configure(same)' : 'configure(new password)';
    default:
      return event.type.replace(/^xstate\.after\.(\w+)\..*$/, 'after $1').replace(/^obs\./, '');
  }
}

function isAfterEvent(event: ModelEvent): event is AfterEvent {
  return event.type.startsWith('xstate.after.');
}

/**
 * `createTestModel` from xstate/graph refuses machines with `after` or `invoke` ("After events on
 * test machines are not supported"), and this machine needs both. `TestModel` is the class it
 * builds; the options below restate what createTestModel adds: context in the state key, and the
 * incoming transition too, so that the shortest paths cover every transition and not only every state.
 */
const model = new TestModel<ObsConnectionSnapshot, ModelEvent, ObsSettings>(obsConnectionMachine as never, {
  input: SETTINGS,
  events: MODEL_EVENTS,
  // Only events that do something: an ignored event would add a copy of the state it left alone.
  filterEvents: (snapshot, event) => snapshot.can(event as ObsConnectionEvent),
  serializeState: (snapshot, event, previous) => {
    const moved = event && previous && JSON.stringify(previous.value) !== JSON.stringify(snapshot.value);
    return `${serializeSnapshot(snapshot)}${moved ? ` via ${JSON.stringify(event)} from ${JSON.stringify(previous.value)}` : ''}`;
  },
});

describe('obsConnectionMachine, model-based', () => {
  const paths = model.getShortestPaths();

  it('reaches every state of the diagram', () => {
    const reached = new Set(
      paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))),
    );
    const connected = (replayBuffer: string, replaySave: string) =>
      JSON.stringify({ session: { connected: { replayBuffer, replaySave } } });
    expect(reached).toEqual(
      new Set([
        '"switchedOff"',
        '"backoff"',
        '"authFailed"',
        JSON.stringify({ session: 'opening' }),
        JSON.stringify({ session: 'probing' }),
        connected('inactive', 'idle'),
        connected('active', 'idle'),
        connected('inactive', 'saving'),
        connected('active', 'saving'),
      ]),
    );
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
                h.emitted.length = 0;
                if (isAfterEvent(event)) {
                  // The delay is exact: nothing happens a millisecond before it.
                  const delay = delayOf(before, event);
                  h.clock.increment(delay - 1);
                  expect(h.actor.getSnapshot().value).toEqual(before.value);
                  h.clock.increment(1);
                } else if (event.type === 'obs.configure' || event.type === 'obs.replay.save') {
                  h.actor.send(event);
                  if (event.type === 'obs.configure') h.lastFailure = null;
                } else {
                  h.socket().report(event);
                  if (event.type === 'obs.socket.connected') h.lastFailure = null;
                  if (event.type === 'obs.socket.closed') h.lastFailure = event.failure;
                }
                expect(h.emitted).toEqual(expectedEmits(before, event));
              },
            ]),
          ),
        } as never,
        states: {
          '*': (expected) => {
            const h = harness as Harness;
            const actual = h.actor.getSnapshot();
            expect(actual.value).toEqual(expected.value);
            expect(actual.context).toEqual(expected.context);

            const connection = expectedConnection(expected);
            const bufferActive = expected.matches({ session: { connected: { replayBuffer: 'active' } } });
            // Why OBS is not connected, from the rules: switched off, the login failure while the
            // machine has given up on it, else how the last try since a connect or new settings failed.
            const reason =
              connection === 'connected'
                ? null
                : expected.matches('switchedOff')
                  ? 'switched_off'
                  : expected.matches('authFailed') || expected.matches({ session: 'probing' })
                    ? 'auth_failed'
                    : h.lastFailure;
            expect(obsStatusOf(actual)).toEqual({ connection, replayBufferActive: bufferActive, reason });
            expect(canSaveReplay(actual)).toBe(
              connection !== 'connected' ? 'not_connected' : bufferActive ? 'ok' : 'buffer_inactive',
            );

            // A socket is open exactly while the machine is in `session`, with the current settings.
            if (expected.matches('session')) {
              expect(h.socket().input).toEqual({
                url: expected.context.settings.url,
                password: expected.context.settings.password,
              });
            } else {
              expect(h.live()).toHaveLength(0);
            }
            if (expected.matches({ session: { connected: { replaySave: 'saving' } } })) {
              expect(h.socket().commands.at(-1)).toEqual({ type: 'obs.replay.save' });
            }
          },
        },
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Behaviour a caster would notice
// ---------------------------------------------------------------------------------------------

describe('obsConnectionMachine, back-off while OBS is away', () => {
  it('keeps reporting connecting through failed tries, waiting 1, 2, 5, then 10 s', () => {
    const h = start();
    const seen: Array<ReturnType<typeof obsStatusOf>> = [];
    h.actor.subscribe((snapshot) => seen.push(obsStatusOf(snapshot)));

    const waits: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      h.socket().report({
        type: 'obs.socket.closed',
        code: 1006,
        reason: 'connect ECONNREFUSED 127.0.0.1:4455',
        failure: 'refused',
      });
      expect(h.live()).toHaveLength(0);
      // Measure the wait: step the clock until the next try opens a socket.
      let waited = 0;
      while (h.live().length === 0 && waited < 60_000) {
        h.clock.increment(100);
        waited += 100;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1_000, 2_000, 5_000, 10_000, 10_000, 10_000]);
    expect(h.sockets).toHaveLength(7);

    // Many snapshots (each try and each wait is one), one visible status once the reason is known:
    // retries that fail the same way tick no revision.
    expect(seen.length).toBeGreaterThan(10);
    expect(new Set(seen.map((status) => JSON.stringify(status)))).toEqual(
      new Set([JSON.stringify({ connection: 'connecting', replayBufferActive: false, reason: 'refused' })]),
    );
    expect(obsProblemOf(h.actor.getSnapshot())).toBe('connect ECONNREFUSED 127.0.0.1:4455 (code 1006)');
  });

  it('reconnects by itself and starts the back-off again from 1 s after a later drop', () => {
    const h = start();
    h.socket().report({ type: 'obs.socket.closed', code: 1006, reason: '', failure: 'closed' });
    h.clock.increment(1_000);
    h.socket().report({ type: 'obs.socket.closed', code: 1006, reason: '', failure: 'closed' });
    h.clock.increment(2_000);
    h.socket().report({ type: 'obs.socket.connected' });
    h.socket().report({ type: 'obs.replayBuffer.state', active: true });
    expect(h.status()).toEqual({ connection: 'connected', replayBufferActive: true, reason: null });
    expect(obsProblemOf(h.actor.getSnapshot())).toBeNull();

    h.socket().report({ type: 'obs.socket.closed', code: 1006, reason: '', failure: 'closed' });
    expect(h.status()).toEqual({ connection: 'connecting', replayBufferActive: false, reason: 'closed' });
    h.clock.increment(999);
    expect(h.live()).toHaveLength(0);
    h.clock.increment(1);
    expect(h.live()).toHaveLength(1);
  });

  it('asks again for the buffer state after a reconnect: it does not carry over', () => {
    const h = start();
    h.socket().report({ type: 'obs.socket.connected' });
    h.socket().report({ type: 'obs.replayBuffer.state', active: true });
    h.socket().report({ type: 'obs.socket.closed', code: 1006, reason: '', failure: 'closed' });
    h.clock.increment(1_000);
    h.socket().report({ type: 'obs.socket.connected' });
    expect(h.status()).toEqual({ connection: 'connected', replayBufferActive: false, reason: null });
    expect(canSaveReplay(h.actor.getSnapshot())).toBe('buffer_inactive');
  });

  it('treats a socket actor that crashes like a failed try', () => {
    const clock = new SimulatedClock();
    let tries = 0;
    const crashing = fromCallback<ObsSocketCommand, ObsSocketInput>(() => {
      tries += 1;
      throw new Error('socket library exploded');
    });
    const actor = createActor(obsConnectionMachine.provide({ actors: { obsSocket: crashing } }), {
      clock,
      input: SETTINGS,
    }).start();
    expect(actor.getSnapshot().value).toBe('backoff');
    expect(obsStatusOf(actor.getSnapshot()).connection).toBe('connecting');
    expect(obsProblemOf(actor.getSnapshot())).toBe('socket library exploded (code -1)');
    clock.increment(1_000);
    expect(tries).toBe(2);
    actor.stop();
  });
});

describe('obsConnectionMachine, wrong password (close 4009)', () => {
  it('gives up at once, reports why, and does not hammer OBS', () => {
    const h = start();
    h.socket().report({
      type: 'obs.socket.closed',
      code: 4009,
      reason: 'Authentication failed.',
      failure: 'auth_failed',
    });
    expect(h.status()).toEqual({
      connection: 'disconnected',
      replayBufferActive: false,
      reason: 'auth_failed',
    });
    expect(obsProblemOf(h.actor.getSnapshot())).toBe('OBS refused the password (Authentication failed.)');

    h.clock.increment(OBS_AUTH_RETRY_MS - 1);
    expect(h.sockets).toHaveLength(1);
    h.clock.increment(1);
    expect(h.sockets).toHaveLength(2);
  });

  it('probes quietly every 60 s: failed probes change nothing visible', () => {
    const h = start();
    h.socket().report({
      type: 'obs.socket.closed',
      code: 4009,
      reason: 'Authentication failed.',
      failure: 'auth_failed',
    });
    const seen: string[] = [];
    h.actor.subscribe((snapshot) => seen.push(JSON.stringify(obsStatusOf(snapshot))));
    for (const code of [4009, 1006, 4009]) {
      h.clock.increment(OBS_AUTH_RETRY_MS);
      h.socket().report({
        type: 'obs.socket.closed',
        code,
        reason: code === 4009 ? 'Authentication failed.' : '',
        failure: code === 4009 ? 'auth_failed' : 'closed',
      });
    }
    expect(h.sockets).toHaveLength(4);
    expect(new Set(seen)).toEqual(
      new Set([
        JSON.stringify({ connection: 'disconnected', replayBufferActive: false, reason: 'auth_failed' }),
      ]),
    );
    // OBS being away during a probe does not hide the login failure.
    expect(obsProblemOf(h.actor.getSnapshot())).toBe('OBS refused the password (Authentication failed.)');
  });

  it('connects when a slow probe succeeds (the password was fixed in OBS)', () => {
    const h = start();
    h.socket().report({
      type: 'obs.socket.closed',
      code: 4009,
      reason: 'Authentication failed.',
      failure: 'auth_failed',
    });
    h.clock.increment(OBS_AUTH_RETRY_MS);
    h.socket().report({ type: 'obs.socket.connected' });
    expect(h.status().connection).toBe('connected');
    expect(obsProblemOf(h.actor.getSnapshot())).toBeNull();
  });

  it('tries again at once with new settings, and on a re-sent configure', () => {
    const h = start();
    h.socket().report({
      type: 'obs.socket.closed',
      code: 4009,
      reason: 'Authentication failed.',
      failure: 'auth_failed',
    });
    h.actor.send({ type: 'obs.configure', ...SETTINGS, password: 'fixed' });
    expect(h.status().connection).toBe('connecting');
    expect(h.socket().input.password).toBe('fixed');

    h.socket().report({
      type: 'obs.socket.closed',
      code: 4009,
      reason: 'Authentication failed.',
      failure: 'auth_failed',
    });
    h.actor.send({ type: 'obs.configure', ...SETTINGS, password: 'fixed' });
    expect(h.sockets).toHaveLength(3);
    expect(h.status().connection).toBe('connecting');
  });
});

describe('obsConnectionMachine, settings', () => {
  it('starts switched off when disabled, and connects when enabled later', () => {
    const h = start({ ...SETTINGS, enabled: false });
    expect(h.status().connection).toBe('disconnected');
    expect(h.sockets).toHaveLength(0);
    h.clock.increment(OBS_AUTH_RETRY_MS * 10);
    expect(h.sockets).toHaveLength(0);

    h.actor.send({ type: 'obs.configure', ...SETTINGS, url: 'ws://192.168.1.20:4455' });
    expect(h.status().connection).toBe('connecting');
    expect(h.socket().input).toEqual({ url: 'ws://192.168.1.20:4455', password: 'secret' });
  });

  it('keeps a working connection when the same settings are sent again', () => {
    const h = start();
    h.socket().report({ type: 'obs.socket.connected' });
    const before = h.actor.getSnapshot();
    h.actor.send({ type: 'obs.configure', ...SETTINGS });
    expect(h.actor.getSnapshot()).toBe(before);
    expect(h.sockets).toHaveLength(1);
  });

  it('drops the connection and reconnects with a new URL without a restart', () => {
    const h = start();
    h.socket().report({ type: 'obs.socket.connected' });
    h.actor.send({ type: 'obs.configure', ...SETTINGS, url: 'ws://127.0.0.1:4456' });
    expect(h.sockets[0]?.stopped).toBe(true);
    expect(h.socket().input.url).toBe('ws://127.0.0.1:4456');
    expect(h.status().connection).toBe('connecting');
  });

  it('switching off closes the socket and stops retrying', () => {
    const h = start();
    h.socket().report({ type: 'obs.socket.closed', code: 1006, reason: '', failure: 'closed' });
    h.actor.send({ type: 'obs.configure', ...SETTINGS, enabled: false });
    expect(h.status().connection).toBe('disconnected');
    h.clock.increment(60_000);
    expect(h.sockets).toHaveLength(1);
    expect(obsProblemOf(h.actor.getSnapshot())).toBeNull();
  });
});

describe('obsConnectionMachine, save_replay', () => {
  function connectedWithBuffer() {
    const h = start();
    h.socket().report({ type: 'obs.socket.connected' });
    h.socket().report({ type: 'obs.replayBuffer.state', active: true });
    return h;
  }

  it('sends SaveReplayBuffer to the socket and emits replay.saved with the path OBS reports', () => {
    const h = connectedWithBuffer();
    expect(canSaveReplay(h.actor.getSnapshot())).toBe('ok');
    h.actor.send({ type: 'obs.replay.save' });
    expect(h.socket().commands).toEqual([{ type: 'obs.replay.save' }]);
    expect(h.emitted).toEqual([]);
    h.socket().report({ type: 'obs.replay.saved', path: REPLAY_PATH, folder: REPLAY_FOLDER });
    expect(h.emitted).toEqual([{ type: 'replay.saved', path: REPLAY_PATH, folder: REPLAY_FOLDER }]);
  });

  it('emits replay.failed when OBS refuses the save', () => {
    const h = connectedWithBuffer();
    h.actor.send({ type: 'obs.replay.save' });
    h.socket().report({ type: 'obs.replay.saveFailed', message: 'the replay buffer is not running (501)' });
    expect(h.emitted).toEqual([
      {
        type: 'replay.failed',
        message: 'OBS refused to save the replay: the replay buffer is not running (501)',
      },
    ]);
  });

  it('emits replay.failed when OBS never reports back within 10 s', () => {
    const h = connectedWithBuffer();
    h.actor.send({ type: 'obs.replay.save' });
    h.clock.increment(OBS_SAVE_TIMEOUT_MS - 1);
    expect(h.emitted).toEqual([]);
    h.clock.increment(1);
    expect(h.emitted).toEqual([
      { type: 'replay.failed', message: 'OBS did not report the saved replay within 10 s' },
    ]);
    // Still connected: a save that OBS lost is not a reason to drop the socket.
    expect(h.status().connection).toBe('connected');
  });

  it('emits replay.failed when the connection drops during a save', () => {
    const h = connectedWithBuffer();
    h.actor.send({ type: 'obs.replay.save' });
    h.socket().report({ type: 'obs.socket.closed', code: 1006, reason: '', failure: 'closed' });
    expect(h.emitted).toEqual([
      { type: 'replay.failed', message: 'The connection to OBS ended before the replay was saved' },
    ]);
    h.clock.increment(OBS_SAVE_TIMEOUT_MS);
    expect(h.emitted).toHaveLength(1);
  });

  it('answers at once when OBS is not connected', () => {
    const h = start();
    expect(canSaveReplay(h.actor.getSnapshot())).toBe('not_connected');
    h.actor.send({ type: 'obs.replay.save' });
    expect(h.emitted).toEqual([{ type: 'replay.failed', message: 'OBS is not connected' }]);
    expect(h.socket().commands).toEqual([]);
  });

  it('joins a second save to the one in flight: one command, one answer', () => {
    const h = connectedWithBuffer();
    h.actor.send({ type: 'obs.replay.save' });
    h.actor.send({ type: 'obs.replay.save' });
    expect(h.socket().commands).toHaveLength(1);
    h.socket().report({ type: 'obs.replay.saved', path: REPLAY_PATH, folder: REPLAY_FOLDER });
    expect(h.emitted).toEqual([{ type: 'replay.saved', path: REPLAY_PATH, folder: REPLAY_FOLDER }]);
  });

  it('reports a save started in OBS itself (hotkey) as replay.saved', () => {
    const h = connectedWithBuffer();
    h.socket().report({ type: 'obs.replay.saved', path: REPLAY_PATH, folder: REPLAY_FOLDER });
    expect(h.emitted).toEqual([{ type: 'replay.saved', path: REPLAY_PATH, folder: REPLAY_FOLDER }]);
  });

  it('says buffer_inactive while connected with the buffer stopped', () => {
    const h = connectedWithBuffer();
    h.socket().report({ type: 'obs.replayBuffer.state', active: false });
    expect(canSaveReplay(h.actor.getSnapshot())).toBe('buffer_inactive');
    expect(h.status()).toEqual({ connection: 'connected', replayBufferActive: false, reason: null });
  });
});

describe('backoffDelay', () => {
  it('follows the table and stays at its last step', () => {
    expect([1, 2, 3, 4, 5, 50].map(backoffDelay)).toEqual([1_000, 2_000, 5_000, 10_000, 10_000, 10_000]);
    expect(OBS_BACKOFF_MS.at(-1)).toBe(10_000);
  });
});

describe('obsConnectionMachine, why OBS is not connected', () => {
  it('the status carries the reason of the last failed try, switched off, and none while connected', () => {
    const h = start();
    expect(h.status().reason).toBeNull();
    h.socket().report({
      type: 'obs.socket.closed',
      code: 1006,
      reason: 'getaddrinfo ENOTFOUND obs.local',
      failure: 'unreachable',
    });
    expect(h.status()).toEqual({
      connection: 'connecting',
      replayBufferActive: false,
      reason: 'unreachable',
    });
    h.clock.increment(1_000);
    h.socket().report({ type: 'obs.socket.connected' });
    expect(h.status().reason).toBeNull();
    h.socket().report({ type: 'obs.socket.closed', code: 1001, reason: '', failure: 'closed' });
    expect(h.status().reason).toBe('closed');
    h.actor.send({ type: 'obs.configure', ...SETTINGS, url: 'localhost:4455' });
    // New settings: nothing known about them until their first try fails.
    expect(h.status().reason).toBeNull();
    h.socket().report({
      type: 'obs.socket.closed',
      code: -1,
      reason: 'Invalid URL: localhost:4455',
      failure: 'bad_url',
    });
    expect(h.status().reason).toBe('bad_url');
    h.actor.send({ type: 'obs.configure', ...SETTINGS, enabled: false });
    expect(h.status()).toEqual({
      connection: 'disconnected',
      replayBufferActive: false,
      reason: 'switched_off',
    });
  });
});
