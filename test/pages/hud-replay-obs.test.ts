/**
 * The replay end to end with a real OBS Studio (its replay buffer writes Matroska with x264, as a
 * broadcast PC does): save_replay, OBS reports the file, the overlay in Chromium plays exactly that
 * file from the application server and hides when it ends.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { obsConnectionLive } from '../../src/obs/obs-socket.ts';
import { build, command } from '../helpers/build.ts';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.ts';
import { createObsStudio, type ObsStudio, obsAvailable } from '../helpers/obs-studio.ts';

const PASSWORD = 'hud-replay-test';

describe.skipIf(!obsAvailable || !chromiumAvailable)(
  'the replay from a real OBS Studio in the overlay',
  () => {
    let studio: ObsStudio;
    let browser: Browser;
    beforeAll(async () => {
      studio = await createObsStudio();
      await studio.launch({ password: PASSWORD, startReplayBuffer: true });
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await studio?.dispose();
    });

    it('plays the clip OBS saved and hides when it ends', { timeout: 60_000 }, async () => {
      const server = await build({
        overrides: { obs: { url: studio.url, password: PASSWORD, enabled: true } },
        machine: (live) =>
          live.provide({
            actors: { obs: obsConnectionLive.provide({ delays: { retryDelay: 200 } }) },
          }),
      });
      const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
      try {
        const page = await context.newPage();
        await page.goto(`${server.applicationUrl}/hud`);
        await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
        // save_replay answers 503 until the service is connected to OBS, 409 until the buffer runs.
        await expect
          .poll(async () => (await command(server, 'save_replay')).status, {
            timeout: 20_000,
            interval: 1_000,
          })
          .toBe(200);
        await page
          .locator('[data-panel="replay"][data-visible="true"]')
          .waitFor({ state: 'attached', timeout: 15_000 });
        const src = await page.locator('[data-panel="replay"]').getAttribute('data-replay-src');
        const path = decodeURIComponent(src?.replace('/replay?path=', '') ?? '');
        expect(path.startsWith(studio.replayDir)).toBe(true);
        await page.waitForFunction(() => {
          const video = (
            globalThis as unknown as {
              document: { querySelector(s: string): { currentTime: number } | null };
            }
          ).document.querySelector('[data-panel="replay"] video');
          return (video?.currentTime ?? 0) > 0.2;
        });
        await page
          .locator('[data-panel="replay"][data-visible="false"]')
          .waitFor({ state: 'attached', timeout: 30_000 });
      } finally {
        await context.close();
      }
    });
  },
);
