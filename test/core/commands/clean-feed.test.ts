import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server.ts';
import { build, command, get, ok, tempDir } from '../../helpers/build.ts';
import { panelApi } from '../../helpers/hud.ts';
import { connect } from '../../helpers/ws-client.ts';

/** A 1x1 PNG: the smallest image the media store takes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/**
 * Everything on air as a client sees it: the HUD state's panel flags and scene (GET /api/state), and
 * the production overlays (a WebSocket's hello snapshot).
 */
async function onAir(server: RunningServer) {
  const { state } = (await get(server, '/api/state')).body;
  const client = await connect(server.wsUrl);
  const hello = await client.next();
  client.close();
  const { sponsorOverlay, eventBadge, cleanFeed } = hello.snapshot.production;
  return {
    feed: {
      scoreboardVisible: state.scoreboardVisible ?? false,
      vetoVisible: state.vetoVisible ?? false,
      statsVisible: state.statsVisible ?? false,
      radarVisible: state.radarVisible ?? false,
      hudWindowOpen: state.hudWindowOpen,
      senScene: state.senScene,
      sponsorOverlay,
      eventBadge,
    },
    cleanFeed,
  };
}

const NOTHING = {
  scoreboardVisible: false,
  vetoVisible: false,
  statsVisible: false,
  radarVisible: false,
  hudWindowOpen: false,
  senScene: null,
};

/** A show on air: the overlay window, the scoreboard, the radar, a scene, the sponsor and the badge. */
async function showOnAir(server: RunningServer) {
  const api = await panelApi(server);
  const image = (await api.upload(PNG)).body.media.id as string;
  await api.settings({ branding: { sponsors: [{ name: 'Hyperion', image }] } });
  await ok(server, 'set_event_name', { name: 'IEM Cologne 2026' });
  await ok(server, 'show_overlay');
  await ok(server, 'show_scoreboard');
  await ok(server, 'show_radar');
  await ok(server, 'hide_veto');
  await ok(server, 'show_sen_scene', { scene: 'versus' });
  await ok(server, 'set_sponsor_overlay', { enabled: true, position: 'top-center' });
  await ok(server, 'set_event_badge', { enabled: true });
}

describe('clean_feed and restore_feed (HTTP)', () => {
  it('takes everything off air in one revision, and the restore brings back exactly what was there', async () => {
    const server = await build();
    await showOnAir(server);
    const before = await onAir(server);
    expect(before.cleanFeed).toBeNull();
    const revision = (await get(server, '/api/state')).body.state.revision;

    const cleaned = await ok(server, 'clean_feed');
    expect(cleaned.state.revision).toBe(revision + 1);
    expect(cleaned.result.cleanFeed).toEqual({
      panels: { scoreboard: true, veto: false, stats: false, radar: true, overlay: true },
      scene: 'versus',
      sponsorOverlay: true,
      eventBadge: true,
    });
    const clean = await onAir(server);
    expect(clean.feed).toEqual({
      ...NOTHING,
      sponsorOverlay: { enabled: false, position: 'top-center' },
      eventBadge: { enabled: false, position: 'top-left' },
    });
    expect(clean.cleanFeed).toEqual(cleaned.result.cleanFeed);

    // A second press with nothing on air keeps the record: the restore still brings the show back.
    expect((await ok(server, 'clean_feed')).result.cleanFeed).toEqual(cleaned.result.cleanFeed);

    const restored = await ok(server, 'restore_feed');
    expect(restored.result.restored).toEqual(cleaned.result.cleanFeed);
    expect(await onAir(server)).toEqual(before);
  });

  it('the restore takes off what was put on air during the clean feed', async () => {
    const server = await build();
    await ok(server, 'show_overlay');
    await ok(server, 'show_scoreboard');
    const before = await onAir(server);
    await ok(server, 'clean_feed');
    await ok(server, 'show_veto');
    await ok(server, 'show_sen_scene', { scene: 'talents' });
    await ok(server, 'restore_feed');
    expect(await onAir(server)).toEqual(before);
  });

  it('a restore with nothing to restore is a 409 that changes nothing', async () => {
    const server = await build();
    await ok(server, 'show_overlay');
    const before = await onAir(server);
    const revision = (await get(server, '/api/state')).body.state.revision;
    const refused = await command(server, 'restore_feed');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      ok: false,
      error: 'conflict',
      message: 'nothing to restore: the feed was not cleaned (clean_feed), or it was restored already',
    });
    expect(await onAir(server)).toEqual(before);
    expect((await get(server, '/api/state')).body.state.revision).toBe(revision);

    // Once restored, a second restore is refused the same way.
    await ok(server, 'clean_feed');
    await ok(server, 'restore_feed');
    expect((await command(server, 'restore_feed')).status).toBe(409);
    // Neither takes a payload.
    expect((await command(server, 'clean_feed', { now: true })).status).toBe(400);
  });

  it('what to restore is saved: it survives a restart', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    await showOnAir(server);
    const before = await onAir(server);
    await ok(server, 'clean_feed');
    await server.close();

    const restarted = await build({ dataDir });
    expect((await onAir(restarted)).feed).toMatchObject(NOTHING);
    await ok(restarted, 'restore_feed');
    expect(await onAir(restarted)).toEqual(before);
  });
});
