import { stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { OBSWebSocket } from 'obs-websocket-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { type Actor, createActor, setup, waitFor } from 'xstate';
import {
  canSaveReplay,
  type ObsConnectionEmitted,
  type ObsFailure,
  type ObsSocketEvent,
  obsStatusOf,
} from '../../machines/obs-connection.machine.ts';
import { jitteredRetryDelay, obsConnectionLive, obsFailureOf, obsSocket } from '../../src/obs/obs-socket.ts';
import { obsProblemOf } from '../helpers/obs-problem.ts';
import { createObsStudio, type ObsStudio, obsAvailable } from '../helpers/obs-studio.ts';

const PASSWORD = 'hud-test-password';
const WAIT = { timeout: 15_000 };

// Real timers, but a retry every 200 ms instead of 1-10 s so a restart is noticed quickly. The
// slow retry after a wrong password keeps its real 60 s: that is what "no hammering" is about.
const machine = obsConnectionLive.provide({ delays: { retryDelay: 200 } });
type ObsActor = Actor<typeof machine>;

describe('jitteredRetryDelay', () => {
  it('spreads each back-off step by ±20 %', () => {
    expect(jitteredRetryDelay(1, () => 0)).toBe(800);
    expect(jitteredRetryDelay(1, () => 0.5)).toBe(1_000);
    expect(jitteredRetryDelay(3, () => 1)).toBe(6_000);
    expect(jitteredRetryDelay(9, () => 0.5)).toBe(10_000);
  });
});

describe('obsFailureOf: what a failed try means', () => {
  const cases: Array<[number, string, ObsFailure]> = [
    [4009, 'Authentication failed.', 'auth_failed'],
    [1006, 'connect ECONNREFUSED 127.0.0.1:4455', 'refused'],
    [1006, 'connect ECONNREFUSED ::1:4455', 'refused'],
    [1006, 'Unexpected server response: 404', 'refused'],
    [1006, 'getaddrinfo ENOTFOUND obs.invalid', 'unreachable'],
    [1006, 'getaddrinfo EAI_AGAIN obs.lan', 'unreachable'],
    [1006, 'connect EHOSTUNREACH 192.168.1.20:4455', 'unreachable'],
    [1006, 'connect ENETUNREACH 10.0.0.2:4455', 'unreachable'],
    [1006, 'connect ETIMEDOUT 192.168.1.20:4455', 'unreachable'],
    [-1, 'Invalid URL: localhost:4455', 'bad_url'],
    [-1, 'The URL\'s protocol must be one of "ws:", "wss:", "http:", "https:", or "ws+unix:"', 'bad_url'],
    [1001, '', 'closed'],
    [1006, '', 'closed'],
    [-1, 'socket library exploded', 'closed'],
  ];
  for (const [code, reason, failure] of cases) {
    it(`${code} ${reason || '(no text)'} -> ${failure}`, () => {
      expect(obsFailureOf(code, reason)).toBe(failure);
    });
  }
});

describe('obsSocket, failed tries against local addresses (no OBS needed)', () => {
  /** The one close a try reports. */
  function tryOnce(url: string): Promise<ObsSocketEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no report from ${url} within 10 s`)), 10_000);
      const parent = createActor(
        setup({
          types: { events: {} as ObsSocketEvent },
          actors: { obsSocket },
        }).createMachine({
          invoke: { src: 'obsSocket', input: { url, password: 'x' } },
          on: {
            '*': {
              actions: ({ event }) => {
                clearTimeout(timer);
                resolve(event);
              },
            },
          },
        }),
      );
      parent.start();
      tries.push(parent);
    });
  }
  const tries: Array<{ stop(): void }> = [];
  afterEach(() => {
    for (const parent of tries.splice(0)) parent.stop();
  });

  it('nothing listening: refused', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    expect(await tryOnce(`ws://127.0.0.1:${port}`)).toMatchObject({
      type: 'obs.socket.closed',
      failure: 'refused',
    });
  });

  it('a URL without its scheme: bad_url', async () => {
    expect(await tryOnce('localhost:4455')).toMatchObject({ type: 'obs.socket.closed', failure: 'bad_url' });
  });

  it('a host name that does not resolve: unreachable', async () => {
    expect(await tryOnce('ws://obs.invalid:4455')).toMatchObject({
      type: 'obs.socket.closed',
      failure: 'unreachable',
    });
  });

  it('a server that closes with 4009, as OBS does on a wrong password: auth_failed', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    server.on('connection', (socket) => socket.close(4009, 'Authentication failed.'));
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await tryOnce(`ws://127.0.0.1:${port}`)).toEqual({
        type: 'obs.socket.closed',
        code: 4009,
        reason: 'Authentication failed.',
        failure: 'auth_failed',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe.skipIf(!obsAvailable)('obsSocket against a real OBS Studio', () => {
  let studio: ObsStudio;
  const actors: ObsActor[] = [];

  beforeAll(async () => {
    studio = await createObsStudio();
  });
  afterEach(async () => {
    for (const actor of actors.splice(0)) actor.stop();
    await studio.quit();
  });
  afterAll(async () => {
    await studio?.dispose();
  });

  /** A live connection machine pointed at the test OBS, counting its tries (sockets opened). */
  function connect(password = PASSWORD) {
    const actor = createActor(machine, { input: { url: studio.url, password, enabled: true } });
    let tries = 0;
    let wasOpening = false;
    actor.subscribe((snapshot) => {
      const opening = snapshot.matches({ session: 'opening' }) || snapshot.matches({ session: 'probing' });
      if (opening && !wasOpening) tries += 1;
      wasOpening = opening;
    });
    actor.start();
    actors.push(actor);
    return { actor, tries: () => tries };
  }

  const status = (actor: ObsActor) => obsStatusOf(actor.getSnapshot());
  const isConnected = (actor: ObsActor, replayBufferActive: boolean) =>
    waitFor(
      actor,
      (snapshot) => {
        const now = obsStatusOf(snapshot);
        return now.connection === 'connected' && now.replayBufferActive === replayBufferActive;
      },
      WAIT,
    );

  function nextEmitted(actor: ObsActor): Promise<ObsConnectionEmitted> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('nothing emitted within 15 s')), WAIT.timeout);
      const subscription = actor.on('*', (event) => {
        clearTimeout(timer);
        subscription.unsubscribe();
        resolve(event);
      });
    });
  }

  async function saveReplay(actor: ObsActor) {
    const outcome = nextEmitted(actor);
    actor.send({ type: 'obs.replay.save' });
    return outcome;
  }

  async function expectReplayFile(path: string) {
    expect(dirname(path)).toBe(studio.replayDir);
    const file = await stat(path);
    expect(file.isFile()).toBe(true);
    expect(file.size).toBeGreaterThan(1_000);
  }

  it('with no OBS running, keeps trying and reports connecting; save_replay is not possible', async () => {
    const { actor, tries } = connect();
    const seen = new Set<string>();
    actor.subscribe((snapshot) => seen.add(JSON.stringify(obsStatusOf(snapshot))));
    await waitFor(actor, () => tries() >= 4, WAIT);
    // Every failed try says the same: one visible status, no revision tick per try.
    expect(seen).toEqual(
      new Set([JSON.stringify({ connection: 'connecting', replayBufferActive: false, reason: 'refused' })]),
    );
    expect(canSaveReplay(actor.getSnapshot())).toBe('not_connected');
    expect(obsProblemOf(actor.getSnapshot())).toMatch(/ECONNREFUSED/);
    expect(await saveReplay(actor)).toEqual({ type: 'replay.failed', message: 'OBS is not connected' });
  });

  it('connects to OBS started with its buffer running, and saves a real replay file', async () => {
    await studio.launch({ password: PASSWORD, startReplayBuffer: true });
    const { actor } = connect();
    // OBS sends no event for a buffer that was already running: this is GetReplayBufferStatus.
    await isConnected(actor, true);
    expect(canSaveReplay(actor.getSnapshot())).toBe('ok');

    const outcome = await saveReplay(actor);
    expect(outcome.type).toBe('replay.saved');
    if (outcome.type === 'replay.saved') await expectReplayFile(outcome.path);
  });

  it('survives OBS being killed: connecting while it is gone, connected again by itself, saving again', async () => {
    await studio.launch({ password: PASSWORD, startReplayBuffer: true });
    const { actor, tries } = connect();
    await isConnected(actor, true);

    const seenWhileDown = new Set<string>();
    let down = false;
    actor.subscribe((snapshot) => {
      if (down) seenWhileDown.add(JSON.stringify(obsStatusOf(snapshot)));
    });
    down = true;
    await studio.crash();
    await waitFor(actor, (snapshot) => obsStatusOf(snapshot).connection === 'connecting', WAIT);
    expect(obsProblemOf(actor.getSnapshot())).toMatch(/code 1006/);
    const triesBefore = tries();
    await waitFor(actor, () => tries() >= triesBefore + 3, WAIT);
    // Several failed tries, two visible statuses: the drop, then OBS refusing (nothing listens any
    // more); the retries themselves do not tick the HUD state's revision.
    expect(seenWhileDown).toEqual(
      new Set([
        JSON.stringify({ connection: 'connecting', replayBufferActive: false, reason: 'closed' }),
        JSON.stringify({ connection: 'connecting', replayBufferActive: false, reason: 'refused' }),
      ]),
    );
    down = false;

    await studio.launch({ password: PASSWORD, startReplayBuffer: true });
    await isConnected(actor, true);
    const outcome = await saveReplay(actor);
    expect(outcome.type).toBe('replay.saved');
    if (outcome.type === 'replay.saved') await expectReplayFile(outcome.path);
  });

  it('with the buffer stopped: buffer_inactive, OBS refuses a save, and the buffer is followed when it starts', async () => {
    await studio.launch({ password: PASSWORD, startReplayBuffer: false });
    const { actor } = connect();
    await isConnected(actor, false);
    expect(canSaveReplay(actor.getSnapshot())).toBe('buffer_inactive');

    // The handler answers 409 before this, but the machine must still answer if asked.
    const refused = await saveReplay(actor);
    expect(refused).toEqual({
      type: 'replay.failed',
      message: 'OBS refused to save the replay: the replay buffer is not running (OBS code 501)',
    });

    // Someone starts the buffer in OBS: ReplayBufferStateChanged reaches the machine.
    const operator = new OBSWebSocket();
    await operator.connect(studio.url, PASSWORD);
    try {
      await operator.call('StartReplayBuffer');
      await isConnected(actor, true);
      await operator.call('StopReplayBuffer');
      await isConnected(actor, false);
    } finally {
      await operator.disconnect();
    }
  });

  it('with a wrong password, reports the login failure and does not hammer OBS', async () => {
    await studio.launch({ password: PASSWORD, startReplayBuffer: true });
    const { actor, tries } = connect('not-the-password');
    await waitFor(actor, (snapshot) => snapshot.matches('authFailed'), WAIT);
    expect(status(actor)).toEqual({
      connection: 'disconnected',
      replayBufferActive: false,
      reason: 'auth_failed',
    });
    expect(obsProblemOf(actor.getSnapshot())).toBe('OBS refused the password (Authentication failed.)');

    // "Nothing happens" needs a window: with the 200 ms back-off, hammering would be ~7 tries.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(tries()).toBe(1);
    expect(studio.clientConnections()).toBe(1);
    expect(actor.getSnapshot().matches('authFailed')).toBe(true);

    // Fixing the password in the settings takes effect at once, without a restart.
    actor.send({ type: 'obs.configure', url: studio.url, password: PASSWORD, enabled: true });
    await isConnected(actor, true);
    expect(obsProblemOf(actor.getSnapshot())).toBeNull();
  });

  it('switching the connection off closes the socket to OBS', async () => {
    await studio.launch({ password: PASSWORD, startReplayBuffer: true });
    const { actor } = connect();
    await isConnected(actor, true);
    const connections = studio.clientConnections();

    actor.send({ type: 'obs.configure', url: studio.url, password: PASSWORD, enabled: false });
    expect(status(actor)).toEqual({
      connection: 'disconnected',
      replayBufferActive: false,
      reason: 'switched_off',
    });
    await waitForValue(() => studio.clientDisconnections() >= connections);
    expect(studio.clientConnections()).toBe(connections);
  });
});

/** Polls a condition the test cannot subscribe to (OBS's log), bounded. */
async function waitForValue(condition: () => boolean, timeoutMs = WAIT.timeout): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
