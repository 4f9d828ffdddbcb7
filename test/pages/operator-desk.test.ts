/**
 * The operator app as a crew uses it at the desk, in real Chromium against real servers: the header
 * stays one line at 1280x800 (and 1024x768) with long names and every status chip filled; the chips
 * go grey while the page's link to the server is down (the server really closed) and come back when
 * it is up again; F9 and F7, shown beside the panel switches, toggle those panels from anywhere in
 * the app through the same command as the switch.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { FAZE_NAVI, fixture, postFrame, toCs2, withToken } from '../helpers/gsi.ts';

const LAPTOP = { width: 1280, height: 800 };
const TABLET = { width: 1024, height: 768 };
const UPRIGHT = { width: 800, height: 1280 };

/** The overlay's report, as the HUD page sends it: the panels' states become known. */
async function overlayReports(server: RunningServer, report: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${server.httpUrl}/internal/overlay_report`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
  });
  expect(response.status).toBe(200);
}

/** A frame from the game, so the Game data chip is green. */
async function gameFrame(server: RunningServer): Promise<void> {
  const frame = withToken(toCs2(await fixture(FAZE_NAVI)), server.service.game.token);
  expect((await postFrame(server.applicationPort, frame)).status).toBe(200);
}

describe.skipIf(!chromiumAvailable)('the operator app at the desk, in Chromium', () => {
  const chromium = chromiumPerFile();

  const signedIn = (server: RunningServer, viewport = LAPTOP): Promise<Page> =>
    chromium.operator(server, viewport);

  /** The header's layout: its height, the height of its tallest item, and the rows its items sit on. */
  const headerLayout = (page: Page) =>
    page.getByRole('banner').evaluate((header) => {
      // The tests' TypeScript has no DOM library: the window is reached through the element.
      const view = header.ownerDocument.defaultView as unknown as {
        getComputedStyle(element: unknown): {
          paddingTop: string;
          paddingBottom: string;
          borderBottomWidth: string;
          fontSize: string;
        };
        innerWidth: number;
      };
      const style = view.getComputedStyle(header);
      const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
      const items = [...header.children, ...header.querySelectorAll('[data-status]')]
        .map((item) => item.getBoundingClientRect())
        .filter((item) => item.width > 0);
      // The items shown: a minor one (the revision) is left out where there is no room.
      const chips = [...header.querySelectorAll('[data-status]')]
        .map((chip) => chip.getBoundingClientRect())
        .filter((chip) => chip.width > 0);
      const box = header.getBoundingClientRect();
      // How many lines of text an element's content takes (its boxes' extent in font sizes, < 2 is one).
      const lines = (element: typeof header) => {
        const range = header.ownerDocument.createRange();
        range.selectNodeContents(element);
        const rects = [...range.getClientRects()];
        const extent = Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top));
        return extent / Number.parseFloat(view.getComputedStyle(element).fontSize) < 2 ? 1 : 2;
      };
      const texts = [...header.querySelectorAll('[data-match-title], [data-status], button')].filter(
        (element) => element.getBoundingClientRect().width > 0,
      );
      return {
        textLines: Math.max(...texts.map(lines)),
        height: box.height,
        contentHeight: box.height - padding - Number.parseFloat(style.borderBottomWidth),
        tallest: Math.max(...items.map((item) => item.height)),
        chipRows: new Set(chips.map((chip) => Math.round(chip.top))).size,
        chipHeight: Math.max(...chips.map((chip) => chip.height)),
        overflows: header.scrollWidth > header.clientWidth,
        right: Math.max(...items.map((item) => item.right)),
        width: view.innerWidth,
      };
    });

  /** The tabs not whole in the window: a tab out of sight is a view the desk cannot find. */
  async function tabsOutOfSight(page: Page): Promise<string[]> {
    const width = page.viewportSize()?.width ?? 0;
    const out: string[] = [];
    for (const tab of await page.getByRole('tab').all()) {
      const box = await tab.boundingBox();
      if (!box || box.x < 0 || box.x + box.width > width) out.push((await tab.textContent()) ?? '');
    }
    return out;
  }

  it('keeps the header on one line at 1280x800 and 1024x768 with long names and every chip filled', async () => {
    // OBS switched on towards a port where nothing listens: the longest chip, with its reason.
    // --headless: the match commands below work before a page is open.
    // The game data stays "receiving" for the whole test, however slow the machine.
    const server = await build({
      overrides: { obs: { enabled: true, url: 'ws://127.0.0.1:9' } },
      gameReceivingTimeoutMs: 120_000,
    });
    await command(server, 'set_teams', {
      teamA: { name: 'Natus Vincere' },
      teamB: { name: 'Team Vitality' },
      boFormat: 'bo3',
    });
    await command(server, 'set_event_name', { name: 'PGL Major Copenhagen 2026 · Playoffs' });
    await overlayReports(server, { scoreboardVisible: false, vetoVisible: false, statsVisible: false });

    await gameFrame(server);
    for (const viewport of [LAPTOP, TABLET]) {
      const page = await signedIn(server, viewport);
      await page.locator('[data-status="game"][data-tone="ok"]').waitFor();
      // OBS away: connecting again and again, with the reason of the last failure.
      await page.locator('[data-status="obs"][data-tone="warn"][title^="OBS: Connecting…: "]').waitFor();
      await page.locator('[data-match-title]', { hasText: 'PGL Major' }).waitFor();
      const size = `${viewport.width}x${viewport.height}`;
      await page.screenshot({ path: `${SCREENSHOTS}header-${size}.png` });
      const layout = await headerLayout(page);
      // One line: every chip on one row, and the header no taller than its tallest item.
      expect(layout.chipRows, size).toBe(1);
      expect(layout.textLines, size).toBe(1);
      expect(layout.contentHeight, size).toBeLessThanOrEqual(layout.tallest + 1);
      expect(layout.overflows, size).toBe(false);
      expect(layout.right, size).toBeLessThanOrEqual(layout.width);
      expect(await tabsOutOfSight(page), size).toEqual([]);
    }

    // A tablet held upright has no room for one line: the status items take a row of their own,
    // still one line of chips, inside the window.
    const upright = await signedIn(server, UPRIGHT);
    await upright.locator('[data-status="game"][data-tone="ok"]').waitFor();
    await upright.screenshot({ path: `${SCREENSHOTS}header-800x1280.png` });
    const layout = await headerLayout(upright);
    expect(layout.chipRows).toBe(1);
    expect(layout.textLines).toBe(1);
    expect(layout.overflows).toBe(false);
    const bar = await upright.getByRole('list', { name: 'Status' }).boundingBox();
    expect((bar?.x ?? 0) + (bar?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(UPRIGHT.width);
    // The tabs wrap: the Integrations take a second row, their label with them.
    expect(await tabsOutOfSight(upright)).toEqual([]);
    const box = async (selector: string) =>
      (await upright.locator(selector).boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
    const live = await box('[data-tab="live"]');
    const group = await box('.tabs__group');
    const automation = await box('[data-tab="automation"]');
    const rows = {
      secondRow: automation.y >= live.y + live.height,
      labelBeside: group.y >= automation.y && group.y + group.height <= automation.y + automation.height,
    };
    expect(rows).toEqual({ secondRow: true, labelBeside: true });
  }, 60_000); // three pages, three screenshots

  it('greys every chip while the link to the server is down, and brings them back when it is up', async () => {
    const dataDir = await tempDir();
    const first = await build({ headless: false, dataDir });
    await gameFrame(first);
    const page = await signedIn(first);
    await page.locator('[data-status="game"][data-tone="ok"]').waitFor();
    await page.locator('[data-status="automation"][data-tone="ok"]').waitFor();
    const shell = page.locator('[data-connection]');
    const chips = page.locator('[data-status]');
    const tones = () =>
      chips.evaluateAll((items) =>
        Object.fromEntries(
          items.map((item) => [item.getAttribute('data-status'), item.getAttribute('data-tone')]),
        ),
      );

    // The server goes away under the page: the page's own link says so first.
    const port = first.applicationPort;
    await first.close();
    await page.locator('[data-connection="reconnecting"]').waitFor();
    const down = await tones();
    const { connection, ...others } = down;
    expect(connection).toBe('warn');
    for (const [chip, tone] of Object.entries(others)) expect(tone, chip).toBe('stale');
    // Nothing in them is drawn in the "fine" green (--ok), neither the dot nor the text.
    const colours = await chips.evaluateAll((items) =>
      items.flatMap((item) =>
        [item, ...item.querySelectorAll('*')].flatMap((part) => {
          const style = (
            item.ownerDocument.defaultView as unknown as {
              getComputedStyle(element: unknown): { backgroundColor: string; color: string };
            }
          ).getComputedStyle(part);
          return [style.backgroundColor, style.color];
        }),
      ),
    );
    expect(colours).not.toContain('rgb(47, 191, 113)');
    // A hotkey pressed now is not sent, and the page says so in words.
    await page.keyboard.press('F9');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Scoreboard not toggled: Not connected to the server' })
      .waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}header-link-down-1280x800.png` });

    // The same server again (same data directory, same port): the page reconnects on its own.
    const second = await build({ headless: false, dataDir, appPort: port });
    await shell.and(page.locator('[data-connection="open"]')).waitFor({ timeout: 15_000 });
    await page.locator('[data-status="automation"][data-tone="ok"]').waitFor();
    await page.locator('[data-status="game"][data-tone="idle"]').waitFor(); // no frame since the restart
    await gameFrame(second);
    await page.locator('[data-status="game"][data-tone="ok"]').waitFor();
    expect(Object.values(await tones())).not.toContain('stale');
    await page.screenshot({ path: `${SCREENSHOTS}header-link-up-1280x800.png` });
  });

  it('F9 and F7 toggle the scoreboard and the veto panel from anywhere in the app, as their switches do', async () => {
    const server = await build({ headless: false });
    await overlayReports(server, { scoreboardVisible: false, vetoVisible: false, statsVisible: false });
    const page = await signedIn(server);
    const visible = () => server.service.hub.hudState();

    // The Live view shows the keys on the switches they press.
    await page.getByRole('tab', { name: 'Live' }).click();
    const scoreboard = page.getByRole('switch', { name: 'Scoreboard' });
    await expect(scoreboard.getAttribute('aria-keyshortcuts')).resolves.toBe('F9');
    await expect(
      page.getByRole('switch', { name: 'Veto panel' }).getAttribute('aria-keyshortcuts'),
    ).resolves.toBe('F7');
    await page.locator('[data-hotkey="F9"]').waitFor();

    await page.keyboard.press('F9');
    await page.locator('[data-panel-switch="scoreboard"][aria-checked="true"]').waitFor();
    expect(visible().scoreboardVisible).toBe(true);
    await page
      .locator('[data-hotkey-feedback="F9"][data-hotkey-ok="yes"]', { hasText: 'Scoreboard shown' })
      .waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}hotkey-f9-1280x800.png` });

    // From another view, with the focus in a text field: still the panel's key.
    await page.getByRole('tab', { name: 'Match' }).click();
    await page.getByLabel('Event name').focus();
    await page.keyboard.press('F7');
    await expect.poll(() => visible().vetoVisible).toBe(true);
    await page.locator('[data-hotkey-feedback="F7"]', { hasText: 'Veto panel shown' }).waitFor();
    await page.keyboard.press('F9');
    await expect.poll(() => visible().scoreboardVisible).toBe(false);

    // Held down, a key toggles once; with a modifier it is not ours.
    await page.keyboard.down('F7');
    await page.keyboard.down('F7');
    await page.keyboard.down('F7');
    await page.keyboard.up('F7');
    await expect.poll(() => visible().vetoVisible).toBe(false);
    await page.keyboard.press('Shift+F9');
    await page.keyboard.press('Control+F7');
    // One plain press after them: had they sent anything, it would have arrived first (one socket).
    await page.keyboard.press('F9');
    await expect.poll(() => visible().scoreboardVisible).toBe(true);

    // The same command path as the switch: each press is a trigger from the app in the recent requests.
    await page.getByRole('tab', { name: /Local automation/ }).click();
    const fromApp = page.locator('[data-request-row][data-transport="app"]');
    await fromApp.first().waitFor();
    const requests = await fromApp.locator('[data-request]').allTextContents();
    expect(requests.filter((request) => request === 'trigger toggle_scoreboard')).toHaveLength(3);
    expect(requests.filter((request) => request === 'trigger toggle_veto')).toHaveLength(2);
    expect(visible()).toMatchObject({ scoreboardVisible: true, vetoVisible: false });
  });
});
