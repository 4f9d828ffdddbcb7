/**
 * The Live page of the operator app, in real Chromium against a real server: the first view after
 * sign-in; what is on air now; every on-air switch with its key on the button; clean feed and
 * restore from the page (the server's state after the restore deep-equal to before); a key set by
 * the operator, saved on the server, shown on its button and working; a key another switch has
 * refused in words. Screenshots at 1920x1080, 1280x800 and 800x1280; at each, what a crew needs at
 * once (clean feed and every on-air switch) is on screen without scrolling, nothing is cut at the
 * sides, and the stylesheet nests no rule in another (a lost brace hides whole sections' styles).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { panelApi } from '../helpers/hud.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';
import { connect } from '../helpers/ws-client.ts';

const DESK = { width: 1920, height: 1080 };
const LAPTOP = { width: 1280, height: 800 };
const UPRIGHT = { width: 800, height: 1280 };

/** A 1x1 PNG: the smallest image the media store takes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The overlay's report, as the HUD page sends it: the panels' states become known. */
async function overlayReports(server: RunningServer, report: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${server.httpUrl}/internal/overlay_report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
  });
  expect(response.status).toBe(200);
}

/** Everything on air as the server holds it: the HUD state's flags and scene, the corners. */
function onAir(server: RunningServer) {
  const hud = server.service.hub.hudState();
  const { production } = server.service.hub.snapshots();
  return {
    scoreboard: hud.scoreboardVisible,
    veto: hud.vetoVisible,
    stats: hud.statsVisible,
    radar: hud.radarVisible,
    overlay: hud.hudWindowOpen,
    scene: hud.senScene,
    sponsor: production.context.sponsorOverlay.enabled,
    badge: production.context.eventBadge.enabled,
  };
}

/** A show on air: teams and a veto half revealed, the overlay, scoreboard and radar, a scene, both corners. */
async function showOnAir(server: RunningServer): Promise<void> {
  const api = await panelApi(server);
  const image = (await api.upload(PNG)).body.media.id as string;
  await api.settings({ branding: { sponsors: [{ name: 'Hyperion', image }] } });
  await ok(server, 'set_event_name', { name: 'IEM Cologne 2026' });
  await ok(server, 'veto_set', {
    boFormat: 'bo3',
    teamA: { name: 'Team Vitality' },
    teamB: { name: 'Team Spirit' },
    steps: BO3_ACTIVE_DUTY,
  });
  await ok(server, 'veto_reveal', { instant: false });
  await ok(server, 'veto_reveal', { mode: 'reset' });
  await ok(server, 'veto_reveal', { mode: 'next' });
  await ok(server, 'veto_reveal', { mode: 'next' });
  await overlayReports(server, {
    opened: true,
    scoreboardVisible: false,
    vetoVisible: false,
    statsVisible: false,
    radarVisible: true,
  });
  await ok(server, 'show_overlay');
  await ok(server, 'show_scoreboard');
  await ok(server, 'show_sen_scene', { scene: 'versus' });
  await ok(server, 'set_sponsor_overlay', { enabled: true });
  await ok(server, 'set_event_badge', { enabled: true });
}

describe.skipIf(!chromiumAvailable)('the Live page, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function signedIn(server: RunningServer, viewport = LAPTOP): Promise<Page> {
    const page = await chromium.operator(server, viewport);
    page.setDefaultTimeout(10_000);
    return page;
  }

  it('comes first after sign-in and shows what is on air, with every switch and its key', async () => {
    const server = await build();
    await showOnAir(server);
    const page = await signedIn(server, DESK);
    await page.locator('[data-view="live"]').waitFor();
    expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Live');

    const item = (id: string) => page.locator(`[data-on-air="${id}"]`);
    await item('scoreboard').and(page.locator('[data-state="on"]')).waitFor();
    expect(await item('veto').getAttribute('data-state')).toBe('off');
    expect(await item('radar').getAttribute('data-state')).toBe('on');
    expect(await item('overlay').getAttribute('data-state')).toBe('on');
    expect(await item('scene').textContent()).toContain('Versus scene');
    expect(await item('reveal').textContent()).toContain('2 of 7 steps · step by step');
    expect(await item('sponsor').getAttribute('data-state')).toBe('on');
    expect(await item('badge').getAttribute('data-state')).toBe('on');
    expect(await item('observer').textContent()).toContain('Off');

    // The keys are on the buttons they press, and announced.
    const scoreboard = page.locator('[data-live-switch="scoreboard"]');
    expect(await scoreboard.locator('[data-hotkey]').textContent()).toBe('F9');
    expect(await scoreboard.getAttribute('aria-keyshortcuts')).toBe('F9');
    expect(await page.locator('[data-live-switch="veto"] [data-hotkey]').textContent()).toBe('F7');
    expect(await scoreboard.getAttribute('aria-checked')).toBe('true');
    expect(await page.locator('[data-live-switch="scene_versus"]').getAttribute('aria-checked')).toBe('true');

    // A switch clicked runs its command.
    await page.getByRole('switch', { name: /^Veto panel/ }).click();
    await expect.poll(() => onAir(server).veto).toBe(true);
    await item('veto').and(page.locator('[data-state="on"]')).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}live-1920x1080.png`, fullPage: true });
  });

  it('clean feed and every on-air switch above the fold at 1920x1080, 1280x800 and 800x1280; nothing cut', async () => {
    const server = await build();
    await showOnAir(server);
    for (const viewport of [DESK, LAPTOP, UPRIGHT]) {
      const size = `${viewport.width}x${viewport.height}`;
      const page = await signedIn(server, viewport);
      await page.locator('[data-on-air="scoreboard"][data-state="on"]').waitFor();
      await page.locator('[data-card="recent-changes"] [data-history-entry="0"]').waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}live-fold-${size}.png` });
      const needed = [
        page.locator('[data-action="clean-feed"]'),
        page.locator('[data-action="restore-feed"]'),
        ...(await page.locator('[data-live-switch]').all()),
      ];
      expect(needed.length, size).toBeGreaterThan(10);
      for (const control of needed) {
        const box = await control.boundingBox();
        const name = `${size}: ${await control.textContent()}`;
        expect(box, name).not.toBeNull();
        const { x, y, width, height } = box as { x: number; y: number; width: number; height: number };
        expect(x, name).toBeGreaterThanOrEqual(0);
        expect(x + width, name).toBeLessThanOrEqual(viewport.width);
        expect(y + height, name).toBeLessThanOrEqual(viewport.height);
      }
      // Nothing wider than the window: no card cut at the right.
      expect(
        await page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
              .documentElement.scrollWidth,
        ),
        size,
      ).toBeLessThanOrEqual(viewport.width);
      // Recent changes: the time, the change and the hint apart, as their styles lay them out.
      expect(
        await page
          .locator('[data-card="recent-changes"] [data-history-entry="0"]')
          .evaluate(
            (item) =>
              (
                globalThis as unknown as { getComputedStyle(e: unknown): { display: string } }
              ).getComputedStyle(item).display,
          ),
      ).toBe('flex');
      await page.context().close();
    }
    // A rule nested in another (CSS nesting) only by a brace lost in a merge: its styles never apply.
    const page = await signedIn(server, LAPTOP);
    const nested = await page.evaluate(() => {
      const found: string[] = [];
      type Rule = { selectorText?: string; cssRules?: ArrayLike<Rule>; constructor: { name: string } };
      const walk = (rules: ArrayLike<Rule>) => {
        for (const rule of Array.from(rules)) {
          if (rule.constructor.name === 'CSSStyleRule' && (rule.cssRules?.length ?? 0) > 0)
            found.push(rule.selectorText ?? '');
          else if (rule.cssRules) walk(rule.cssRules);
        }
      };
      const doc = (
        globalThis as unknown as { document: { styleSheets: ArrayLike<{ cssRules: ArrayLike<Rule> }> } }
      ).document;
      for (const sheet of Array.from(doc.styleSheets)) walk(sheet.cssRules);
      return found;
    });
    expect(nested).toEqual([]);
  });

  it('clean feed takes everything off air, and restore brings back exactly what was there', async () => {
    const server = await build();
    await showOnAir(server);
    const before = onAir(server);
    for (const viewport of [LAPTOP, UPRIGHT]) {
      const size = `${viewport.width}x${viewport.height}`;
      const page = await signedIn(server, viewport);
      await page.locator('[data-on-air="scoreboard"][data-state="on"]').waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}live-${size}.png`, fullPage: true });

      expect(await page.locator('[data-action="restore-feed"]').isDisabled()).toBe(true);
      await page.locator('[data-action="clean-feed"]').click();
      await page.locator('[data-clean-feed="on"]').waitFor();
      expect(onAir(server)).toEqual({
        scoreboard: false,
        veto: false,
        stats: false,
        radar: false,
        overlay: false,
        scene: null,
        sponsor: false,
        badge: false,
      });
      expect(await page.locator('[data-clean-feed="on"]').textContent()).toContain(
        'Restore brings back: Scoreboard, Radar, HUD overlay window, Versus scene, Sponsor overlay, Event badge.',
      );
      for (const id of ['scoreboard', 'radar', 'overlay', 'scene', 'sponsor', 'badge'])
        expect(await page.locator(`[data-on-air="${id}"]`).getAttribute('data-state'), id).toBe('off');
      await page.screenshot({ path: `${SCREENSHOTS}live-clean-feed-${size}.png`, fullPage: true });

      await page.locator('[data-action="restore-feed"]').click();
      await page.locator('[data-clean-feed="off"]').waitFor();
      expect(onAir(server)).toEqual(before);
      await page.locator('[data-on-air="scoreboard"][data-state="on"]').waitFor();
      await page.context().close();
    }
  });

  it('a key set by the operator is saved, shown on its button and works; a key another switch has is refused', async () => {
    const server = await build();
    await showOnAir(server);
    const page = await signedIn(server, LAPTOP);
    await page.locator('[data-view="live"]').waitFor();

    await page.getByText('Set the key of each switch').click();
    await page.getByLabel('Key for Clean feed').selectOption('F2');
    await page.locator('[data-hotkey-saved]', { hasText: 'Clean feed: F2' }).waitFor();
    expect(server.service.settings.current().hotkeys?.clean_feed).toBe('F2');
    await page.locator('[data-action="clean-feed"] [data-hotkey="F2"]').waitFor();

    // F9 is the scoreboard's: refused in words, the select back on what the server keeps.
    await page.getByLabel('Key for Restore feed').selectOption('F9');
    await page
      .locator('[data-card="hotkeys"] [role="alert"]', {
        hasText:
          'F9 is already the key of Scoreboard: clear it there first, or choose another key for Restore feed',
      })
      .waitFor();
    expect(await page.getByLabel('Key for Restore feed').inputValue()).toBe('');
    expect(server.service.settings.current().hotkeys?.restore_feed).toBeNull();
    await page.getByLabel('Key for Restore feed').selectOption('R');
    await page.locator('[data-action="restore-feed"] [data-hotkey="R"]').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}live-keys-1280x800.png`, fullPage: true });

    // The keys work from another view: F2 cleans the feed, R (not typed in a field) restores it.
    const before = onAir(server);
    await page.getByRole('tab', { name: 'Veto' }).click();
    await page.keyboard.press('F2');
    await expect.poll(() => onAir(server).overlay).toBe(false);
    await page
      .locator('[data-hotkey-feedback="F2"][data-hotkey-ok="yes"]', { hasText: 'Clean feed' })
      .waitFor();
    await page.getByRole('tab', { name: 'Live' }).click();
    await page.locator('[data-clean-feed="on"]').waitFor();
    await page.keyboard.press('r');
    await expect.poll(() => onAir(server)).toEqual(before);
    await page.locator('[data-clean-feed="off"]').waitFor();

    // A page opened later shows the saved keys.
    const again = await signedIn(server, LAPTOP);
    await again.locator('[data-action="clean-feed"] [data-hotkey="F2"]').waitFor();
  });

  it('asks before its tab closes while a program is connected to the automation server, not otherwise', async () => {
    const server = await build({ headless: false });
    const page = await signedIn(server, LAPTOP);
    await page.locator('[data-automation-clients="0"]').waitFor();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    // The browser asks only on a page the operator has used (a click is enough).
    await page.getByRole('tab', { name: 'Live' }).click();

    // A Stream Deck through Companion holds a WebSocket to the automation server.
    const companion = await connect(server.wsUrl);
    await companion.next(); // hello
    await page.locator('[data-automation-clients="1"]').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}live-clients-1280x800.png`, fullPage: true });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => dialogs).toEqual(['beforeunload']);
    // Dismissed: the tab stays, and so does the main window.
    expect(page.isClosed()).toBe(false);
    expect(server.service.hub.hudState().mainWindowOpen).toBe(true);

    // Once the program is gone, the tab closes without a question.
    companion.close();
    await page.locator('[data-automation-clients="0"]').waitFor();
    const closed = new Promise<void>((resolve) => page.once('close', () => resolve()));
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(dialogs).toEqual(['beforeunload']);
  });
});
