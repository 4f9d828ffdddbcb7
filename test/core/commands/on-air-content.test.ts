/**
 * Nothing meant for the operator reaches the air: a command whose content cannot be shown (a slot
 * with no player, a provider with no source, a sponsor overlay with no sponsor, a badge with nothing
 * on it) is refused in the envelope and changes nothing, over HTTP and the WebSocket.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server.ts';
import { build, command, get, tempDir } from '../../helpers/build.ts';
import { postFrame, withToken } from '../../helpers/gsi.ts';
import { panelApi } from '../../helpers/hud.ts';
import { LIVE_PLAYERS, postLiveGame } from '../../helpers/live-game.ts';
import { connect } from '../../helpers/ws-client.ts';

/** A 1x1 PNG: the smallest image the media store takes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The answer of a refused command, after checking that it changed nothing a client can see. */
async function refusedUnchanged(server: RunningServer, action: string, payload: object) {
  const before = await Promise.all([get(server, '/api/state'), get(server, '/api/match')]);
  const answer = await command(server, action, payload);
  expect(answer.body.ok, JSON.stringify(answer.body)).toBe(false);
  const after = await Promise.all([get(server, '/api/state'), get(server, '/api/match')]);
  expect(after.map((read) => read.body)).toEqual(before.map((read) => read.body));
  return answer;
}

describe('content that cannot be shown is refused', () => {
  it('show_player_stats: a slot with no player in the game data, or no live values yet, is 409', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    const empty = await refusedUnchanged(server, 'show_player_stats', { slot: 3 });
    expect(empty).toEqual({
      status: 409,
      body: {
        ok: false,
        error: 'conflict',
        message: 'slot 3 has no player: no game data names one there (Integrations > Game)',
      },
    });

    // A roster-only frame (names, no map) carries no live values yet.
    const allplayers = { '76561198000000003': { name: 'jL', observer_slot: 2, team: 'CT' } };
    await postFrame(server.applicationPort, withToken({ allplayers }, server.service.game.token));
    expect(
      (await refusedUnchanged(server, 'show_player_stats', { slot: 3, provider: 'live' })).body.message,
    ).toBe('no live stats for slot 3 (jL) yet: the game data has no map');

    // After a restart the roster is back (saved) but the game has not sent the player again.
    await server.close();
    const restarted = await build({ dataDir });
    expect((await get(restarted, '/api/state')).body.state.roster).toEqual([{ slot: 3, name: 'jL' }]);
    expect((await refusedUnchanged(restarted, 'show_player_stats', { slot: 3 })).body.message).toBe(
      "slot 3 (jL) is not in the game data: the stats come from the game's player in that slot (Integrations > Game)",
    );

    // A live match: the slots of the game data show.
    await postLiveGame(restarted);
    const shown = await command(restarted, 'show_player_stats', {
      slot: LIVE_PLAYERS.rain.slot,
      name: 'a note',
    });
    expect(shown.status).toBe(200);
    expect(shown.body.result.stats).toMatchObject({ name: 'rain', slot: 3 });
  });

  it('show_player_stats: platform_b is not available, platform_a needs its key (503, nothing asked)', async () => {
    const server = await build();
    await postLiveGame(server);
    for (const provider of ['platform_a', 'platform_b']) {
      const answer = await refusedUnchanged(server, 'show_player_stats', { slot: 7, provider });
      expect(answer.status).toBe(503);
      expect(answer.body.error).toBe('unavailable');
    }
  });

  it('toggle_stats with no player to show answers as the spec says and draws nothing (the flag only)', async () => {
    const server = await build();
    const toggled = await command(server, 'toggle_stats');
    expect(toggled.body).toEqual({ ok: true, state: { revision: 1, statsVisible: true }, result: {} });
  });

  it('set_sponsor_overlay: turning it on needs a sponsor image; moving it and turning it off do not', async () => {
    const server = await build();
    const refused = await refusedUnchanged(server, 'set_sponsor_overlay', {
      enabled: true,
      position: 'top-left',
    });
    expect(refused).toEqual({
      status: 409,
      body: {
        ok: false,
        error: 'conflict',
        message:
          'the sponsor overlay has no sponsor image to show: upload one in the operator app (HUD > Event logo and sponsors)',
      },
    });
    expect((await command(server, 'set_sponsor_overlay', { position: 'top-left' })).body.result).toEqual({
      enabled: false,
      position: 'top-left',
    });
    expect((await command(server, 'set_sponsor_overlay', { enabled: false })).status).toBe(200);

    const api = await panelApi(server);
    const image = (await api.upload(PNG)).body.media.id as string;
    expect((await api.settings({ branding: { sponsors: [{ name: 'Hyperion', image }] } })).status).toBe(200);
    expect((await command(server, 'set_sponsor_overlay', { enabled: true })).body.result).toEqual({
      enabled: true,
      position: 'top-left',
    });
  });

  it('set_event_badge: turning it on needs the event name or the event logo', async () => {
    const server = await build();
    expect((await refusedUnchanged(server, 'set_event_badge', { enabled: true })).body.message).toBe(
      'the event badge has nothing to show: set the event name (set_event_name) or upload the event logo in the operator app (HUD > Event logo and sponsors)',
    );
    await command(server, 'set_event_name', { name: 'IEM Cologne 2026' });
    expect((await command(server, 'set_event_badge', { enabled: true })).body.result.enabled).toBe(true);

    // The logo alone is enough too.
    const logoOnly = await build();
    const api = await panelApi(logoOnly);
    const eventLogo = (await api.upload(PNG)).body.media.id as string;
    await api.settings({ branding: { eventLogo } });
    expect((await command(logoOnly, 'set_event_badge', { enabled: true })).status).toBe(200);
  });

  it('refuses over the WebSocket in the same envelope', async () => {
    const server = await build();
    const socket = await connect(server.wsUrl);
    await socket.waitFor((message) => message.type === 'hello');
    socket.send({ type: 'trigger', id: 1, action: 'set_sponsor_overlay', payload: { enabled: true } });
    socket.send({ type: 'trigger', id: 2, action: 'show_player_stats', payload: { slot: 0 } });
    const [sponsor, stats] = await Promise.all(
      [1, 2].map((id) => socket.waitFor((message) => message.type === 'result' && message.id === id)),
    );
    expect(sponsor).toMatchObject({ ok: false, status: 409, error: 'conflict' });
    expect(stats).toMatchObject({
      ok: false,
      status: 409,
      error: 'conflict',
      message: expect.stringContaining('slot 0'),
    });
  });
});
