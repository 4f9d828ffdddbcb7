import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import type { PartContext } from '../lib/config.ts';
import { HttpClient } from '../lib/http-client.ts';
import { ROOT, startServerProcess } from '../lib/server-process.ts';
import { ms, sleep, summarizeNs } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const PART = 'Command → page DOM';
const CHROMIUM = '/usr/bin/chromium';
const TARGET_P99_MS = 50;

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
      new g.MutationObserver(() => g.marks.push(g.performance.timeOrigin + g.performance.now())).observe(
        target,
        {
          attributes: true,
          attributeFilter: [attribute],
          subtree: false,
        },
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
 */
export async function overlayLatency(context: PartContext): Promise<Row[]> {
  if (!existsSync(CHROMIUM)) {
    return [{ part: PART, figure: 'skipped', value: `${CHROMIUM} not found (apt-get install chromium)` }];
  }
  if (!existsSync(join(ROOT, 'dist/pages/hud.html'))) {
    const { build } = await import('vite');
    await build({ configFile: join(ROOT, 'src/pages/vite.config.ts'), logLevel: 'warn' });
  }
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    nodeOptions: context.nodeOptions('overlay-latency'),
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
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
    for (const [what, summary] of [
      ['toggle_scoreboard → /hud scoreboard', scoreboard],
      ['show_sen_scene / hide_sen_scene → /scenes/window', scenes],
    ] as const) {
      context.log(`  ${what}: p50 ${ms(summary.p50)} p99 ${ms(summary.p99)} max ${ms(summary.max)}`);
      rows.push({
        part: PART,
        figure: `${what}, ${commands} commands (pause ${pauseMs} ms), 4 pages open`,
        value: `p50 ${ms(summary.p50)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}`,
        target: `p99 <= ${TARGET_P99_MS} ms`,
        met: summary.p99 <= TARGET_P99_MS,
      });
    }
  } finally {
    http.close();
    await browser.close();
    await hud.stop();
  }
  return rows;
}
