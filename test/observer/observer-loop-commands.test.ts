/**
 * The closed loop's commands over the real servers (issue 32): observer_test_cut, observer_probe_again and
 * observer_pin, and GET /api/observer showing the strategy and each cut's outcome. Game frames are
 * POSTed to /gsi; the console is a stand-in that obeys cuts by name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { type Frame, fixture, postFrame, ROUND_SEQUENCE, toCs2, withToken } from '../helpers/gsi.ts';

const observerOf = async (server: RunningServer) => (await get(server, '/api/observer')).body.observer;
const post = (server: RunningServer, frame: Frame) =>
  postFrame(server.applicationPort, withToken(frame, server.service.game.token));

const consoles: ConsoleStandIn[] = [];
afterEach(async () => {
  for (const console of consoles.splice(0)) await console.close();
});

/** A subscribed service in suggest mode, linked to a stand-in console (connected before going live). */
async function suggesting() {
  const game = new ConsoleStandIn({ obeys: 'name' });
  await game.listen();
  consoles.push(game);
  const server = await build({ subscriptionActive: true });
  await command(server, 'set_observer_console', { host: '127.0.0.1', port: game.port });
  await command(server, 'set_smart_observer', { enabled: true, mode: 'suggest' });
  const connected = new Promise<void>((resolve) => {
    const check = async () => {
      if ((await observerOf(server)).link.connection === 'connected') resolve();
      else setImmediate(check);
    };
    void check();
  });
  await connected;
  return { server, game };
}

describe('the closed loop over HTTP', () => {
  it('a test cut before going live: refused without a suggestion, then sent by the strategy shown in GET /api/observer', async () => {
    const { server, game } = await suggesting();
    const early = await command(server, 'observer_test_cut');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ ok: false, error: 'conflict' });
    expect(early.body.message).toMatch(/game data/);

    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((frame: Frame) => toCs2(frame));
    for (const frame of frames.slice(0, 3)) expect((await post(server, frame)).status).toBe(200);
    const answer = await command(server, 'observer_test_cut');
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({
      camera: { strategy: 'name', source: 'probing' },
      cameraFollows: 'pending',
    });
    await game.linesReceived(2);
    expect(game.lines).toEqual(['spec_autodirector 0', 'spec_player "Big Daddy"']);
    const observer = await observerOf(server);
    expect(observer.state).toBe('suggest');
    expect(observer.lastCut).toMatchObject({
      name: 'Big Daddy',
      sent: true,
      strategy: 'name',
      outcome: 'pending',
    });
    expect(observer.camera.text).toMatch(/^Cut to Big Daddy by name/);
  });

  it('pin and probe: the operator fixes the strategy or starts over; a strategy not in the list is invalid_payload', async () => {
    const { server } = await suggesting();
    const pinned = await command(server, 'observer_pin', { strategy: 'lock' });
    expect(pinned.status).toBe(200);
    expect(pinned.body.result.camera).toMatchObject({ strategy: 'lock', source: 'pinned' });
    expect((await observerOf(server)).camera).toMatchObject({ strategy: 'lock', source: 'pinned' });

    const bad = await command(server, 'observer_pin', { strategy: 'spec_player "x"; quit' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_payload' });
    expect((await observerOf(server)).camera.strategy).toBe('lock');

    const probing = await command(server, 'observer_pin', { strategy: null });
    expect(probing.body.result.camera).toMatchObject({ strategy: 'name', source: 'probing' });
    const probe = await command(server, 'observer_probe_again');
    expect(probe.status).toBe(200);
    expect(probe.body.result.camera).toMatchObject({ source: 'probing', exhausted: false });
  });

  it('a pinned strategy is kept across a restart (the operator set it), and so is taking it back', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir, subscriptionActive: true });
    expect((await command(first, 'observer_pin', { strategy: 'lock' })).status).toBe(200);
    await first.close();
    const second = await build({ dataDir, subscriptionActive: true });
    expect((await observerOf(second)).camera).toMatchObject({ strategy: 'lock', source: 'pinned' });
    expect((await command(second, 'observer_pin', { strategy: null })).status).toBe(200);
    await second.close();
    const third = await build({ dataDir, subscriptionActive: true });
    expect((await observerOf(third)).camera).toMatchObject({ source: 'probing' });
  });
});
