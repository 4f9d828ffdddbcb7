/**
 * Nothing broken reaches the air: on the HUD overlay and every scene page, each image either loaded
 * or gave way to its fallback (a team's initials, a talent's initials, nothing), whatever the logo
 * addresses do; and the pages load nothing from anywhere but the application server.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, ok, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { panelApi, seriesInProgress, settled, TEAMS } from '../helpers/hud.ts';
import { pngOf, settledLogo, startLogoServer, svgOf } from '../helpers/logos.ts';
import { netnsSkipReason } from '../helpers/netns.ts';
import { unusedPort } from '../import/source-server.ts';

const SIZES: Array<[string, ViewportSize]> = [
  ['1080p', { width: 1920, height: 1080 }],
  ['720p', { width: 1280, height: 720 }],
];
const PAGES = [
  ['hud', '/hud', 'hud'],
  ['versus', '/scenes/versus', 'scene'],
  ['talents', '/scenes/talents', 'scene'],
  ['sponsors', '/scenes/sponsors', 'scene'],
  ['map-recap', '/scenes/mapRecap', 'scene'],
] as const;

/** What a game frame looks like behind the overlay in a screenshot: busy, mid-grey, not a flat colour. */
const GAME_BEHIND =
  'html { background: repeating-linear-gradient(35deg, #5b5f52 0 40px, #6d6b5c 40px 90px, #4a4f49 90px 130px) !important; }';

type Img = { complete: boolean; naturalWidth: number; getAttribute(name: string): string | null };

/** Ten pages and their screenshots per test. */
const PAGE_TEST_TIMEOUT_MS = 120_000;

describe.skipIf(!chromiumAvailable)('no broken image on air', () => {
  const chromium = chromiumPerFile();

  /** The page open and live, with every address it asks for recorded. */
  async function open(server: RunningServer, path: string, kind: string, viewport: ViewportSize) {
    const context = await chromium.newContext(viewport);
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    await page.goto(`${server.applicationUrl}${path}`);
    await page.locator(`[data-page="${kind}"][data-ready="true"]`).waitFor();
    return { page, asked };
  }

  /**
   * Waits until every image of the page is loaded with a size (the broken ones gave way to their
   * fallback); a test fails with the ones that did not.
   */
  async function noBrokenImage(page: Page, where: string) {
    const allShown = () =>
      [...(globalThis as unknown as { document: { images: Iterable<Img> } }).document.images].every(
        (image) => image.complete && image.naturalWidth > 0,
      );
    const shown = await page
      .waitForFunction(allShown, undefined, { timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    const broken = await page.evaluate(() =>
      [...(globalThis as unknown as { document: { images: Iterable<Img> } }).document.images]
        .filter((image) => !image.complete || image.naturalWidth === 0)
        .map((image) => image.getAttribute('src')),
    );
    expect(broken, `${where}: images neither loaded nor replaced`).toEqual([]);
    expect(shown).toBe(true);
  }

  /** Opens every page at both sizes: no broken image, nothing loaded from elsewhere, a screenshot each. */
  async function everyPage(
    server: RunningServer,
    name: string,
    check: (page: Page, which: string) => Promise<void>,
  ) {
    for (const [size, viewport] of SIZES) {
      for (const [which, path, kind] of PAGES) {
        const { page, asked } = await open(server, path, kind, viewport);
        const where = `${which} at ${size}`;
        await noBrokenImage(page, where);
        await check(page, which);
        const elsewhere = asked.filter((url) => !url.startsWith(`${server.applicationUrl}/`));
        expect(elsewhere, `${where} asked another server`).toEqual([]);
        await settled(page);
        await page.addStyleTag({ content: GAME_BEHIND });
        await page.screenshot({ path: `${SCREENSHOTS}broken-images-${name}-${which}-${size}.png` });
        await page.context().close();
      }
    }
  }

  /**
   * The overlays on air with the series: scoreboard, event badge, and the sponsor overlay when a
   * sponsor is set (without one it is refused: nothing meant for the operator on air).
   */
  async function onAir(server: RunningServer, { sponsor }: { sponsor: boolean }) {
    await ok(server, 'show_scoreboard');
    await ok(server, 'set_event_badge', { enabled: true, position: 'top-left' });
    if (sponsor) await ok(server, 'set_sponsor_overlay', { enabled: true, position: 'bottom-right' });
  }

  // The logo servers stand on the local network (a network namespace): a logo on this machine is refused.
  it.skipIf(netnsSkipReason())(
    'logos at an address answering 404 and at one nobody answers, images whose files are gone: each gives way to its fallback',
    async () => {
      const origin = await startLogoServer({}); // every path answers 404
      const dataDir = await tempDir();
      const server = await build({ dataDir });
      await seriesInProgress(server);
      await ok(server, 'set_teams', {
        ...TEAMS,
        teamA: { ...TEAMS.teamA, logo: `${origin.url}/navi.png` },
        teamB: { ...TEAMS.teamB, logo: `http://127.0.0.1:${await unusedPort()}/faze.png` },
      });
      expect((await settledLogo(server, 'A')).state).toBe('failed');
      expect((await settledLogo(server, 'B')).state).toBe('failed');
      // Branding whose files went missing from the media folder (a data directory copied without them).
      const api = await panelApi(server);
      const uploaded = async (image: Buffer) => (await api.upload(image)).body.media.id as string;
      const eventLogo = await uploaded(pngOf(64, 0xf5c84c));
      const sponsor = await uploaded(pngOf(48, 0x2f7de1));
      const photo = await uploaded(pngOf(40, 0xe0413a));
      expect(
        (
          await api.settings({
            branding: {
              eventLogo,
              sponsors: [{ name: 'Hyperion', image: sponsor }],
              talents: [{ name: 'Anders Blume', role: 'Caster', photo }],
            },
          })
        ).status,
      ).toBe(200);
      for (const id of [eventLogo, sponsor, photo]) await rm(join(dataDir, 'media', id));
      await onAir(server, { sponsor: true });

      await everyPage(server, 'failed', async (page, which) => {
        if (which === 'hud' || which === 'versus') {
          // Both teams show their initials tile wherever a logo goes.
          for (const side of ['A', 'B']) {
            const logos = page.locator(`[data-logo="${side}"]`);
            expect(await logos.count(), `${which}: logos of team ${side}`).toBeGreaterThan(0);
            for (const logo of await logos.all())
              expect(await logo.evaluate((node) => node.tagName)).toBe('SPAN');
          }
        }
        if (which === 'talents') {
          await expect(
            page.locator('[data-talent="0"] .talent__photo--initials').textContent(),
          ).resolves.toBe('AB');
        }
      });
      expect(origin.requests).toEqual(['/navi.png']);
    },
    PAGE_TEST_TIMEOUT_MS,
  );

  it.skipIf(netnsSkipReason())(
    'stored logos (PNG and SVG), an uploaded logo whose file is gone and a data URL that is no image: loaded, or the initials',
    async () => {
      const origin = await startLogoServer({
        '/navi.png': { type: 'image/png', body: pngOf(128, 0xf2c12e) },
        '/faze.svg': { type: 'image/svg+xml', body: svgOf('FaZe', '#d7263d') },
      });
      const dataDir = await tempDir();
      const server = await build({ dataDir });
      await seriesInProgress(server);
      await ok(server, 'set_teams', {
        ...TEAMS,
        teamA: { ...TEAMS.teamA, logo: `${origin.url}/navi.png` },
        teamB: { ...TEAMS.teamB, logo: `${origin.url}/faze.svg` },
      });
      expect((await settledLogo(server, 'A')).state).toBe('stored');
      expect((await settledLogo(server, 'B')).state).toBe('stored');
      await onAir(server, { sponsor: false });

      await everyPage(server, 'stored', async (page, which) => {
        if (which === 'hud' || which === 'versus') {
          for (const side of ['A', 'B']) {
            const logo = page.locator(`[data-logo="${side}"]`).first();
            expect(await logo.evaluate((node) => node.tagName), `${which}: team ${side}`).toBe('IMG');
          }
        }
      });
      // The pages loaded the stored copies: the logo host was asked once for each, by the server.
      expect(origin.requests.sort()).toEqual(['/faze.svg', '/navi.png']);

      // An uploaded logo whose file is gone, and a data URL that is not an image: the initials.
      const api = await panelApi(server);
      const gone = (await api.upload(pngOf(32, 0x123456))).body.media.url as string;
      await rm(join(dataDir, gone.slice(1)));
      await ok(server, 'set_teams', {
        ...TEAMS,
        teamA: { ...TEAMS.teamA, logo: gone },
        teamB: { ...TEAMS.teamB, logo: 'data:image/png;base64,bm90IGFuIGltYWdl' },
      });
      for (const [, viewport] of SIZES) {
        const { page } = await open(server, '/scenes/versus', 'scene', viewport);
        await noBrokenImage(page, 'versus with a missing upload and a broken data URL');
        for (const side of ['A', 'B'])
          expect(
            await page
              .locator(`[data-logo="${side}"]`)
              .first()
              .evaluate((node) => node.tagName),
          ).toBe('SPAN');
        await page.context().close();
      }
    },
    PAGE_TEST_TIMEOUT_MS,
  );
});
