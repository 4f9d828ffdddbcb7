/**
 * Real frames on air under the names, photos and flags of the database (issue 34), in real Chromium
 * at 1920x1080 and 1280x720: the pro GOTV capture (test/fixtures) with four of its players saved
 * under other names (Cyrillic, CJK), one of them with a photo uploaded as any image, the others
 * without (the designed fallback), one not saved at all (the game's name). The player boxes, the
 * scoreboard, the observed card and the stats panel show the saved names; the observed card and the
 * stats panel the photo or the fallback and the flag (flag-icons, served by the application server).
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { panelApi, seriesInProgress, settled, teamLogos } from '../helpers/hud.ts';
import { LIVE_PLAYERS, postLiveGame } from '../helpers/live-game.ts';
import { makeLogo } from '../helpers/media.ts';

/** What the page functions read of the document (the tests' types have no DOM). */
type ImageDoc = { querySelector(selector: string): unknown };

const SIZES: ViewportSize[] = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
];

const { s1mple, electronic, ropz, rain, broky } = LIVE_PLAYERS;

describe.skipIf(!chromiumAvailable)('the HUD shows who the database says the players are', () => {
  const chromium = chromiumPerFile();

  async function overlay(server: RunningServer, viewport: ViewportSize): Promise<Page> {
    const page = await (await chromium.newContext(viewport)).newPage();
    page.setDefaultTimeout(8_000);
    await page.goto(`${server.applicationUrl}/hud`);
    await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
    return page;
  }

  it('names, photos and flags on every on-air place; the game name for one not saved', async () => {
    const server = await build({ gameReceivingTimeoutMs: 600_000 });
    const setup = await overlay(server, SIZES[0] as ViewportSize);
    await seriesInProgress(server, { roster: false });
    await teamLogos(server, setup);
    const api = await panelApi(server);
    const face = await makeLogo(setup, { text: 'S', colour: '#7a5cff', width: 240, height: 280 });
    const photo = (await api.upload(face)).body.media.url as string;
    await ok(server, 'save_team', { name: 'Natus Vincere', tag: 'NAVI', country: 'UA' });
    await ok(server, 'save_player', {
      steamid: s1mple.steamid,
      name: 'Саша',
      realName: 'Александр Костылев',
      country: 'UA',
      photo,
      team: 'NAVI',
    });
    await ok(server, 'save_player', {
      steamid: electronic.steamid,
      name: 'Денис',
      country: 'RU',
      team: 'NAVI',
    });
    await ok(server, 'save_player', {
      steamid: ropz.steamid,
      name: '罗普兹',
      realName: 'Robin Kool',
      country: 'EE',
    });
    await ok(server, 'save_player', { steamid: rain.steamid, name: '雨', country: 'NO' });
    await postLiveGame(server);

    for (const viewport of SIZES) {
      const size = `${viewport.width}x${viewport.height}`;
      const page = await overlay(server, viewport);
      const observed = '[data-panel="observed"][data-visible="true"]';
      await page.locator(`${observed} [data-observed-name]:text("Саша")`).waitFor();
      // The player boxes: saved names; broky, not saved, under the game's name.
      const boxName = (slot: number) =>
        page.locator(`[data-team-boxes] [data-slot="${slot}"] .pbox__name`).first();
      expect(await boxName(s1mple.slot).textContent()).toBe('Саша');
      expect(await boxName(ropz.slot).textContent()).toBe('罗普兹');
      expect(await boxName(rain.slot).textContent()).toBe('雨');
      expect(await boxName(broky.slot).textContent()).toBe('broky');
      // The observed card: the uploaded photo and the flag, both loaded from the application server.
      const portrait = page.locator(`${observed} img.observed__portrait`);
      expect(await portrait.getAttribute('data-photo')).toBe(photo);
      await page.waitForFunction(
        () =>
          (
            (globalThis as unknown as { document: ImageDoc }).document.querySelector(
              '[data-panel="observed"] img.observed__portrait',
            ) as { naturalWidth: number } | null
          )?.naturalWidth === 240,
      );
      const flag = page.locator(`${observed} img[data-flag="UA"]`);
      await page.waitForFunction(
        () =>
          ((
            (globalThis as unknown as { document: ImageDoc }).document.querySelector(
              '[data-panel="observed"] img[data-flag="UA"]',
            ) as { naturalWidth: number } | null
          )?.naturalWidth ?? 0) > 0,
      );
      expect(new URL((await flag.getAttribute('src')) as string, server.applicationUrl).origin).toBe(
        new URL(server.applicationUrl).origin,
      );
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-identities-observed-${size}.png` });
    }

    // The stats panel of a saved player without a photo: the fallback, the flag and the real name.
    await ok(server, 'show_player_stats', { slot: ropz.slot });
    await ok(server, 'show_scoreboard');
    for (const viewport of SIZES) {
      const size = `${viewport.width}x${viewport.height}`;
      const page = await overlay(server, viewport);
      const stats = `[data-panel="stats"][data-visible="true"][data-slot-shown="${ropz.slot}"]`;
      await page.locator(`${stats} [data-stats-name]:text("罗普兹")`).waitFor();
      expect(await page.locator(`${stats} [data-photo="none"]`).textContent()).toBe('罗普');
      expect(await page.locator(`${stats} img[data-flag="EE"]`).count()).toBe(1);
      expect(await page.locator(`${stats} [data-stats-real-name]`).textContent()).toBe('Robin Kool');
      // The scoreboard's rows: the saved names too.
      const board = page.locator('[data-panel="scoreboard"][data-visible="true"]');
      await board.waitFor();
      const names = await board.locator('[data-player-name]').allTextContents();
      expect(names).toEqual(expect.arrayContaining(['Саша', 'Денис', '罗普兹', '雨', 'broky']));
      expect(names).not.toContain('s1mple');
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-identities-stats-${size}.png` });
    }
  });
});
