/**
 * The observer's pages in real Chromium against a real server: the operator app's Integrations >
 * Observer (subscription switch, mode, console address and link, suggestion, last cuts) and the
 * /observer page for the person at the observer PC (the key to press, big). Game frames are POSTed
 * to /gsi with the cfg's token; the game's console is a stand-in on 127.0.0.1.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { type Frame, fixture, postFrame, ROUND_SEQUENCE, toCs2, withToken } from '../helpers/gsi.ts';

const DESK = { width: 1920, height: 1080 };

const post = (server: RunningServer, frame: Frame) =>
  postFrame(server.applicationPort, withToken(frame, server.service.game.token));
const observerOf = async (server: RunningServer) => (await get(server, '/api/observer')).body.observer;

/** The round capture as CS2 sends it, up to Big Daddy's plant (slot 8). */
async function plantFrames(): Promise<Frame[]> {
  const frames: Frame[] = await fixture(ROUND_SEQUENCE);
  return frames.slice(0, 3).map((frame) => toCs2(frame));
}

const consoles: ConsoleStandIn[] = [];
afterEach(async () => {
  for (const console of consoles.splice(0)) await console.close();
});

describe.skipIf(!chromiumAvailable)('the observer pages in Chromium', () => {
  const chromium = chromiumPerFile();

  async function newPage(viewport = DESK): Promise<Page> {
    const context = await chromium.newContext(viewport);
    return context.newPage();
  }

  it('Integrations > Observer: subscription, mode, console address, the link, the suggestion and the cuts', async () => {
    const game = new ConsoleStandIn();
    await game.listen();
    consoles.push(game);
    const server = await build();
    const page = await newPage();
    await page.goto(server.signInUrl());
    await page.locator('[data-status="connection"][data-tone="ok"]').waitFor();
    await page.getByRole('tab', { name: 'Observer' }).click();
    await page.locator('[data-view="observer"] [data-observer-view]').waitFor();
    await page.locator('[data-observer-state="disabled"]').waitFor();

    // Without a subscription, switching it on says where to activate one: on this very view.
    await page.getByRole('switch', { name: /^Smart observer/ }).click();
    await page.getByRole('alert').filter({ hasText: 'Integrations > Observer' }).waitFor();
    await page.getByRole('switch', { name: /Subscription active/ }).click();
    await expect.poll(async () => (await observerOf(server)).subscriptionActive).toBe(true);
    await page.getByRole('switch', { name: /^Smart observer/ }).click();
    await page.locator('[data-observer-state="suggest"]').waitFor();

    // A public address is refused with the rule in words; the stand-in's is taken.
    await page.getByLabel('Console address (IP)').fill('8.8.8.8');
    await page.getByLabel('Port').fill(String(game.port));
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByRole('alert').filter({ hasText: 'local network' }).waitFor();
    await page.getByLabel('Console address (IP)').fill('127.0.0.1');
    await page.getByRole('button', { name: 'Save address' }).click();
    // The link connects in suggest already: "connected" shows before going live.
    await page.locator(`[data-observer-link="connected"]`, { hasText: `127.0.0.1:${game.port}` }).waitFor();

    await page.locator('select[data-setting="observer-mode"]').selectOption('auto');
    await page.locator('[data-observer-state="auto"]').waitFor();
    await page.locator('[data-observer-link="connected"]').waitFor();

    for (const frame of await plantFrames()) await post(server, frame);
    await page.locator('[data-card="observer-suggestion"] [data-suggestion-slot="8"]').waitFor();
    await page.locator('[data-suggestion-reason="planting"]').waitFor();
    await page.locator('[data-card="observer-cuts"] tr[data-cut-slot="8"][data-cut-sent="yes"]').waitFor();
    expect(game.lines).toContain('spec_player "Big Daddy"');
    await page.screenshot({ path: `${SCREENSHOTS}observer-view.png`, fullPage: true });
    // The frames never show the pick (this stand-in obeys nothing): the view says so, strategy by strategy.
    // The follow window is 1.5 s on the actor's clock; the bound only says when to give up, and a
    // full-page screenshot under a loaded CI machine took most of the 5 s it was.
    await page.locator('[data-camera-follows="ignored"]').first().waitFor({ timeout: 20_000 });
    await page.locator('[data-cut-outcome="not_followed"]').first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}observer-view-not-followed.png`, fullPage: true });
    await page.locator('select[data-setting="observer-strategy"]').selectOption('lock');
    await page.locator('[data-camera-source="pinned"][data-camera-strategy="lock"]').waitFor();
    await page.getByRole('button', { name: 'Test cut' }).click();
    await page.locator('[data-cut-strategy="lock"]').first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}observer-view-pinned.png`, fullPage: true });

    // The game quits: the link says why, in words.
    await game.close();
    await page.locator('[data-observer-link="disconnected"]').waitFor();
    await page.locator('[data-observer-link-words]').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}observer-view-link-down.png`, fullPage: true });
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: `${SCREENSHOTS}observer-view-1024x768.png`, fullPage: true });
  });

  it('/observer: signed in like the operator app; the key to press, the name, the reason and since when', async () => {
    const server = await build({ headless: false, subscriptionActive: true });
    const shell = (report: object) =>
      fetch(`${server.httpUrl}/internal/host_report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(report),
      });
    // set_smart_observer needs the main window: the shell opens it for the command, then closes it.
    await shell({ mainWindowOpen: true, signedIn: true });
    const suggest = await command(server, 'set_smart_observer', { enabled: true, mode: 'suggest' });
    expect(suggest.status).toBe(200);
    await shell({ mainWindowOpen: false });

    // Not signed in: the sign-in form, then the page.
    const page = await newPage();
    await page.goto(`${server.applicationUrl}/observer`);
    await page.getByLabel('Sign-in key').waitFor();
    await page.getByLabel('Sign-in key').fill(new URL(server.signInUrl()).searchParams.get('key') ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-observer-page][data-observer-state="suggest"]').waitFor();
    await page.getByText('No suggestion yet').waitFor();
    // It only shows: it is not the operator app's main window.
    expect(server.service.hub.hudState().mainWindowOpen).toBe(false);

    for (const frame of await plantFrames()) await post(server, frame);
    const watch = page.locator('[data-suggestion-slot="8"][data-side="T"]');
    await watch.waitFor();
    expect(await page.getByLabel('Key 8').textContent()).toBe('8');
    expect(await page.locator('[data-suggestion-name]').textContent()).toBe('Big Daddy');
    await page.locator('[data-suggestion-reason="planting"]').waitFor();
    await expect
      .poll(() => page.locator('[data-suggestion-since]').textContent())
      .toMatch(/changed (just now|\d+ s ago)/);
    // The key is big enough to read across a desk.
    const box = await page.getByLabel('Key 8').boundingBox();
    expect(box?.height).toBeGreaterThan(200);
    await page.screenshot({ path: `${SCREENSHOTS}observer-page.png` });

    // Switched off: the page says so.
    await shell({ mainWindowOpen: true });
    await command(server, 'set_smart_observer', { enabled: false });
    await page.getByText('The smart observer is off').waitFor();

    // The sign-in address works for this page too (/observer?key=…).
    const linked = await newPage({ width: 1280, height: 720 });
    await linked.goto(server.signInUrl().replace(/\/\?key=/, '/observer?key='));
    await linked.locator('[data-observer-page]').waitFor();
    expect(linked.url()).toBe(`${server.applicationUrl}/observer`);

    // Its view-key address shows without signing in (read-only: docs/access.md).
    const viewing = await newPage({ width: 1280, height: 720 });
    await viewing.goto(`${server.applicationUrl}/observer?view=${server.service.secrets.viewKey()}`);
    await viewing.getByText('The smart observer is off').waitFor();
    expect(await viewing.getByLabel('Sign-in key').count()).toBe(0);
  });
});
