/**
 * Issue 33, first run: an OBS browser source loaded before the match is set shows nothing on air,
 * not "TEAM A / TEAM B / MATCH"; the top bar comes once both teams are set.
 */
import { describe, expect, it } from 'vitest';
import { build, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { settled } from '../helpers/hud.ts';

describe.skipIf(!chromiumAvailable)('the HUD before the match is set', () => {
  const chromium = chromiumPerFile();

  for (const viewport of [
    { width: 1920, height: 1080 },
    { width: 1280, height: 720 },
  ]) {
    it(`${viewport.width}x${viewport.height}: no placeholder names on air; the bar comes with the teams`, async () => {
      const server = await build();
      const context = await chromium.newContext(viewport);
      const page = await context.newPage();
      await page.goto(`${server.applicationUrl}/hud`);
      await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
      await page.locator('[data-topbar][data-visible="false"]').waitFor({ state: 'attached' });
      expect(await page.locator('[data-topbar]').isVisible()).toBe(false);
      const words = await page.locator('[data-page="hud"]').innerText();
      expect(words).not.toMatch(/team a|team b|match/i);
      await settled(page);
      await page.screenshot({
        path: `${SCREENSHOTS}hud-before-setup-${viewport.width}x${viewport.height}.png`,
      });

      await ok(server, 'set_teams', { teamA: { name: 'Natus Vincere' }, teamB: { name: 'FaZe Clan' } });
      await page
        .locator('[data-topbar][data-visible="true"] [data-team="A"]', { hasText: 'Natus Vincere' })
        .waitFor();
    });
  }
});
