/**
 * The top bar on air (issue 19), with replayed real game data: names fit their boxes, the round-end
 * words never widen the bar, the event name is cut with an ellipsis, the series maps say live only
 * for the map the game plays live, and overtime shows as OT1, OT2 … At 1920x1080 and 1280x720.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, ok, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { atRound, fixture, postAccepted, ROUND_SEQUENCE, toCs2, WORKSHOP_MIRAGE } from '../helpers/gsi.ts';
import { panelApi, settled } from '../helpers/hud.ts';

const SIZES: Array<[string, ViewportSize]> = [
  ['1920x1080', { width: 1920, height: 1080 }],
  ['1280x720', { width: 1280, height: 720 }],
];

/** The pro GOTV capture on de_ancient: Ninjas In Pyjamas CT 4, Natus Vincere T 13, round 18, bomb planted. */
const NIP_NAVI_ANCIENT = 'gsi_csgo_gotv_pro_nip-vs-navi_ancient_bomb-planted__sces-csgo-hud-fe__output.json';
const NAVI_NIP = {
  teamA: { name: 'Natus Vincere' },
  teamB: { name: 'Ninjas In Pyjamas' },
} as const;

/** A bo3 over a pool with Anubis for Ancient: Mirage first, Inferno second, Anubis the decider. */
const MIRAGE_FIRST = [
  { type: 'ban', team: 'A', map: 'nuke' },
  { type: 'ban', team: 'B', map: 'train' },
  { type: 'pick', team: 'A', map: 'mirage' },
  { type: 'pick', team: 'B', map: 'inferno' },
  { type: 'ban', team: 'A', map: 'dust2' },
  { type: 'ban', team: 'B', map: 'overpass' },
  { type: 'decider', map: 'anubis' },
];
/** The same veto with another map first (swapped with Mirage when the veto has it). */
const firstMap = (map: string) =>
  MIRAGE_FIRST.map((step) =>
    step.map === 'mirage' ? { ...step, map } : step.map === map ? { ...step, map: 'mirage' } : step,
  );

/** What the tests read of an element in the page (this project's tsconfig has no DOM types). */
interface Box {
  clientWidth: number;
  scrollWidth: number;
  offsetWidth: number;
  className: string;
  tagName: string;
  textContent: string | null;
  hasAttribute(name: string): boolean;
}
interface PageGlobals {
  document: { querySelector(selector: string): unknown };
  getComputedStyle(element: unknown): { textOverflow: string; overflowX: string; display: string };
}

/**
 * Every element of the top bar whose content is wider than its box (ellipsis or not), as text; the
 * event name is left out where the test cut it on purpose (it is checked for its ellipsis instead).
 */
const overflowing = (page: Page, { eventCut = false } = {}) =>
  page.locator('[data-topbar]').evaluate((bar, skipEvent) => {
    const found: string[] = [];
    for (const element of [bar, ...bar.querySelectorAll('*')]) {
      const box = element as unknown as Box;
      if (skipEvent && box.hasAttribute('data-event-name')) continue;
      if (box.clientWidth > 0 && box.scrollWidth > box.clientWidth)
        found.push(
          `${box.className || box.tagName}: ${box.scrollWidth} > ${box.clientWidth} "${box.textContent}"`,
        );
    }
    return found;
  }, eventCut);

/** The width of an element of the page, in the page's own pixels. */
const widthOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => (element as unknown as Box).offsetWidth);

describe.skipIf(!chromiumAvailable)('the top bar on air, with replayed game data, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function overlay(server: RunningServer, viewport: ViewportSize): Promise<Page> {
    return chromium.hud(server, viewport);
  }

  const statuses = (page: Page) =>
    page
      .locator('[data-topbar] [data-map-number]')
      .evaluateAll((maps) => maps.map((map) => map.getAttribute('data-map-status')));

  for (const [size, viewport] of SIZES) {
    it(`${size}: no "Live" before the game plays a series map, none for a map it does not play; names fit; the event is cut with an ellipsis`, async () => {
      const server = await build({ gameReceivingTimeoutMs: 30_000 });
      const pages = [await overlay(server, viewport)];
      const [page] = pages as [Page];
      await ok(server, 'set_event_name', {
        name: 'StarLadder Budapest Major 2025 · Stage 3 · Upper bracket quarter-final · Day 2 of the playoffs',
      });
      await ok(server, 'veto_set', { boFormat: 'bo3', ...NAVI_NIP, steps: MIRAGE_FIRST });
      await ok(server, 'veto_reveal', { mode: 'all' });
      await expect.poll(() => statuses(page)).toEqual(['next', 'upcoming', 'upcoming']);
      // Nothing is live yet: map 1 is next, and the word is nowhere on the bar.
      expect(await page.locator('[data-topbar]').innerText()).not.toMatch(/live/i);
      expect(await page.locator('[data-map-in-focus="1"]').innerText()).toMatch(/Map 1 · Mirage/i);

      // The game plays Ancient, which is not in the series: no map is live, map 1 (Mirage) is still next.
      const ancient = toCs2(await fixture(NIP_NAVI_ANCIENT));
      await postAccepted(server, ancient);
      await page.locator('[data-topbar][data-game="live"] [data-phase="bomb"]').waitFor();
      expect(await page.locator('[data-topbar] [data-side-marker]').allTextContents()).toEqual(['T', 'CT']);
      await expect.poll(() => statuses(page)).toEqual(['next', 'upcoming', 'upcoming']);
      expect((await page.locator('[data-topbar] [data-map-number]').allInnerTexts()).join(' ')).not.toMatch(
        /live/i,
      );

      // Neither name cut: each fits at three quarters of its size at least, or gives way to the
      // team's tag (issue 35: no name shrunk below a legible size). With the alive chips of the
      // live game beside them, both long names take their tags here.
      for (const [side, tag] of [
        ['A', 'NV'],
        ['B', 'NIP'],
      ] as const) {
        const name = page.locator(`[data-topbar] [data-team="${side}"]`);
        expect(await name.getAttribute('data-fit')).toBe('short');
        expect(await name.textContent()).toBe(tag);
        expect(await name.getAttribute('title')).toBe(NAVI_NIP[side === 'A' ? 'teamA' : 'teamB'].name);
      }
      // The event name: cut with an ellipsis, inside the strip.
      const event = page.locator('[data-topbar] [data-event-name]');
      const cut = await event.evaluate((element) => {
        const style = (globalThis as unknown as PageGlobals).getComputedStyle(element);
        return {
          cut: element.scrollWidth > element.clientWidth,
          textOverflow: style.textOverflow,
          overflow: style.overflowX,
          display: style.display,
        };
      });
      expect(cut).toEqual({ cut: true, textOverflow: 'ellipsis', overflow: 'hidden', display: 'block' });
      expect(await overflowing(page, { eventCut: true })).toEqual([]);
      expect(await widthOf(page, '[data-topbar]')).toBe(1000);
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}top-bar-ancient-not-in-play-${size}.png` });
      await page
        .locator('[data-topbar]')
        .screenshot({ path: `${SCREENSHOTS}top-bar-ancient-not-in-play-bar-${size}.png` });

      // The same game on a series whose map 1 is Ancient: map 1 is live.
      await ok(server, 'veto_set', { boFormat: 'bo3', ...NAVI_NIP, steps: firstMap('ancient') });
      await ok(server, 'veto_reveal', { mode: 'all' });
      await postAccepted(server, ancient);
      await expect.poll(() => statuses(page)).toEqual(['live', 'upcoming', 'upcoming']);
      // The live score went onto the series map: Natus Vincere 13, Ninjas In Pyjamas 4.
      const live = page.locator('[data-topbar] [data-map-number="1"][data-map-status="live"]');
      await expect.poll(() => live.getAttribute('data-score-a')).toBe('13');
      expect(await live.innerText()).toMatch(/live/i);
      expect(await overflowing(page, { eventCut: true })).toEqual([]);
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}top-bar-ancient-live-${size}.png` });
    });
  }

  it('the round-end words neither widen the bar nor cut a name, at both sizes', async () => {
    const server = await build({ gameReceivingTimeoutMs: 30_000 });
    const pages = await Promise.all(SIZES.map(([, viewport]) => overlay(server, viewport)));
    await ok(server, 'set_event_name', { name: 'IEM Cologne 2026' });
    // Team A plays CT in the capture (it has no team names): Natus Vincere wins the round by the defuse.
    await ok(server, 'veto_set', { boFormat: 'bo3', ...NAVI_NIP, steps: firstMap('dust2') });
    await ok(server, 'veto_reveal', { mode: 'all' });
    const frames = ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));
    const layout = (page: Page) =>
      page.evaluate(() => {
        const { document } = globalThis as unknown as PageGlobals;
        const width = (selector: string) => (document.querySelector(selector) as Box).offsetWidth;
        return {
          bar: width('[data-topbar]'),
          nameA: width('[data-topbar] [data-team="A"]'),
          nameB: width('[data-topbar] [data-team="B"]'),
          centre: width('[data-topbar] [data-phase]'),
        };
      });
    let before: Awaited<ReturnType<typeof layout>>[] | null = null;
    for (const [index, frame] of frames.entries()) {
      await postAccepted(server, frame);
      for (const [at, page] of pages.entries()) {
        const phase = index >= 8 && index <= 9 ? 'over' : null;
        if (phase) {
          const text = page.locator('[data-topbar] [data-phase="over"] [data-phase-text]');
          await expect.poll(() => text.textContent()).toBe('Bomb defused · Natus Vincere win');
        } else {
          await page.locator(`[data-topbar][data-game="live"] [data-round]`).waitFor();
        }
        const now = await layout(page);
        if (before?.[at]) expect(now, `frame ${index}, ${SIZES[at]?.[0]}`).toEqual(before[at]);
        expect(await overflowing(page), `frame ${index}, ${SIZES[at]?.[0]}`).toEqual([]);
        if (phase && index === 9) {
          await settled(page);
          await page.screenshot({ path: `${SCREENSHOTS}top-bar-round-end-${SIZES[at]?.[0]}.png` });
          await page
            .locator('[data-topbar]')
            .screenshot({ path: `${SCREENSHOTS}top-bar-round-end-bar-${SIZES[at]?.[0]}.png` });
        }
      }
      before ??= await Promise.all(pages.map(layout));
    }
    expect(before?.[0]?.bar).toBe(1000);
  });

  it('overtime shows as OT1, OT2 … in the centre while live (MR12: 24 rounds, then blocks of 6)', async () => {
    const server = await build({ gameReceivingTimeoutMs: 30_000 });
    const page = await overlay(server, { width: 1920, height: 1080 });
    await ok(server, 'veto_set', { boFormat: 'bo3', ...NAVI_NIP, steps: MIRAGE_FIRST });
    await ok(server, 'veto_reveal', { mode: 'all' });
    // The capture: workshop Mirage, 33 rounds played (17:16), round 34 live.
    const mirage = toCs2(await fixture(WORKSHOP_MIRAGE));
    const overtime = page.locator('[data-topbar][data-game="live"] [data-overtime]');
    await postAccepted(server, mirage);
    await page.locator('[data-topbar] [data-round="34"]').waitFor();
    expect(await overtime.getAttribute('data-overtime')).toBe('2');
    expect(await overtime.textContent()).toBe('OT2');
    // Map 1 is Mirage, and the game plays it (a workshop copy): live.
    await expect.poll(() => statuses(page)).toEqual(['live', 'upcoming', 'upcoming']);
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}top-bar-overtime-1920x1080.png` });
    await page
      .locator('[data-topbar]')
      .screenshot({ path: `${SCREENSHOTS}top-bar-overtime-bar-1920x1080.png` });
    // DERIVED: the same capture at other round counts.
    const cases: Array<[number, string, number, string | null]> = [
      [23, 'live', 24, null], // the last round of regulation
      [24, 'over', 24, null], // its end
      [24, 'freezetime', 25, '1'],
      [29, 'live', 30, '1'],
      [30, 'freezetime', 31, '2'],
      [36, 'live', 37, '3'],
    ];
    for (const [played, roundPhase, shown, ot] of cases) {
      const frame = atRound(mirage, played, roundPhase);
      // The capture also names the phase in phase_countdowns, which the game data reads first.
      frame.phase_countdowns = { ...frame.phase_countdowns, phase: roundPhase };
      await postAccepted(server, frame);
      await page
        .locator(`[data-topbar] [data-round="${shown}"]`)
        .waitFor({ state: 'attached' })
        .catch(async (error) => {
          throw new Error(`round ${shown}: ${await page.locator('[data-topbar]').innerHTML()}`, {
            cause: error,
          });
        });
      if (ot === null) expect(await overtime.count(), `round ${shown}`).toBe(0);
      else expect(await overtime.getAttribute('data-overtime'), `round ${shown}`).toBe(ot);
      expect(await overflowing(page)).toEqual([]);
    }
  });
  it('a 41-character event name is whole; a longer one gives way to the short form the operator set, kept over a restart', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir, gameReceivingTimeoutMs: 30_000 });
    const fits = 'PGL Astana 2026 Closed Qualifier Europe B';
    expect(fits).toHaveLength(41);
    await ok(server, 'set_event_name', { name: fits });
    await ok(server, 'veto_set', { boFormat: 'bo3', ...NAVI_NIP, steps: MIRAGE_FIRST });
    const pages = await Promise.all(SIZES.map(([, viewport]) => overlay(server, viewport)));
    const shownOn = (page: Page) => page.locator('[data-topbar] [data-event-name]');
    // 41 characters beside a bo3's maps: whole, not cut.
    for (const [at, page] of pages.entries()) {
      await expect.poll(() => shownOn(page).textContent()).toBe(fits);
      expect(await shownOn(page).getAttribute('data-fit'), SIZES[at]?.[0]).toBe('whole');
      expect(await overflowing(page), SIZES[at]?.[0]).toEqual([]);
    }
    const long = 'StarLadder Budapest Major 2025 · Stage 3 · Upper bracket quarter-final';
    await ok(server, 'set_event_name', { name: long });
    // No short form set: the whole name, cut with an ellipsis (the first test of this file).
    for (const page of pages) {
      await expect.poll(() => shownOn(page).textContent()).toBe(long);
      expect(await shownOn(page).getAttribute('data-fit')).not.toBe('short');
    }
    const api = await panelApi(server);
    expect((await api.settings({ branding: { eventShortName: 'Budapest Major 2025' } })).status).toBe(200);
    for (const [at, page] of pages.entries()) {
      await expect.poll(() => shownOn(page).textContent()).toBe('Budapest Major 2025');
      expect(await shownOn(page).getAttribute('data-fit')).toBe('short');
      expect(await shownOn(page).getAttribute('title')).toBe(long);
      expect(await overflowing(page), SIZES[at]?.[0]).toEqual([]);
      await settled(page);
      await page
        .locator('[data-topbar]')
        .screenshot({ path: `${SCREENSHOTS}top-bar-event-short-${SIZES[at]?.[0]}.png` });
    }
    // A name that fits is shown whole, short form or not.
    await ok(server, 'set_event_name', { name: fits });
    for (const page of pages) await expect.poll(() => shownOn(page).textContent()).toBe(fits);
    // Saved with the settings: a server started again on the same data shows the short form.
    await ok(server, 'set_event_name', { name: long });
    await server.close();
    const again = await build({ dataDir, gameReceivingTimeoutMs: 30_000 });
    const page = await overlay(again, { width: 1280, height: 720 });
    await expect.poll(() => shownOn(page).textContent()).toBe('Budapest Major 2025');
  });
});
