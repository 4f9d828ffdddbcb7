/**
 * The stats panel with FACEIT's figures and where it goes, in real Chromium at 1920x1080 and
 * 1280x720: on its player's team's side, clear of the player boxes and the observed box, nothing
 * overflowing its box; the sponsor overlay and the badge beside it (a bottom corner on the same side
 * gives way while the game is live); and nothing at all on air when there is nothing to show. The
 * figures come from a stand-in FACEIT Data API (test/helpers/faceit-stand-in.ts), the game data from
 * the pro GOTV capture.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, get, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { CAPTURED, STAND_IN_KEY, startFaceitStandIn } from '../helpers/faceit-stand-in.ts';
import { panelApi, seriesInProgress, settled, teamLogos } from '../helpers/hud.ts';
import { LIVE_PLAYERS, postLiveGame } from '../helpers/live-game.ts';
import { makeLogo } from '../helpers/media.ts';

const SIZES: ViewportSize[] = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * What overflows inside a panel: a descendant whose box leaves the panel's, or an element that does
 * not clip and whose content is wider or taller than its box. Empty when everything fits.
 */
function overflowsIn(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    type El = {
      tagName: string;
      className: string;
      clientWidth: number;
      clientHeight: number;
      scrollWidth: number;
      scrollHeight: number;
      getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
      querySelectorAll(selector: string): ArrayLike<El>;
    };
    const doc = (globalThis as unknown as { document: { querySelector(s: string): El | null } }).document;
    const style = (el: El) =>
      (globalThis as unknown as { getComputedStyle(el: El): Record<string, string> }).getComputedStyle(el);
    const panel = doc.querySelector(selector);
    if (!panel) return [`${selector} is not in the page`];
    const outer = panel.getBoundingClientRect();
    const found: string[] = [];
    for (const el of [panel, ...Array.from(panel.querySelectorAll('*'))]) {
      const name = `${el.tagName.toLowerCase()}.${el.className}`;
      const box = el.getBoundingClientRect();
      if (
        box.left < outer.left - 1 ||
        box.right > outer.right + 1 ||
        box.top < outer.top - 1 ||
        box.bottom > outer.bottom + 1
      ) {
        found.push(`${name} leaves the panel`);
      }
      const css = style(el);
      if (css.display === 'inline' || css.display === 'contents') continue;
      if (css.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1)
        found.push(`${name} is too wide`);
      if (css.overflowY === 'visible' && el.scrollHeight > el.clientHeight + 1)
        found.push(`${name} is too tall`);
    }
    return found;
  }, selector);
}

describe.skipIf(!chromiumAvailable)(
  'the stats panel with FACEIT figures, the sponsor overlay and the badge',
  () => {
    const chromium = chromiumPerFile();

    async function overlay(server: RunningServer, viewport: ViewportSize): Promise<Page> {
      const page = await (await chromium.newContext(viewport)).newPage();
      page.setDefaultTimeout(8_000);
      await page.goto(`${server.applicationUrl}/hud`);
      await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
      return page;
    }

    const box = async (page: Page, selector: string): Promise<Box> => {
      const found = await page.locator(selector).boundingBox();
      if (!found) throw new Error(`${selector} has no box`);
      return found;
    };

    it('goes on its player team side, clear of the boxes, with the figures and nothing overflowing', async () => {
      const { s1mple, ropz } = LIVE_PLAYERS;
      const standIn = await startFaceitStandIn({ [s1mple.steamid]: CAPTURED, [ropz.steamid]: CAPTURED });
      const server = await build({
        faceitApiKey: STAND_IN_KEY,
        overrides: {
          sources: { faceitDataApiUrl: standIn.dataApiUrl, faceitKeyHost: new URL(standIn.dataApiUrl).host },
        },
        // One frame stands for the live game for the whole test (the boxes show while it is "receiving").
        gameReceivingTimeoutMs: 600_000,
      });
      const setup = await overlay(server, SIZES[0] as ViewportSize);
      await seriesInProgress(server, { roster: false });
      await teamLogos(server, setup);
      const api = await panelApi(server);
      const upload = async (image: Buffer) => (await api.upload(image)).body.media.id as string;
      const sponsor = await upload(await makeLogo(setup, { text: 'HYPERION', colour: '#e0413a' }));
      const logo = await upload(
        await makeLogo(setup, { text: 'IEM', colour: '#1d5fe0', width: 200, height: 200, round: true }),
      );
      await api.settings({ branding: { eventLogo: logo, sponsors: [{ name: 'Hyperion', image: sponsor }] } });
      await postLiveGame(server);
      // NAVI (team A) plays T in the capture: s1mple's team is on the left, ropz's (FaZe, team B) right.
      await ok(server, 'show_player_stats', { slot: s1mple.slot, provider: 'platform_a' });
      await ok(server, 'set_sponsor_overlay', { enabled: true, position: 'bottom-right' });
      await ok(server, 'set_event_badge', { enabled: true, position: 'top-left' });

      for (const viewport of SIZES) {
        const size = `${viewport.width}x${viewport.height}`;
        const page = await overlay(server, viewport);
        const stats = '[data-panel="stats"][data-visible="true"]';
        await page
          .locator(`${stats}[data-stats-team="A"][data-provider="platform_a"][data-slot-shown="7"]`)
          .waitFor();
        await page.locator('[data-panel="players"][data-visible="true"]').waitFor({ state: 'attached' });
        await page.locator('[data-panel="badge"][data-visible="true"] img').waitFor();
        await page.locator('[data-panel="sponsor"][data-visible="true"] img[data-current="true"]').waitFor();
        await settled(page);

        // The captured figures, in their hooks.
        const figures = page.locator(`${stats} [data-stats-source="platform_a"]`);
        expect(await page.locator(`${stats} [data-stats-name]`).textContent()).toBe('s1mple');
        expect(await page.locator(`${stats} [data-team="A"]`).textContent()).toBe('Natus Vincere');
        for (const [hook, value, text] of [
          ['level', '10', '10'],
          ['elo', '4627', '4,627'],
          ['matches', '7199', '7,199 matches'],
          ['kd', '1.45', '1.45'],
          ['win-rate', '61', '61%'],
          ['headshots', '60', '60%'],
          ['adr', '114.15', '114.2'],
        ] as const) {
          const cell = figures.locator(`[data-${hook}]`);
          expect(await cell.getAttribute(`data-${hook}`), hook).toBe(value);
          expect(await cell.textContent(), hook).toBe(text);
        }
        expect(await figures.locator('[data-recent]').getAttribute('data-recent')).toBe('WWWLW');

        // Team A's side: the left half, above team A's boxes, clear of every box and of the badge.
        const stage = { width: viewport.width, height: viewport.height };
        const panel = await box(page, stats);
        expect(panel.x + panel.width).toBeLessThanOrEqual(stage.width / 2);
        expect(panel.y + panel.height).toBeLessThanOrEqual(stage.height);
        const teamA = await box(page, '[data-team-boxes="A"]');
        expect(panel.y + panel.height).toBeLessThanOrEqual(teamA.y);
        for (const other of [
          '[data-team-boxes="A"]',
          '[data-team-boxes="B"]',
          '[data-panel="observed"]',
          '[data-panel="badge"]',
          '[data-panel="sponsor"]',
        ]) {
          expect(intersects(panel, await box(page, other)), `stats and ${other} at ${size}`).toBe(false);
        }
        // The sponsor overlay (bottom right, above team B's boxes) and the badge fit their boxes too.
        const sponsorBox = await box(page, '[data-panel="sponsor"]');
        expect(intersects(sponsorBox, await box(page, '[data-team-boxes="B"]'))).toBe(false);
        for (const selector of ['[data-panel="stats"]', '[data-panel="sponsor"]', '[data-panel="badge"]']) {
          expect(await overflowsIn(page, selector), `${selector} at ${size}`).toEqual([]);
        }
        await page.screenshot({ path: `${SCREENSHOTS}hud-stats-faceit-${size}.png` });
        if (viewport.width === 1920) {
          await page.screenshot({ path: `${SCREENSHOTS}hud-stats-sponsor-badge.png`, omitBackground: true });
        }
      }

      // Team B's player: the panel moves to the right; the sponsor in the bottom-right corner gives
      // way while the stats are on air there, and comes back when they close.
      await ok(server, 'show_player_stats', { slot: ropz.slot, provider: 'platform_a' });
      for (const viewport of SIZES) {
        const size = `${viewport.width}x${viewport.height}`;
        const page = await overlay(server, viewport);
        const stats = '[data-panel="stats"][data-visible="true"][data-stats-team="B"]';
        await page.locator(`${stats}[data-slot-shown="4"]`).waitFor();
        await page.locator('[data-panel="sponsor"][data-visible="false"][data-yield="stats"]').waitFor({
          state: 'attached',
        });
        await settled(page);
        expect(await page.locator(`${stats} [data-stats-name]`).textContent()).toBe('ropz');
        const panel = await box(page, stats);
        expect(panel.x).toBeGreaterThanOrEqual(viewport.width / 2);
        const teamB = await box(page, '[data-team-boxes="B"]');
        expect(panel.y + panel.height).toBeLessThanOrEqual(teamB.y);
        for (const other of ['[data-team-boxes="A"]', '[data-panel="observed"]', '[data-panel="badge"]']) {
          expect(intersects(panel, await box(page, other)), `stats and ${other} at ${size}`).toBe(false);
        }
        expect(await overflowsIn(page, '[data-panel="stats"]'), size).toEqual([]);
        await page.screenshot({ path: `${SCREENSHOTS}hud-stats-faceit-team-b-${size}.png` });
      }
      const page = await overlay(server, SIZES[1] as ViewportSize);
      await ok(server, 'hide_stats');
      await page.locator('[data-panel="sponsor"][data-visible="true"]').waitFor();
    }, 120_000);

    it('puts nothing on air without content: no player, no sponsor, no operator text', async () => {
      const server = await build();
      const page = await overlay(server, SIZES[0] as ViewportSize);
      const api = await panelApi(server);
      const sponsor = (await api.upload(await makeLogo(page, { text: 'HYPERION', colour: '#e0413a' }))).body
        .media.id as string;
      await api.settings({ branding: { sponsors: [{ name: 'Hyperion', image: sponsor }] } });
      await ok(server, 'set_event_name', { name: 'IEM Cologne 2026' });
      await ok(server, 'set_sponsor_overlay', { enabled: true });
      await ok(server, 'set_event_badge', { enabled: true });
      await page.locator('[data-panel="sponsor"][data-visible="true"]').waitFor();
      await page.locator('[data-panel="badge"][data-visible="true"]').waitFor();

      // The content goes away while they are on: they leave the air, their settings stay.
      await api.settings({ branding: { sponsors: [] } });
      await ok(server, 'set_event_name', { name: '' });
      await page.locator('[data-panel="sponsor"][data-visible="false"]').waitFor({ state: 'attached' });
      await page.locator('[data-panel="badge"][data-visible="false"]').waitFor({ state: 'attached' });
      expect((await get(server, '/api/match')).body.match.eventName).toBe('');
      // toggle_stats with no player: the flag is on, the panel is not.
      await ok(server, 'toggle_stats');
      await page.locator('[data-panel="stats"][data-visible="false"]').waitFor({ state: 'attached' });
      await settled(page);
      // The rendered text, as a viewer sees it: hidden panels' words are in the DOM, not on air.
      // biome-ignore lint/performance/useDomNodeTextContent: only innerText leaves out what is hidden
      const onAir = await page.locator('[data-page="hud"]').innerText();
      for (const words of ['Presented by', 'No player', 'configured', 'stats', 'Our partners']) {
        expect(onAir.toLowerCase()).not.toContain(words.toLowerCase());
      }
    });

    it('the operator app says why nothing is on air and shows each refusal where it was asked', async () => {
      const server = await build();
      const operator = await (await chromium.newContext({ width: 1440, height: 900 })).newPage();
      operator.setDefaultTimeout(8_000);
      await operator.goto(server.signInUrl());
      await operator.getByRole('tab', { name: 'HUD' }).click();
      const card = operator.locator('[data-card="player-stats"]');

      // toggle_stats with no game data: on, nothing on air, and why.
      await ok(server, 'toggle_stats');
      await card.locator('[data-stats-on-air="false"]', { hasText: 'no player to show' }).waitFor();

      // FACEIT without its key, and an empty slot: the refusal in words under the form.
      await card.getByLabel('Provider').selectOption('platform_a');
      await card.getByRole('button', { name: 'Show stats' }).click();
      await card.locator('[data-error]', { hasText: 'FACEIT_API_KEY' }).waitFor();
      expect(await card.locator('option[value="platform_b"]').isDisabled()).toBe(true);
      await card.getByLabel('Provider').selectOption('live');
      await card.getByRole('button', { name: 'Show stats' }).click();
      await card.locator('[data-error]', { hasText: 'slot 1 has no player' }).waitFor();

      // With the game live the slots say who is there, and what is on air.
      await postLiveGame(server);
      await card.locator('option[value="7"][data-in-game="true"]').waitFor({ state: 'attached' });
      await card.getByLabel('Slot').selectOption('7');
      await card.getByRole('button', { name: 'Show stats' }).click();
      await card
        .locator('[data-stats-on-air="true"]', { hasText: 'On air: slot 7 (s1mple), live stats' })
        .waitFor();

      // The sponsor overlay: refused without an image; on without one (removed later), it says so.
      // Its switch is on the Live page; the HUD view says why nothing is on air.
      await operator.getByRole('tab', { name: 'Live' }).click();
      const sponsorSwitch = operator.locator('[data-live-switch="sponsor"]');
      await sponsorSwitch.click();
      await operator
        .locator('[data-card="live-switches"] [data-error]', { hasText: 'no sponsor image to show' })
        .waitFor();
      const api = await panelApi(server);
      const image = (await api.upload(await makeLogo(operator, { text: 'HYPERION', colour: '#e0413a' }))).body
        .media.id as string;
      await api.settings({ branding: { sponsors: [{ name: 'Hyperion', image }] } });
      await sponsorSwitch.click();
      await operator.locator('[data-live-switch="sponsor"][data-state="on"]').waitFor();
      await api.settings({ branding: { sponsors: [] } });
      await operator.locator('[data-live-switch="sponsor"]', { hasText: 'On · empty' }).waitFor();
      await operator.getByRole('tab', { name: 'HUD' }).click();
      const sponsor = operator.locator('[data-production="sponsorOverlay"]');
      await sponsor.locator('[data-off-air="sponsorOverlay"]', { hasText: 'no sponsor image' }).waitFor();
      await operator.screenshot({ path: `${SCREENSHOTS}operator-hud-stats-sponsor-why.png`, fullPage: true });
    });
  },
);
