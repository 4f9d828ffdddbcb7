import { describe, expect, it } from 'vitest';
import { build, command, get } from '../../helpers/build.ts';
import { panelApi } from '../../helpers/hud.ts';

/** A 1x1 PNG: the smallest image the media store takes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('scene and production commands', () => {
  it('show_sen_scene opens and changes the scene window; hide_sen_scene closes it', async () => {
    const server = await build({ headless: false });
    const opened = await command(server, 'show_sen_scene', { scene: 'versus' });
    expect(opened.body).toEqual({
      ok: true,
      state: { revision: 1, senScene: 'versus' },
      result: { scene: 'versus' },
    });
    expect((await command(server, 'show_sen_scene', { scene: 'mapRecap' })).body.state).toEqual({
      revision: 2,
      senScene: 'mapRecap',
    });
    expect((await command(server, 'show_sen_scene', { scene: 'mapRecap' })).body.state.revision).toBe(2);
    expect((await command(server, 'show_sen_scene', { scene: 'lobby' })).status).toBe(400);
    expect((await command(server, 'hide_sen_scene')).body).toEqual({
      ok: true,
      state: { revision: 3, senScene: null },
      result: { scene: null },
    });
    expect((await get(server, '/api/state')).body.state.senScene).toBeNull();
  });

  for (const action of ['set_sponsor_overlay', 'set_event_badge'] as const) {
    it(`${action} changes enabled and position; needs at least one field`, async () => {
      const server = await build();
      // Something to show: a sponsor image for the sponsor overlay, the event name for the badge.
      const api = await panelApi(server);
      const image = (await api.upload(PNG)).body.media.id as string;
      await api.settings({ branding: { sponsors: [{ name: 'Hyperion', image }] } });
      await command(server, 'set_event_name', { name: 'IEM Cologne 2026' });
      expect((await command(server, action, { enabled: true })).body.result).toMatchObject({ enabled: true });
      expect((await command(server, action, { position: 'top-center' })).body.result).toEqual({
        enabled: true,
        position: 'top-center',
      });
      expect((await command(server, action, {})).status).toBe(400);
      expect((await command(server, action, { position: 'middle' })).status).toBe(400);
      expect((await command(server, action, { enabled: 'maybe' })).status).toBe(400);
    });
  }

  it('set_smart_observer: enabling needs an active subscription', async () => {
    const server = await build();
    const refused = await command(server, 'set_smart_observer', { enabled: true });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ ok: false, error: 'unavailable' });
    expect(refused.body.message).toContain('subscription');
    // Other fields work without one.
    expect(
      (await command(server, 'set_smart_observer', { mode: 'auto', cinematicEnabled: true })).body.result,
    ).toEqual({
      enabled: false,
      mode: 'auto',
      cinematicEnabled: true,
    });
    const subscribed = await build({ subscriptionActive: true });
    expect((await command(subscribed, 'set_smart_observer', { enabled: true })).body.result.enabled).toBe(
      true,
    );
  });

  it('save_replay answers 503 while OBS is not connected', async () => {
    const server = await build();
    const { status, body } = await command(server, 'save_replay');
    expect(status).toBe(503);
    expect(body).toMatchObject({ ok: false, error: 'unavailable' });
    expect(body.message).toContain('OBS is not connected');
  });

  it('production settings need the main window; scenes and save_replay do not', async () => {
    const server = await build({ headless: false });
    expect((await command(server, 'set_event_badge', { enabled: true })).status).toBe(503);
    expect((await command(server, 'set_smart_observer', { mode: 'auto' })).status).toBe(503);
    expect((await command(server, 'save_replay')).body.message).toContain('OBS');
  });
});
