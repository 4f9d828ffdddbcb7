import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../lib/chromium.ts';
import type { PartContext } from '../lib/config.ts';
import { HttpClient } from '../lib/http-client.ts';
import { ROOT, startServerProcess } from '../lib/server-process.ts';
import { ms, sleep, summarizeNs } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const PART = 'Command → page DOM';
const TARGET_P99_MS = 50;
/** A real spectator frame (CS:GO capture; the overlay draws it the same way as a CS2 one). */
const FRAME = join(
  ROOT,
  'test/fixtures/gsi_csgo_spectator_bots_dust2__nodecg-csgo-manager__csgo-example.json',
);

/** The page's own clock as wall time, in ms (performance.timeOrigin + now, high resolution). */
type Marks = { marks: number[] };

/**
 * Records, in the page, when the attribute of the element matching `selector` changes: a
 * MutationObserver stamps each change with the page's high-resolution wall time.
 */
async function watch(page: Page, selector: string, attribute: string): Promise<void> {
  await page.evaluate(
    ({ selector, attribute }) => {
      const g = globalThis as unknown as Marks & {
        document: { querySelector(s: string): unknown };
        MutationObserver: new (
          callback: () => void,
        ) => {
          observe(
            node: unknown,
            options: { attributes: boolean; attributeFilter: string[]; subtree: boolean },
          ): void;
        };
        performance: { timeOrigin: number; now(): number };
      };
      g.marks = [];
      const target = g.document.querySelector(selector);
      // attribute '#text': the element's text (a text node's data or its replacement), not an attribute.
      const options =
        attribute === '#text'
          ? { characterData: true, childList: true, subtree: true }
          : { attributes: true, attributeFilter: [attribute], subtree: false };
      new g.MutationObserver(() => g.marks.push(g.performance.timeOrigin + g.performance.now())).observe(
        target,
        options as { attributes: boolean; attributeFilter: string[]; subtree: boolean },
      );
    },
    { selector, attribute },
  );
}

const marksOf = (page: Page) => page.evaluate(() => (globalThis as unknown as Marks).marks.length);

/**
 * A command sent over HTTP to the automation server (44555 in production) until the page's DOM
 * shows it, measured inside Chromium: the HUD overlay for toggle_scoreboard, the scene window for
 * show_sen_scene / hide_sen_scene, with the overlay, the scene window and two fixed scene sources
 * open (four WebSocket clients of the application server). One command at a time, a pause between.
 * Then game data: a real frame POSTed to the application server's /gsi (as the game does, one at a
 * time) until the overlay's top bar shows its round clock, each frame with a new clock.
 */
export async function overlayLatency(context: PartContext): Promise<Row[]> {
  const missing = chromiumMissing();
  if (missing) return [{ part: PART, figure: 'skipped', value: missing }];
  if (!existsSync(join(ROOT, 'dist/pages/hud.html'))) {
    const { build } = await import('vite');
    await build({ configFile: join(ROOT, 'src/pages/vite.config.ts'), logLevel: 'warn' });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'hud-bench-overlay-'));
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    dataDir,
    nodeOptions: context.nodeOptions('overlay-latency'),
  });
  const browser = await launchChromium();
  const http = new HttpClient(hud.port);
  const rows: Row[] = [];
  try {
    const open = async (path: string, ready: string) => {
      const page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
      await page.goto(`${hud.appUrl}${path}`);
      await page.locator(ready).waitFor({ state: 'attached' });
      return page;
    };
    const overlay = await open('/hud', '[data-page="hud"][data-ready="true"]');
    const sceneWindow = await open('/scenes/window', '[data-page="scene"][data-ready="true"]');
    await open('/scenes/versus', '[data-scene="versus"]');
    await open('/scenes/mapRecap', '[data-scene="mapRecap"]');
    await watch(overlay, '[data-panel="scoreboard"]', 'data-visible');
    await watch(sceneWindow, '[data-page="scene"]', 'data-shown-scene');

    const { commands, pauseMs } = context.config.overlay;
    const measure = async (page: Page, send: (i: number) => Promise<unknown>) => {
      const samples: bigint[] = [];
      const warmup = Math.min(20, Math.ceil(commands / 5));
      for (let i = 0; i < warmup + commands; i++) {
        const sent = performance.timeOrigin + performance.now();
        await send(i);
        await page.waitForFunction((n) => (globalThis as unknown as Marks).marks.length >= n, i + 1, {
          polling: 'raf',
        });
        const shown = await page.evaluate((n) => (globalThis as unknown as Marks).marks[n] as number, i);
        if (i >= warmup) samples.push(BigInt(Math.round((shown - sent) * 1e6)));
        await sleep(pauseMs);
      }
      if ((await marksOf(page)) !== warmup + commands)
        throw new Error('the page changed more often than commanded');
      return summarizeNs(samples);
    };
    const scoreboard = await measure(overlay, () => http.action('toggle_scoreboard'));
    const scenes = await measure(sceneWindow, (i) =>
      i % 2 === 0
        ? http.action('show_sen_scene', { scene: i % 4 === 0 ? 'versus' : 'mapRecap' })
        : http.action('hide_sen_scene'),
    );

    // Game data: frame → overlay DOM. The first frame turns the live top bar on; then each frame
    // carries a new whole second on the round clock (and a player's money), so the clock's text
    // changes once per frame.
    const app = new HttpClient(hud.appPort);
    const token = readFileSync(join(dataDir, 'gsi-token'), 'utf8').trim();
    const base = { ...JSON.parse(readFileSync(FRAME, 'utf8')), auth: { token } };
    const frameAt = (i: number) => {
      const body = structuredClone(base);
      body.phase_countdowns = { phase: 'live', phase_ends_in: String(10 + (i % 100) + 0.5) };
      const first = Object.values<{ state: { money: number } }>(body.allplayers)[0];
      if (first) first.state.money = 1000 + i;
      return body;
    };
    const posted = await app.post('/gsi', frameAt(-1));
    if (posted.status !== 200) throw new Error(`POST /gsi answered ${posted.status}`);
    await overlay.locator('[data-topbar][data-game="live"] [data-clock]').waitFor({ state: 'attached' });
    await watch(overlay, '[data-clock]', '#text');
    const frames = await measure(overlay, async (i) => {
      const answer = await app.post('/gsi', frameAt(i));
      if (answer.status !== 200) throw new Error(`POST /gsi answered ${answer.status}`);
    });
    app.close();
    for (const [what, summary] of [
      ['toggle_scoreboard → /hud scoreboard', scoreboard],
      ['show_sen_scene / hide_sen_scene → /scenes/window', scenes],
      ['game frame POST /gsi → /hud top bar clock', frames],
    ] as const) {
      context.log(`  ${what}: p50 ${ms(summary.p50)} p99 ${ms(summary.p99)} max ${ms(summary.max)}`);
      rows.push({
        part: PART,
        figure: `${what}, ${commands} ${what.startsWith('game') ? 'frames' : 'commands'} (pause ${pauseMs} ms), 4 pages open`,
        value: `p50 ${ms(summary.p50)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}`,
        target: `p99 <= ${TARGET_P99_MS} ms`,
        met: summary.p99 <= TARGET_P99_MS,
      });
    }
  } finally {
    http.close();
    await browser.close();
    await hud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
