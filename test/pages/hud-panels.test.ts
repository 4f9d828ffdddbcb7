/**
 * The HUD overlay's other panels in real Chromium: player stats, sponsor overlay and event badge
 * (with images uploaded through the operator app's API), the replay OBS saved (a clip made here,
 * reported by a stand-in OBS socket), and the overlay pages counted in the operator app.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, get, ok, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { panelApi, seriesInProgress } from '../helpers/hud.ts';
import { standInObs } from '../helpers/hud-pages.ts';
import { postLiveGame } from '../helpers/live-game.ts';
import { makeClip, makeLogo } from '../helpers/media.ts';

const FULL_HD = { width: 1920, height: 1080 };

describe.skipIf(!chromiumAvailable)('the HUD overlay panels in Chromium', () => {
  const chromium = chromiumPerFile();

  async function newPage(): Promise<Page> {
    const context = await chromium.newContext(FULL_HD);
    return context.newPage();
  }

  async function overlay(server: RunningServer): Promise<Page> {
    const page = await newPage();
    await page.goto(`${server.applicationUrl}/hud`);
    await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
    return page;
  }

  const panel = (page: Page, name: string, visible: boolean, extra = '') =>
    page.locator(`[data-panel="${name}"][data-visible="${visible}"]${extra}`).waitFor({ state: 'attached' });

  it("show_player_stats shows the player of the slot, never the operator's note, and closes after durationMs", async () => {
    const server = await build();
    const page = await overlay(server);
    await seriesInProgress(server, { roster: false });
    await postLiveGame(server);
    await ok(server, 'show_player_stats', { slot: 8, provider: 'live', name: 'NOTE FOR THE DESK' });
    await panel(page, 'stats', true, '[data-slot-shown="8"][data-provider="live"]');
    await expect(page.locator('[data-stats-name]').textContent()).resolves.toBe('Perfecto');
    await expect(page.locator('[data-panel="stats"]').textContent()).resolves.not.toContain('NOTE');
    // Timed from before the command: the server's timer cannot start earlier, however late the page is.
    const sentAt = Date.now();
    await ok(server, 'show_player_stats', { slot: 0, durationMs: 600 });
    await panel(page, 'stats', true, '[data-slot-shown="0"][data-provider="live"]');
    await expect(page.locator('[data-stats-name]').textContent()).resolves.toBe('electronic');
    await panel(page, 'stats', false);
    // Less a margin: a timer runs from the event loop's cached clock, a few ms behind Date.now().
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(550);
    expect((await get(server, '/api/state')).body.state.statsVisible).toBe(false);
  });

  it('toggle_stats, show_stats, hide_stats: the observed player; with no player, the flag and nothing on air', async () => {
    const server = await build();
    const page = await overlay(server);
    await panel(page, 'stats', false);
    // No game data: nothing to show, so nothing is drawn (the operator app says why).
    await ok(server, 'toggle_stats');
    expect((await get(server, '/api/state')).body.state.statsVisible).toBe(true);
    await panel(page, 'stats', false);
    await expect(page.locator('[data-panel="stats"]').textContent()).resolves.toBe('');
    await ok(server, 'hide_stats');

    await postLiveGame(server); // s1mple observed
    await ok(server, 'toggle_stats');
    await panel(page, 'stats', true, '[data-slot-shown="7"]');
    await ok(server, 'hide_stats');
    await panel(page, 'stats', false);
    await ok(server, 'show_stats');
    await panel(page, 'stats', true);
    await ok(server, 'toggle_stats');
    await panel(page, 'stats', false);
  });

  it('set_sponsor_overlay and set_event_badge: shown at their position with the uploaded images, rotating', async () => {
    const server = await build();
    const page = await overlay(server);
    const api = await panelApi(server);
    const images = [
      await makeLogo(page, { text: 'HYPERION', colour: '#e0413a' }),
      await makeLogo(page, { text: 'NORDSTREAM', colour: '#2f7de1' }),
    ];
    const uploaded = [];
    for (const image of images) {
      const answer = await api.upload(image);
      expect(answer.status).toBe(200);
      uploaded.push(answer.body.media.id as string);
    }
    const logo = (
      await api.upload(
        await makeLogo(page, { text: 'IEM', colour: '#f5c84c', width: 200, height: 200, round: true }),
      )
    ).body.media.id as string;
    expect(
      (
        await api.settings({
          branding: {
            eventLogo: logo,
            sponsors: uploaded.map((image, i) => ({ name: ['Hyperion', 'Nordstream'][i], image })),
          },
        })
      ).status,
    ).toBe(200);
    await ok(server, 'set_event_name', { name: 'IEM Cologne 2026' });

    await ok(server, 'set_sponsor_overlay', { enabled: true, position: 'bottom-left' });
    await panel(page, 'sponsor', true, '[data-position="bottom-left"]');
    await page.locator('[data-panel="sponsor"] img[data-sponsor="0"][data-current="true"]').waitFor();
    expect(await page.locator('[data-panel="sponsor"] img').count()).toBe(2);
    // The image is served by the application server from the data directory.
    const served = await fetch(`${server.applicationUrl}/media/${uploaded[0]}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(images[0] as Buffer)).toBe(true);
    // Rotation: the second sponsor takes its turn by itself.
    await page
      .locator('[data-panel="sponsor"] img[data-sponsor="1"][data-current="true"]')
      .waitFor({ timeout: 12_000 });

    await ok(server, 'set_event_badge', { enabled: true, position: 'top-right' });
    await panel(page, 'badge', true, '[data-position="top-right"]');
    await expect(page.locator('[data-panel="badge"]').textContent()).resolves.toContain('IEM Cologne 2026');
    await ok(server, 'set_event_badge', { position: 'top-center' });
    await panel(page, 'badge', true, '[data-position="top-center"]');
    await ok(server, 'set_sponsor_overlay', { enabled: false });
    await panel(page, 'sponsor', false);
    await ok(server, 'set_event_badge', { enabled: false });
    await panel(page, 'badge', false);
  });

  it('uploads: only images, at most 2 MiB, signed in only; all refusals in the envelope', async () => {
    const server = await build();
    const api = await panelApi(server);
    const text = await api.upload(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    );
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ ok: false, error: 'invalid_payload' });
    const big = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2 * 1024 * 1024)]);
    const tooBig = await api.upload(big);
    expect(tooBig.status).toBeGreaterThanOrEqual(400);
    expect(tooBig.status).toBeLessThan(500);
    expect(tooBig.body.ok).toBe(false);
    const anonymous = await fetch(`${server.applicationUrl}/api/panel/media`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: 'iVBORw0KGgo=' }),
    });
    expect(anonymous.status).toBe(401);
    // Checked as every payload: no field dropped or turned into text on the way.
    for (const body of ['{}', '[]', 'null', '{"data":"iVBORw0KGgo=","name":"x"}', '{"data":123}']) {
      const refused = await fetch(`${server.applicationUrl}/api/panel/media`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: api.cookie },
        body,
      });
      expect(refused.status, body).toBe(400);
      expect(await refused.json(), body).toMatchObject({ ok: false, error: 'invalid_payload' });
    }
    const noPath = await fetch(`${server.applicationUrl}/replay`);
    expect(noPath.status).toBe(400);
    expect(await noPath.json()).toMatchObject({ ok: false, error: 'invalid_payload' });
    expect((await fetch(`${server.applicationUrl}/media/..%2Fstate.json`)).status).toBe(404);
    const bad = await api.settings({ branding: { eventLogo: '../state.json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_payload' });
  });

  it('plays the replay OBS saved (a stand-in OBS reports a clip made here) and hides when it ends', async () => {
    const dir = await tempDir();
    const clipPath = join(dir, 'Replay 2026-11-24 13-37-00.webm');
    const server = await build({
      overrides: { obs: { enabled: true, url: 'ws://127.0.0.1:4455', password: 'stand-in' } },
      machine: (live) => live.provide({ actors: { obs: standInObs(clipPath) } }),
    });
    const page = await overlay(server);
    await writeFile(clipPath, await makeClip(page, 1500));
    // Before OBS reports it, the path is not served; other files never are.
    expect((await fetch(`${server.applicationUrl}/replay?path=${encodeURIComponent(clipPath)}`)).status).toBe(
      404,
    );

    await ok(server, 'save_replay');
    await panel(page, 'replay', true);
    const served = await fetch(`${server.applicationUrl}/replay?path=${encodeURIComponent(clipPath)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^video\/webm/);
    const other = join(dir, 'other.webm');
    await writeFile(other, 'x');
    expect((await fetch(`${server.applicationUrl}/replay?path=${encodeURIComponent(other)}`)).status).toBe(
      404,
    );

    // It really plays: time advances, then it ends and the panel hides by itself.
    await page.waitForFunction(() => {
      const video = (
        globalThis as unknown as { document: { querySelector(s: string): { currentTime: number } | null } }
      ).document.querySelector('[data-panel="replay"] video');
      return (video?.currentTime ?? 0) > 0.3;
    });
    await page.screenshot({ path: `${SCREENSHOTS}hud-replay.png`, omitBackground: true });
    await panel(page, 'replay', false);
  });

  it('the operator app shows how many overlay pages are connected', async () => {
    const server = await build();
    const operator = await newPage();
    await operator.goto(server.signInUrl());
    await operator.getByRole('tab', { name: 'HUD' }).click();
    const line = operator.locator('[data-card="sources"]');
    await line.getByText('0 HUD overlay pages are connected now').waitFor();
    const one = await overlay(server);
    await line.getByText('1 HUD overlay page is connected now').waitFor();
    const two = await overlay(server);
    await line.getByText('2 HUD overlay pages are connected now').waitFor();
    await operator.locator('[data-status="overlay"]', { hasText: '2 pages' }).waitFor();
    // A scene page is not an overlay page.
    const scene = await newPage();
    await scene.goto(`${server.applicationUrl}/scenes/versus`);
    await two.close();
    await line.getByText('1 HUD overlay page is connected now').waitFor();
    await one.close();
    await line.getByText('0 HUD overlay pages are connected now').waitFor();
  });
});
