/**
 * Zones, not collisions (docs/themes.md, "Zones"): every combination of the overlay's panels, at
 * 1920x1080 and 1280x720, without and with live game data from real frames, and with and without a
 * replay playing. In each one, no two panels on air (`data-panel` with `data-visible="true"` that
 * the page really draws) overlap, and no text runs out of its box unless an ellipsis ends it.
 *
 * Generic over the page's hooks: the toggled panels come from machines/panels.ts, and the measures
 * (test/helpers/hud-probe.js) take every `[data-panel]` the page has, so a panel added later (radar,
 * economy, round banner) is checked without an edit here. One page per size, driven by commands
 * and game frames; each state is awaited on the root's `data-open`, not on time.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PANELS } from '../../machines/panels.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, postFrame, ROUND_SEQUENCE, toCs2, withToken } from '../helpers/gsi.ts';
import { panelApi, seriesInProgress, teamLogos } from '../helpers/hud.ts';
import type { ProbeHost } from '../helpers/hud-pages.ts';
import { endReplay, holdReplay, probedOverlay, standInObs } from '../helpers/hud-pages.ts';
import { makeClip, makeLogo } from '../helpers/media.ts';

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;

/** The panels a command shows and hides (the overlay window aside: closed, nothing is on air). */
const TOGGLED = PANELS.flatMap((panel) =>
  'hook' in panel ? [{ hook: panel.hook, command: panel.command }] : [],
);
const POSITIONS = [
  'top-left',
  'top-center',
  'top-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
] as const;
type Position = (typeof POSITIONS)[number];
const CORNERS = [
  { hook: 'sponsor', command: 'set_sponsor_overlay' },
  { hook: 'badge', command: 'set_event_badge' },
] as const;

/** One combination: which toggled panels are shown, and where each corner panel is (null: off). */
interface Combination {
  shown: ReadonlySet<string>;
  corners: Readonly<Record<'sponsor' | 'badge', Position | null>>;
}

function* combinations(): Generator<Combination> {
  for (let mask = 0; mask < 2 ** TOGGLED.length; mask++) {
    const shown = new Set(TOGGLED.filter((_, i) => mask & (2 ** i)).map((p) => p.hook));
    for (const sponsor of [null, ...POSITIONS])
      for (const badge of [null, ...POSITIONS]) yield { shown, corners: { sponsor, badge } };
  }
}

const describeCombination = (c: Combination) =>
  [
    c.shown.size ? [...c.shown].join('+') : 'no panel',
    ...CORNERS.map(({ hook }) => `${hook} ${c.corners[hook] ?? 'off'}`),
  ].join(', ');

/** The words the root's data-open must have, and must not, once the page shows a combination. */
function expectedWords(c: Combination): { present: string[]; absent: string[] } {
  const present: string[] = [];
  const absent: string[] = [];
  for (const { hook } of TOGGLED) (c.shown.has(hook) ? present : absent).push(hook);
  for (const { hook } of CORNERS) {
    const at = c.corners[hook];
    if (at) present.push(`${hook}@${at}`);
    else absent.push(hook);
  }
  return { present, absent };
}

const timing = { probe: 0, total: 0 };

describe.skipIf(!chromiumAvailable)('the HUD overlay: zones, not collisions', () => {
  const chromium = chromiumPerFile();

  async function ok(server: RunningServer, action: string, payload?: unknown) {
    const answer = await command(server, action, payload);
    expect(answer.status, `${action}: ${JSON.stringify(answer.body)}`).toBe(200);
  }

  async function post(server: RunningServer, frame: Frame) {
    const answer = await postFrame(server.applicationPort, withToken(frame, server.service.game.token));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }

  /** Waits on every page for the words, then measures: the problems, each with where it was seen. */
  async function measure(pages: Page[], words: { present: string[]; absent: string[] }, label: string) {
    const found: string[] = [];
    await Promise.all(
      pages.map(async (page, i) => {
        const t0 = performance.now();
        const { problems, ms } = await page.evaluate(async ({ present, absent }) => {
          await (globalThis as unknown as ProbeHost).hudProbe.until(present, absent);
          return (globalThis as unknown as ProbeHost).hudProbe.layout();
        }, words);
        timing.probe += ms;
        timing.total += performance.now() - t0;
        const size = SIZES[i];
        for (const problem of problems) found.push(`${problem}  [${label}, ${size?.width}x${size?.height}]`);
      }),
    );
    return found;
  }

  /**
   * Screenshots of a dense combination at both sizes, over a stand-in for the game's picture (the
   * overlay itself is transparent), for a person to look at.
   */
  async function screenshots(pages: Page[], name: string) {
    await Promise.all(
      pages.map(async (page, i) => {
        const size = SIZES[i];
        const backdrop = await page.addStyleTag({
          content:
            'html { background: linear-gradient(170deg, #6b5a43 0%, #a88d67 38%, #4d4337 62%, #2a2622 100%) !important; }',
        });
        await page.screenshot({
          path: `${SCREENSHOTS}hud-layout-${name}-${size?.width}x${size?.height}.png`,
        });
        await backdrop.evaluate((style) => (style as unknown as { remove(): void }).remove());
      }),
    );
  }

  it('no two panels on air overlap and no text runs out of its box, in every combination, at both sizes', async () => {
    const dir = await tempDir();
    const clip = join(dir, 'Replay 2026-11-24 13-37-00.webm');
    const server = await build({
      // The live part of the walk must not see "receiving" lapse between two frames.
      gameReceivingTimeoutMs: 15 * 60_000,
      overrides: { obs: { enabled: true, url: 'ws://127.0.0.1:4455', password: 'stand-in' } },
      machine: (live) => live.provide({ actors: { obs: standInObs(clip) } }),
    });
    const pages: Page[] = [];
    for (const size of SIZES) pages.push(await probedOverlay(server, chromium.newContext, size));
    const [first] = pages;
    if (!first) throw new Error('no page');
    await writeFile(clip, await makeClip(first, 1200));

    // A series in progress with its roster, team logos, an event logo and a sponsor: what a crew shows.
    await seriesInProgress(server);
    await teamLogos(server, first);
    const api = await panelApi(server);
    const sponsor = (await api.upload(await makeLogo(first, { text: 'HYPERION', colour: '#e0413a' }))).body
      .media.id;
    const logo = (
      await api.upload(
        await makeLogo(first, { text: 'IEM', colour: '#1d5fe0', width: 200, height: 200, round: true }),
      )
    ).body.media.id;
    await api.settings({ branding: { eventLogo: logo, sponsors: [{ name: 'Hyperion', image: sponsor }] } });
    // The stats panel shows the player picked here whenever a combination opens it (with live data;
    // without, the panel is on but draws nothing: nothing meant for the operator on air).
    await ok(server, 'set_stats_player', { slot: 1 });

    const frames = ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));
    // The round's end: the longest words under the clock, dead players dimmed.
    const roundOver = frames[8];
    if (!roundOver) throw new Error('no frame 8');

    // The measures see what they look for: a corner panel forced onto the scoreboard, a name forced
    // onto one line in a box too small for it.
    await ok(server, 'show_scoreboard');
    await ok(server, 'set_event_badge', { enabled: true, position: 'top-center' });
    const forced = await first.addStyleTag({
      content:
        '.hud [data-panel="badge"] { visibility: visible !important; opacity: 1 !important; }' +
        '.hud [data-panel="badge"] * { white-space: nowrap !important; width: 60px !important; }',
    });
    const caught = await measure(
      [first],
      { present: ['scoreboard', 'badge@top-center'], absent: [] },
      'forced',
    );
    expect(caught.join('\n')).toMatch(/scoreboard .* and badge@top-center .* overlap/);
    expect(caught.join('\n')).toMatch(/badge@top-center .*"IEM Cologne 2026 · Playoffs" (is|runs) \d+ px/);
    await forced.evaluate((style) => (style as unknown as { remove(): void }).remove());
    await ok(server, 'hide_scoreboard');
    await ok(server, 'set_event_badge', { enabled: false });

    let current: Combination = { shown: new Set(), corners: { sponsor: null, badge: null } };
    const apply = async (next: Combination) => {
      for (const { hook, command: word } of TOGGLED)
        if (next.shown.has(hook) !== current.shown.has(hook))
          await ok(server, `${next.shown.has(hook) ? 'show' : 'hide'}_${word}`);
      for (const { hook, command: action } of CORNERS) {
        const at = next.corners[hook];
        if (at !== current.corners[hook])
          await ok(server, action, at ? { enabled: true, position: at } : { enabled: false });
      }
      current = next;
    };

    const show = async (combination: Combination) => {
      await apply(combination);
      await measure(pages, expectedWords(combination), 'screenshot');
    };

    const seen = new Map<string, { count: number; first: string }>();
    let states = 0;
    let applying = 0;
    const started = Date.now();
    const walk = async (context: string) => {
      for (const combination of combinations()) {
        const t0 = performance.now();
        await apply(combination);
        applying += performance.now() - t0;
        states++;
        for (const found of await measure(
          pages,
          expectedWords(combination),
          `${context}, ${describeCombination(combination)}`,
        )) {
          const [problem = found, where = ''] = found.split('  [');
          const entry = seen.get(problem);
          if (entry) entry.count++;
          else seen.set(problem, { count: 1, first: where.slice(0, -1) });
        }
      }
    };

    await walk('no game data');
    await show({ shown: new Set(['veto', 'stats']), corners: { sponsor: 'top-right', badge: 'top-center' } });
    await screenshots(pages, 'no-game-veto-stats');
    await ok(server, 'save_replay');
    await holdReplay(pages);
    await walk('no game data, replay');
    await post(server, roundOver);
    await Promise.all(
      pages.map((page) =>
        page.evaluate(() => (globalThis as unknown as ProbeHost).hudProbe.until(['players', 'observed'], [])),
      ),
    );
    await walk('live, replay');
    await show({ shown: new Set(['veto']), corners: { sponsor: 'top-right', badge: 'top-left' } });
    await screenshots(pages, 'live-replay-veto');
    await endReplay(pages);
    await walk('live');
    await show({
      shown: new Set(['scoreboard', 'stats']),
      corners: { sponsor: 'bottom-right', badge: 'bottom-center' },
    });
    await screenshots(pages, 'live-scoreboard-stats');

    // Every frame of the captured round and the pro capture, with everything open at once.
    const dense: Combination = {
      shown: new Set(TOGGLED.map((p) => p.hook)),
      corners: { sponsor: 'bottom-left', badge: 'top-right' },
    };
    await apply(dense);
    for (const frame of [...frames, toCs2(await fixture(FAZE_NAVI))]) {
      await post(server, frame);
      for (const found of await measure(
        pages,
        expectedWords(dense),
        `frame ${frame.round?.phase ?? ''} ${frame.map?.round ?? ''}`,
      )) {
        const [problem = found, where = ''] = found.split('  [');
        if (!seen.has(problem)) seen.set(problem, { count: 1, first: where.slice(0, -1) });
      }
    }
    // Without sponsor images the sponsor overlay shows its words: at each position, stacked with the badge.
    expect((await api.settings({ branding: { sponsors: [] } })).status).toBe(200);
    for (const page of pages) await page.locator('[data-panel="sponsor"] img').waitFor({ state: 'detached' });
    for (const at of POSITIONS) {
      const words: Combination = { shown: new Set(), corners: { sponsor: at, badge: at } };
      await apply(words);
      for (const found of await measure(pages, expectedWords(words), `no sponsor image, both at ${at}`)) {
        const [problem = found, where = ''] = found.split('  [');
        if (!seen.has(problem)) seen.set(problem, { count: 1, first: where.slice(0, -1) });
      }
    }
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `hud-layout: ${states} combinations x ${SIZES.length} sizes in ${seconds.toFixed(1)} s (${(applying / 1000).toFixed(1)} s in commands; ${(timing.probe / 1000).toFixed(1)} s measuring, ${(timing.total / 1000).toFixed(1)} s waiting and measuring, summed over pages)`,
    );

    const report = [...seen].map(
      ([problem, { count, first: where }]) => `${problem}\n    ${count}x, first in ${where}`,
    );
    expect(report, report.slice(0, 40).join('\n')).toEqual([]);
  }, 900_000);
});
