import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_MESSAGE_BYTES, PROTOCOL_VERSION } from '../../src/protocol/websocket.ts';
import { build, command, get } from '../helpers/build.ts';
import { connect } from '../helpers/ws-client.ts';

const BO1 = {
  boFormat: 'bo1',
  teamA: { name: 'B8' },
  teamB: { name: 'Falcons' },
  steps: [
    { type: 'ban', team: 'A', map: 'nuke' },
    { type: 'ban', team: 'B', map: 'mirage' },
    { type: 'decider', map: 'inferno' },
  ],
};

describe('WebSocket protocol', () => {
  it('a local client gets hello with the full snapshot at once, on / and on /ws', async () => {
    const server = await build();
    await command(server, 'veto_set', BO1);
    for (const path of ['/', '/ws']) {
      const client = await connect(`${server.wsUrl}${path}`);
      const hello = await client.next();
      expect(hello).toMatchObject({ type: 'hello', service: 'hud-automation', protocol: PROTOCOL_VERSION });
      expect(hello.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(hello.snapshot.revision).toBe(1);
      expect(hello.snapshot.state).toEqual((await get(server, '/api/state')).body.state);
      expect(hello.snapshot.match).toEqual((await get(server, '/api/match')).body.match);
      expect(hello.snapshot.veto).toEqual({ active: false });
      // A veto set whole waits to be revealed (docs/api.md).
      expect(hello.snapshot.reveal).toEqual({ revealed: 0, total: 3, instant: false });
      client.close();
    }
  });

  it('a trigger runs the command and answers with its id; its events arrive before the result', async () => {
    const server = await build();
    const client = await connect(server.wsUrl);
    await client.next(); // hello
    client.send({ type: 'trigger', id: 'btn-1', action: 'toggle_scoreboard' });
    const event = await client.next();
    expect(event).toEqual({
      type: 'event',
      event: 'hud.state',
      revision: 1,
      data: { scoreboardVisible: true },
    });
    expect(await client.next()).toEqual({
      type: 'result',
      id: 'btn-1',
      action: 'toggle_scoreboard',
      ok: true,
      state: { revision: 1, scoreboardVisible: true },
      result: {},
    });

    client.send({
      type: 'trigger',
      id: 7,
      action: 'set_map_result',
      payload: { map: 1, scoreA: 1, scoreB: 0 },
    });
    expect(await client.next()).toEqual({
      type: 'result',
      id: 7,
      action: 'set_map_result',
      ok: false,
      status: 409,
      error: 'conflict',
      message: expect.stringContaining('empty'),
    });
    client.send({ type: 'trigger', action: 'no_such_command' });
    expect(await client.next()).toMatchObject({
      type: 'result',
      id: null,
      ok: false,
      status: 404,
      error: 'unknown_action',
    });
  });

  it('every client sees every change in revision order, without gaps, under concurrent HTTP and WS commands', async () => {
    const server = await build();
    const watchers = await Promise.all([connect(server.wsUrl), connect(server.wsUrl), connect(server.wsUrl)]);
    for (const watcher of watchers) await watcher.next();
    const driver = await connect(server.wsUrl);
    await driver.next();

    const rounds = 40;
    const http = Array.from({ length: rounds }, () => command(server, 'toggle_scoreboard'));
    for (let i = 0; i < rounds; i++) driver.send({ type: 'trigger', id: i, action: 'toggle_veto' });
    await Promise.all(http);
    for (let i = 0; i < rounds; i++) await driver.waitFor((m) => m.type === 'result' && m.id === i);
    const final = (await get(server, '/api/state')).body.state.revision;
    expect(final).toBe(rounds * 2);

    for (const watcher of [...watchers, driver]) {
      await watcher.waitFor((m) => m.type === 'event' && m.revision === final);
      const revisions = watcher.received.filter((m) => m.type === 'event').map((m) => m.revision);
      expect(revisions).toEqual(Array.from({ length: final }, (_, i) => i + 1));
    }
  });

  it('one command that changes several things is one revision with several events', async () => {
    const server = await build();
    const client = await connect(server.wsUrl);
    await client.next();
    client.send({
      type: 'trigger',
      id: 'v',
      action: 'veto_start',
      payload: { boFormat: 'bo1', teamA: { name: 'A' }, teamB: { name: 'B' } },
    });
    const result = await client.waitFor((m) => m.type === 'result');
    const events = client.received.filter((m) => m.type === 'event');
    expect(new Set(events.map((e) => e.revision))).toEqual(new Set([1]));
    // The HUD state carries the undo history, which veto_start joined.
    expect(events.map((e) => e.event).sort()).toEqual(['hud.state', 'match', 'veto.session']);
    expect(events.find((e) => e.event === 'veto.session').data).toEqual(result.result);
  });

  it('application ping/pong and a fresh snapshot on request', async () => {
    const server = await build();
    const client = await connect(server.wsUrl);
    await client.next();
    client.send({ type: 'ping', id: 'p' });
    expect(await client.next()).toEqual({ type: 'pong', id: 'p', revision: 0 });
    await command(server, 'show_sen_scene', { scene: 'versus' });
    await client.next(); // the event
    client.send({ type: 'snapshot', id: 's' });
    const fresh = await client.next();
    expect(fresh).toMatchObject({
      type: 'snapshot',
      id: 's',
      snapshot: { revision: 1, state: { senScene: 'versus' } },
    });
  });

  it('malformed messages get an error message and the connection stays usable', async () => {
    const server = await build();
    const client = await connect(server.wsUrl);
    await client.next();
    for (const bad of [
      'not json',
      '[]',
      '{"type":"teleport"}',
      '{"type":"trigger"}',
      '{"type":"trigger","action":"x","extra":1}',
    ]) {
      client.send(bad);
      const answer = await client.next();
      expect(answer, bad).toMatchObject({ type: 'error', error: 'invalid_payload' });
      expect(answer.message.length).toBeGreaterThan(5);
    }
    client.send({ type: 'trigger', id: 'ok', action: 'show_stats' });
    expect(await client.waitFor((m) => m.type === 'result')).toMatchObject({ ok: true, id: 'ok' });
  });

  it('an id the protocol cannot carry back is not echoed: the answer says why and the server lives on', async () => {
    const server = await build();
    // The automation server's socket and a HUD page's socket on the application server.
    for (const url of [server.wsUrl, `${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`]) {
      const client = await connect(url);
      await client.waitFor((m) => m.type === 'hello');
      const long = 'x'.repeat(129);
      for (const bad of [
        `{"type":"ping","id":"${long}"}`,
        '{"type":"ping","id":1e400}',
        `{"type":"snapshot","id":"${long}"}`,
        `{"type":"trigger","id":"${long}","action":"show_stats"}`,
        '{"type":"trigger","id":-1e400,"action":"show_stats"}',
      ]) {
        client.send(bad);
        const answer = await client.waitForNew((m) => m.type === 'error');
        expect(answer, bad).toMatchObject({ type: 'error', id: null, error: 'invalid_payload' });
        expect(answer.message, bad).toMatch(/\/id/);
      }
      client.send({ type: 'ping', id: 'x'.repeat(128) });
      expect(await client.waitForNew((m) => m.type === 'pong')).toMatchObject({ id: 'x'.repeat(128) });
      client.close();
    }
    expect((await get(server, '/health')).status).toBe(200);
    // Refused triggers ran nothing.
    expect((await get(server, '/api/state')).body.state.revision).toBe(0);
  });

  it('an oversized message closes the socket with 1009', async () => {
    const server = await build();
    const client = await connect(server.wsUrl);
    await client.next();
    client.send({
      type: 'trigger',
      action: 'set_event_name',
      payload: { name: 'x'.repeat(MAX_MESSAGE_BYTES) },
    });
    expect((await client.closed).code).toBe(1009);
    expect((await get(server, '/health')).status).toBe(200);
  });

  it('a WebSocket upgrade with an Origin header is refused before the upgrade', async () => {
    const server = await build();
    const socket = new WebSocket(server.wsUrl, { headers: { origin: 'https://evil.example' } });
    const status = await new Promise<number>((resolve) => {
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    socket.on('error', () => {});
    socket.terminate();
    expect(status).toBe(403);
  });

  it('a Host header that does not name this machine is refused (DNS rebinding)', async () => {
    const server = await build();
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.httpUrl}/api/state`,
        { headers: { host: 'attacker.example:44555' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    expect((await get(server, '/api/state')).status).toBe(200);
  });
});
