/**
 * A veto reveal that reveals nothing early (issue 19): driven from the operator app step by step,
 * every broadcast page (the HUD's veto panel and top bar series strip, the versus and map recap
 * scenes) shows only the revealed steps and the maps they give; a new veto starts hidden; the
 * reveal's mode changes nothing on air unless the operator app says so and the operator confirms.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mapLabel } from '../../machines/map-names.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { settled, TEAMS, teamLogos } from '../helpers/hud.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';

const FULL_HD = { width: 1920, height: 1080 };
const HD = { width: 1280, height: 720 };

/**
 * BO3_ACTIVE_DUTY: ban, ban, pick Dust II (map 1), pick Inferno (map 2), ban, ban, decider
 * Overpass (map 3). How many series maps show once n steps are revealed.
 */
const MAPS_AFTER = [0, 0, 0, 1, 2, 2, 2, 3];
const STEP_LABELS = BO3_ACTIVE_DUTY.map((step) => mapLabel(step.map));

describe.skipIf(!chromiumAvailable)('the veto reveal across the broadcast pages, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function open(server: RunningServer, path: string, viewport: ViewportSize): Promise<Page> {
    const context = await chromium.newContext(viewport);
    context.setDefaultTimeout(8_000);
    const page = await context.newPage();
    await page.goto(`${server.applicationUrl}${path}`);
    await page.locator('[data-page][data-ready="true"]').waitFor();
    return page;
  }

  async function operatorApp(server: RunningServer): Promise<Page> {
    const context = await chromium.newContext(FULL_HD);
    context.setDefaultTimeout(8_000);
    const page = await context.newPage();
    await page.goto(server.signInUrl());
    await page.locator('[data-status="connection"][data-tone="ok"]').waitFor();
    await page.getByRole('tab', { name: 'Veto' }).click();
    await page.locator('[data-view="veto"]').waitFor();
    return page;
  }

  /** What a broadcast page shows of the veto: steps turned over, series maps, and its visible text. */
  const onPage = (page: Page) =>
    page.evaluate(() => {
      interface Node {
        getAttribute(name: string): string | null;
        hasAttribute(name: string): boolean;
        innerText: string;
      }
      // This project's tsconfig has no DOM types.
      const { document } = globalThis as unknown as {
        document: {
          querySelectorAll(selector: string): Iterable<Node>;
          querySelector(selector: string): Node;
        };
      };
      const all = (selector: string) => [...document.querySelectorAll(selector)];
      return {
        revealed: all('[data-veto-step][data-revealed="true"]').length,
        // A step face down carries nothing of its map or team.
        hiddenWithMap: all('[data-veto-step][data-revealed="false"]').filter(
          (step) => step.hasAttribute('data-map') || step.hasAttribute('data-team'),
        ).length,
        maps: all('[data-map-number]').map((map) => Number(map.getAttribute('data-map-number'))),
        text: document.querySelector('[data-page]').innerText.toLowerCase(),
      };
    });

  /** Waits until a page shows n revealed steps (when it has a veto panel) and the maps they give. */
  async function expectRevealed(page: Page, n: number, name: string, panel: boolean) {
    const maps = Array.from({ length: MAPS_AFTER[n] ?? 0 }, (_, i) => i + 1);
    await expect
      .poll(
        async () => {
          const shown = await onPage(page);
          return { revealed: panel ? shown.revealed : n, maps: shown.maps };
        },
        { message: `${name} after ${n} steps` },
      )
      .toEqual({ revealed: n, maps });
    const shown = await onPage(page);
    expect(shown.hiddenWithMap, name).toBe(0);
    // No map of a step still hidden appears anywhere on the page (unless a revealed step shows it too).
    for (const label of STEP_LABELS.slice(n)) {
      if (STEP_LABELS.slice(0, n).includes(label)) continue;
      expect(shown.text, `${name} after ${n} steps shows ${label}`).not.toContain(label.toLowerCase());
    }
  }

  it('progressive: each page shows the revealed steps and maps only, step by step; instant asks first; a new veto starts hidden; a live one shows as played', async () => {
    const server = await build();
    const app = await operatorApp(server);
    const hud = await open(server, '/hud', FULL_HD);
    const hudSmall = await open(server, '/hud', HD);
    const versus = await open(server, '/scenes/versus', FULL_HD);
    const recap = await open(server, '/scenes/mapRecap', FULL_HD);
    const pages: Array<[Page, string, boolean]> = [
      [hud, 'hud 1920x1080', true],
      [hudSmall, 'hud 1280x720', true],
      [versus, 'versus', false],
      [recap, 'map recap', false],
    ];
    await ok(server, 'set_event_name', { name: 'IEM Cologne 2026 · Playoffs' });
    await teamLogos(server, hud);

    // The crew chooses step by step before the veto: nothing is on air, nothing changes.
    const count = app.locator('[data-card="veto-reveal"] [data-reveal]');
    await app.locator('[data-reveal-mode="instant"]').waitFor();
    await app.locator('[data-reveal-choose="progressive"]').click();
    await app.locator('[data-reveal-mode="progressive"][data-reveal="0/0"]').waitFor();

    // The veto arrives (veto_set, as a program or the hand-set editor sends it): face down, no maps.
    await ok(server, 'veto_set', { ...TEAMS, steps: BO3_ACTIVE_DUTY });
    await ok(server, 'show_veto');
    await app.locator('[data-reveal="0/7"]').waitFor();
    await hud.locator('[data-panel="veto"][data-visible="true"]').waitFor();
    for (const [page, name, panel] of pages) await expectRevealed(page, 0, name, panel);

    // Step by step from the operator app: after each press every page shows exactly that much.
    for (let n = 1; n <= 7; n++) {
      await app.locator('[data-reveal-action="next"]').click();
      await app.locator(`[data-reveal="${n}/7"]`).waitFor();
      for (const [page, name, panel] of pages) await expectRevealed(page, n, name, panel);
      if (n === 3) {
        for (const [page, file] of [
          [hud, 'veto-reveal-3-of-7-1920x1080'],
          [hudSmall, 'veto-reveal-3-of-7-1280x720'],
          [versus, 'veto-reveal-3-of-7-versus'],
          [recap, 'veto-reveal-3-of-7-map-recap'],
        ] as const) {
          await settled(page);
          await page.screenshot({ path: `${SCREENSHOTS}${file}.png` });
        }
      }
    }
    await settled(hud);
    await hud.screenshot({ path: `${SCREENSHOTS}veto-reveal-7-of-7-1920x1080.png` });

    // Hide all: every page back to nothing.
    await app.locator('[data-reveal-action="reset"]').click();
    await app.locator('[data-reveal="0/7"]').waitFor();
    for (const [page, name, panel] of pages) await expectRevealed(page, 0, name, panel);

    // Instant would put the 7 hidden steps on air: the app says so and asks. Cancel changes nothing.
    const instant = app.locator('[data-reveal-choose="instant"]');
    expect(await instant.textContent()).toMatch(/puts 7 hidden steps on air/);
    await instant.click();
    const dialog = app.locator('dialog[data-confirm][open]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/7 hidden steps turn over on air now/);
    await settled(app);
    await app.screenshot({ path: `${SCREENSHOTS}veto-reveal-instant-confirm.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' }).catch(() => dialog.waitFor({ state: 'hidden' }));
    expect(await count.getAttribute('data-reveal')).toBe('0/7');
    expect((await onPage(hud)).revealed).toBe(0);
    await instant.click();
    await dialog.getByRole('button', { name: 'Show all on air' }).click();
    await app.locator('[data-reveal-mode="instant"][data-reveal="7/7"]').waitFor();
    for (const [page, name, panel] of pages) await expectRevealed(page, 7, name, panel);
    // In instant mode the stepping buttons wait: nothing switches the mode behind the operator's back.
    expect(await app.locator('[data-reveal-action]').count()).toBe(0);

    // Back to step by step: what is on air stays.
    await app.locator('[data-reveal-choose="progressive"]').click();
    await app.locator('[data-reveal-mode="progressive"][data-reveal="7/7"]').waitFor();
    for (const [page, name, panel] of pages) await expectRevealed(page, 7, name, panel);

    // Two steps back, then the same veto set again (a second press): what is on air stays.
    await app.locator('[data-reveal-action="prev"]').click();
    await app.locator('[data-reveal-action="prev"]').click();
    await app.locator('[data-reveal="5/7"]').waitFor();
    await ok(server, 'veto_set', { ...TEAMS, steps: BO3_ACTIVE_DUTY });
    for (const [page, name, panel] of pages) await expectRevealed(page, 5, name, panel);

    // Another veto (a veto_set of other maps): it starts face down, and the series strip is empty.
    await ok(server, 'veto_set', {
      ...TEAMS,
      steps: BO3_ACTIVE_DUTY.map((step) => (step.map === 'de_dust2' ? { ...step, map: 'de_train' } : step)),
    });
    await app.locator('[data-reveal="0/7"]').waitFor();
    await expect.poll(async () => (await onPage(hud)).revealed).toBe(0);
    await expect.poll(async () => (await onPage(recap)).maps).toEqual([]);
    expect((await onPage(versus)).text).not.toContain('train');

    // A live session (issue 33): each step shows as it is played.
    await ok(server, 'veto_start', { ...TEAMS, boFormat: 'bo1', mapPool: ['mirage', 'nuke', 'inferno'] });
    await app.locator('[data-reveal-mode="instant"]').waitFor();
    await ok(server, 'veto_select', { map: 'nuke' });
    await hud.locator('[data-veto-step="1"][data-revealed="true"][data-map="de_nuke"]').waitFor();
    // The crew may still hold a live session's steps: step by step, and the next one waits face down.
    await app.locator('[data-reveal-choose="progressive"]').click();
    await app.locator('[data-reveal-mode="progressive"]').waitFor();
    await ok(server, 'veto_select', { map: 'mirage' });
    await hud.locator('[data-veto-step="2"][data-revealed="false"]').waitFor();
    expect((await onPage(hud)).text).not.toContain('mirage');
    await app.locator('[data-reveal-action="next"]').click();
    await hud.locator('[data-veto-step="2"][data-revealed="true"][data-map="de_mirage"]').waitFor();
    // Five pages follow every step: longer than one page's test on a busy machine.
  }, 120_000);
});
