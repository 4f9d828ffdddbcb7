/**
 * Issue 32 in real Chromium against a real server: the Observer view before going live (the launch
 * options to copy; a refused link names the option probably missing), then a stand-in game that obeys
 * cuts by name: the view and /observer show the strategy in use and each cut's outcome, from frames
 * POSTed to /gsi whose `player` block follows what the stand-in was told.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, get, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { type Frame, fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { unusedPort } from '../import/source-server.ts';

const BIG_DADDY = '76561198310998584';
const consoles: ConsoleStandIn[] = [];
afterEach(async () => {
  for (const game of consoles.splice(0)) await game.close();
});

const observerOf = async (server: RunningServer) => (await get(server, '/api/observer')).body.observer;

describe.skipIf(!chromiumAvailable)('the closed loop in the observer pages, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function newPage(width = 1920, height = 1080): Promise<Page> {
    const context = await chromium.newContext({ width, height });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    return context.newPage();
  }

  it('launch options to copy, the option probably missing, then the strategy and the outcome of each cut', {
    timeout: 90_000,
  }, async () => {
    const port = await unusedPort();
    const server = await build({ subscriptionActive: true, netcon: { host: '127.0.0.1', port } });
    await ok(server, 'set_smart_observer', { enabled: true, mode: 'suggest' });
    const page = await newPage();
    await page.goto(server.signInUrl());
    await page.locator('[data-status="connection"][data-tone="ok"]').waitFor();
    await page.getByRole('tab', { name: 'Observer' }).click();

    // Nothing listens yet: the view names the launch option probably missing, and copies the line.
    const options = `-netconport ${port} -tools`;
    expect(await page.locator('[data-observer-launch-options]').textContent()).toBe(options);
    const advice = page.locator(
      `[data-observer-launch-advice][data-observer-launch-missing="-netconport ${port}"]`,
    );
    await advice.waitFor({ timeout: 15_000 });
    expect(await advice.textContent()).toMatch(
      new RegExp(`^Probably missing: -netconport ${port}\\. Nothing listens on 127\\.0\\.0\\.1:${port}: `),
    );
    await page.getByRole('button', { name: 'Copy launch options' }).click();
    await page.getByRole('button', { name: 'Copy launch options' }).filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(options);
    await page.screenshot({ path: `${SCREENSHOTS}observer-view-launch.png`, fullPage: true });

    // The game starts with them and obeys cuts by name.
    const game = new ConsoleStandIn({ obeys: 'name' });
    consoles.push(game);
    await game.listen(port);
    await page.locator('[data-observer-link="connected"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('[data-observer-launch-advice]').count()).toBe(0);
    await page.locator('select[data-setting="observer-mode"]').selectOption('auto');
    await page.locator('[data-observer-state="auto"]').waitFor();

    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).slice(0, 3).map((frame: Frame) => toCs2(frame));
    for (const frame of frames) await postAccepted(server, frame);
    // Big Daddy plants: the cut by name reaches the game, which shows him; the next frame says so.
    await expect.poll(() => game.shown).toEqual({ name: 'Big Daddy' });
    const showing = structuredClone(frames[2] as Frame);
    showing.player = { ...showing.allplayers[BIG_DADDY], steamid: BIG_DADDY };
    await postAccepted(server, showing);
    await expect.poll(async () => (await observerOf(server)).cameraFollows).toBe('following');
    const status = await observerOf(server);
    expect(status.camera).toMatchObject({ strategy: 'name', source: 'proven', exhausted: false });
    expect(status.lastCut).toMatchObject({ name: 'Big Daddy', strategy: 'name', outcome: 'followed' });

    await page
      .locator('[data-camera-follows="following"][data-camera-strategy="name"][data-camera-source="proven"]')
      .waitFor();
    await page
      .locator(
        '[data-card="observer-cuts"] tr[data-cut-slot="8"][data-cut-outcome="followed"][data-cut-strategy="name"]',
      )
      .waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}observer-view-following.png`, fullPage: true });

    // /observer, for the person at the observer PC: the strategy in use and the last cut's outcome.
    const desk = await newPage(1280, 720);
    await desk.goto(server.signInUrl().replace(/\/\?key=/, '/observer?key='));
    await desk.locator('[data-observer-page][data-observer-state="auto"]').waitFor();
    await desk.locator('[data-camera-strategy="name"][data-camera-source="proven"]').waitFor();
    const last = desk.locator('[data-last-cut-outcome="followed"][data-camera-follows="following"]');
    await last.waitFor();
    expect(await last.textContent()).toMatch(/^Last cut shown after \d+ ms$/);
    expect(await desk.locator('[data-camera-strategy]').textContent()).toBe('Cuts: By name');
    await desk.screenshot({ path: `${SCREENSHOTS}observer-page-following.png` });
  });
});
