/**
 * The second round's defects of the scenes and the scoreboard (issue 35), in Chromium: the talents'
 * monograms without quote marks, an emoji drawn with the bundled Noto Emoji (not an empty box),
 * a long name on two lines at most; the map recap's unfinished map with a score not "Up next"; the
 * scoreboard's header with the round score while live, the maps won named beside it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { panelApi, seriesInProgress, settled } from '../helpers/hud.ts';

const FULL_HD = { width: 1920, height: 1080 };

describe.skipIf(!chromiumAvailable)('scenes and scoreboard, second round, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function open(server: RunningServer, path: string): Promise<Page> {
    const context = await chromium.newContext(FULL_HD);
    context.setDefaultTimeout(8_000);
    const page = await context.newPage();
    await page.goto(`${server.applicationUrl}${path}`);
    await page.locator('[data-ready="true"]').first().waitFor();
    return page;
  }

  it('talents: monograms without quote marks, emoji drawn with the bundled face, a long name on two lines', async () => {
    const server = await build();
    const page = await open(server, '/scenes/talents');
    const long = 'Henry "HenryG" Greer-Wolstenholme Montgomery-Fitzgerald';
    const emoji = 'Sadokist 🎙️🔥';
    const saved = await (await panelApi(server)).settings({
      branding: {
        talents: [
          { name: 'James "JB" Bardolph', role: 'Caster' },
          { name: emoji, role: 'Caster' },
          { name: long, role: 'Host' },
        ],
      },
    });
    expect(saved.status).toBe(200);
    await expect.poll(() => page.locator('[data-monogram]').allTextContents()).toEqual(['JB', 'S', 'HM']);
    // Two lines at most: the box is no taller than two of its lines.
    const lines = await page.locator('[data-talent="2"] [data-talent-name]').evaluate((element) => {
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown): { lineHeight: string } }
      ).getComputedStyle(element);
      return (
        (element as unknown as { clientHeight: number }).clientHeight / Number.parseFloat(style.lineHeight)
      );
    });
    expect(lines).toBeLessThanOrEqual(2.05);
    // Which fonts Chromium drew the emoji name with (DevTools protocol): the bundled emoji face.
    await page.evaluate(
      () =>
        (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready,
    );
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: '[data-talent="1"] [data-talent-name]',
    });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    expect(
      fonts.find((font) => /^Noto Emoji/.test(font.familyName)),
      JSON.stringify(fonts),
    ).toMatchObject({
      isCustomFont: true,
    });
    expect(
      fonts.every((font) => font.isCustomFont),
      JSON.stringify(fonts),
    ).toBe(true);
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}scene-talents-defects.png` });
  });

  it('map recap: a map with rounds played, not finished, no game data, is in progress, not up next', async () => {
    const server = await build();
    await seriesInProgress(server);
    const page = await open(server, '/scenes/mapRecap');
    // Map 2 at 7:5 (seriesInProgress) then 17:16 in overtime, the game data gone.
    await ok(server, 'set_map_result', { map: 2, scoreA: 17, scoreB: 16 });
    const map2 = page.locator('[data-scene="mapRecap"] [data-map-number="2"]');
    await expect.poll(() => map2.getAttribute('data-score-a')).toBe('17');
    expect(await map2.getAttribute('data-map-status')).toBe('next');
    await expect.poll(() => map2.locator('[data-recap-status]').textContent()).toBe('In progress');
    expect(await map2.textContent()).not.toMatch(/up next/i);
    // Map 3, nothing played: up next would be wrong too while map 2 is unfinished; it is upcoming.
    expect(await page.locator('[data-map-number="3"] [data-recap-status]').textContent()).toBe('Upcoming');
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}scene-recap-in-progress.png` });
  });

  it('the scoreboard header: the round score while live, the maps won named beside it', async () => {
    const server = await build({ gameReceivingTimeoutMs: 15 * 60_000 });
    await seriesInProgress(server, { roster: false });
    const page = await open(server, '/hud');
    await ok(server, 'show_scoreboard');
    // Without game data the header's number is the series score.
    await expect
      .poll(() => page.locator('[data-panel="scoreboard"] [data-series-score="A"]').textContent())
      .toBe('1');
    const frame = toCs2(((await fixture(ROUND_SEQUENCE)) as Frame[])[0] as Frame);
    await postAccepted(server, frame);
    const sideA = await page.locator('[data-page="hud"][data-side-a]').getAttribute('data-side-a');
    const score = (side: string | null) =>
      String(side === 'CT' ? frame.map.team_ct.score : frame.map.team_t.score);
    const head = page.locator('[data-panel="scoreboard"]');
    await expect.poll(() => head.locator('[data-round-score="A"]').textContent()).toBe(score(sideA));
    expect(await head.locator('[data-round-score="B"]').textContent()).toBe(
      score(sideA === 'CT' ? 'T' : 'CT'),
    );
    expect(await head.locator('[data-series-score="A"]').textContent()).toBe('Maps 1');
    expect(await head.locator('[data-series-score="B"]').textContent()).toBe('Maps 0');
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}hud-scoreboard-header-live.png` });
  });
});
