import { stat } from 'node:fs/promises';
import { OBSWebSocket } from 'obs-websocket-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { obsConnectionLive } from '../../src/obs/obs-socket.ts';
import { build, command, get } from '../helpers/build.ts';
import { createObsStudio, type ObsStudio, obsAvailable } from '../helpers/obs-studio.ts';
import { connect } from '../helpers/ws-client.ts';

const PASSWORD = 'hud-api-test';

describe.skipIf(!obsAvailable)('OBS over the API, against a real OBS Studio', () => {
  let studio: ObsStudio;
  beforeAll(async () => {
    studio = await createObsStudio();
    await studio.launch({ password: PASSWORD, startReplayBuffer: true });
  });
  afterAll(async () => {
    await studio?.dispose();
  });

  // The real service with retries every 200 ms instead of 1 to 10 s, so a restart is seen quickly.
  const serve = () =>
    build({
      overrides: { obs: { url: studio.url, password: PASSWORD, enabled: true } },
      machine: (live) =>
        live.provide({
          actors: { obs: obsConnectionLive.provide({ delays: { retryDelay: 200 } }) },
        }),
    });
  const obsEvents = (received: any[]) =>
    received
      .filter((m) => m.type === 'event' && m.event === 'hud.state' && m.data.obs)
      .map((m) => m.data.obs);

  it('reports the connection, saves a replay that exists, survives a kill -9 of OBS, and refuses while the buffer is stopped', async () => {
    const server = await serve();
    const client = await connect(server.wsUrl);
    const ready = (obs: { connection: string; replayBufferActive: boolean } | undefined) =>
      obs?.connection === 'connected' && obs.replayBufferActive;
    await client.waitFor(
      (m) =>
        (m.type === 'event' && ready(m.data?.obs)) || (m.type === 'hello' && ready(m.snapshot.state.obs)),
    );
    expect((await get(server, '/api/state')).body.state.obs).toEqual({
      connection: 'connected',
      replayBufferActive: true,
      reason: null,
    });

    const replaySaved = client.waitForNew((m) => m.type === 'event' && m.event === 'replay.saved');
    const saved = await command(server, 'save_replay');
    expect(saved.body).toEqual({
      ok: true,
      state: {
        revision: expect.any(Number),
        obs: { connection: 'connected', replayBufferActive: true, reason: null },
      },
      result: { saving: true },
    });
    const event = await replaySaved;
    expect(event.data.path.startsWith(studio.replayDir)).toBe(true);
    expect((await stat(event.data.path)).size).toBeGreaterThan(1000);

    // OBS crashes: the service says connecting (once, however many retries fail), then connected again by itself.
    const before = obsEvents(client.received).length;
    const lost = client.waitForNew((m) => m.type === 'event' && m.data?.obs?.connection === 'connecting');
    await studio.crash();
    const lostRevision = (await lost).revision;
    expect((await command(server, 'save_replay')).status).toBe(503);
    await studio.launch({ password: PASSWORD, startReplayBuffer: true });
    await client.waitFor((m) => m.type === 'event' && ready(m.data?.obs) && m.revision > lostRevision);
    // Failed retries while OBS was away changed nothing a client sees: no event, no revision.
    const connections = obsEvents(client.received)
      .slice(before)
      .map((obs: { connection: string }) => obs.connection)
      .filter((connection: string, i: number, all: string[]) => connection !== all[i - 1]);
    expect(connections).toEqual(['connecting', 'connected']);
    const revisions = [
      ...new Set(client.received.filter((m) => m.type === 'event').map((m) => m.revision as number)),
    ];
    expect(revisions).toEqual(revisions.map((_, i) => (revisions[0] ?? 0) + i));

    const savedAgain = client.waitForNew((m) => m.type === 'event' && m.event === 'replay.saved');
    expect((await command(server, 'save_replay')).status).toBe(200);
    await savedAgain;

    // The buffer stopped from OBS itself: the state follows and save_replay answers 409 with a way out.
    const operator = new OBSWebSocket();
    await operator.connect(studio.url, PASSWORD);
    try {
      const stopped = client.waitForNew(
        (m) => m.type === 'event' && m.data?.obs?.replayBufferActive === false,
      );
      await operator.call('StopReplayBuffer');
      await stopped;
      const refused = await command(server, 'save_replay');
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ ok: false, error: 'conflict' });
      expect(refused.body.message).toContain('Start Replay Buffer');
    } finally {
      await operator.disconnect();
    }
  });

  it('with a wrong password save_replay answers 503 and the state never says connected', async () => {
    const server = await build({ overrides: { obs: { url: studio.url, password: 'wrong', enabled: true } } });
    const client = await connect(server.wsUrl);
    await client.next();
    const refused = await command(server, 'save_replay');
    expect(refused.status).toBe(503);
    expect((await get(server, '/api/state')).body.state.obs.connection).not.toBe('connected');
  });
});
