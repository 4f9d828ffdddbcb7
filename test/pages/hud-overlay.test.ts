import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, ok, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { ROSTER, seriesInProgress, settled, TEAMS, teamLogos } from '../helpers/hud.ts';

const FULL_HD = { width: 1920, height: 1080 };

describe.skipIf(!chromiumAvailable)('the HUD overlay in Chromium', () => {
  const chromium = chromiumPerFile();

  /** Opens /hud as OBS would (1920x1080, no sign-in) and waits for its first state. */
  async function overlay(server: RunningServer, viewport = FULL_HD): Promise<Page> {
    const context = await chromium.newContext(viewport);
    const page = await context.newPage();
    await page.goto(`${server.applicationUrl}/hud`);
    await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
    return page;
  }

  // Hidden panels are in the page but not visible (the hooks say which): wait for the attribute.
  const panel = (page: Page, name: string, visible: boolean) =>
    page.locator(`[data-panel="${name}"][data-visible="${visible}"]`).waitFor({ state: 'attached' });

  it('reports its presets and the panel flags when it opens; the overlay window opens with it', async () => {
    const server = await build();
    expect((await get(server, '/api/presets')).body).toEqual({ ok: true, presets: [] });
    expect((await get(server, '/api/state')).body.state).not.toHaveProperty('scoreboardVisible');

    const page = await overlay(server);
    await expect
      .poll(async () => (await get(server, '/api/presets')).body.presets.map((p: { id: string }) => p.id))
      .toEqual(['midnight', 'crimson', 'arctic', 'neon']);
    const { state } = (await get(server, '/api/state')).body;
    expect(state).toMatchObject({
      scoreboardVisible: false,
      vetoVisible: false,
      statsVisible: false,
      hudWindowOpen: true,
    });
    await page.locator('[data-overlay-visible="true"][data-preset="midnight"]').waitFor();
    expect((await get(server, '/api/presets')).body.presets[0]).toEqual({ id: 'midnight', name: 'Midnight' });
  });

  it('keeps the scoreboard and veto flags a command set before the overlay opened', async () => {
    const server = await build();
    await ok(server, 'show_scoreboard');
    await ok(server, 'hide_overlay');
    const page = await overlay(server);
    await panel(page, 'scoreboard', true);
    await page.locator('[data-overlay-visible="false"]').waitFor();
    const { state } = (await get(server, '/api/state')).body;
    expect(state).toMatchObject({ scoreboardVisible: true, vetoVisible: false, hudWindowOpen: false });
  });

  it('toggle_scoreboard, show_scoreboard, hide_scoreboard: the scoreboard with the roster by slot', async () => {
    const server = await build();
    const page = await overlay(server);
    await seriesInProgress(server);
    await panel(page, 'scoreboard', false);
    await ok(server, 'toggle_scoreboard');
    await panel(page, 'scoreboard', true);
    const board = page.locator('[data-panel="scoreboard"]');
    for (const [name, slot] of ROSTER) {
      await expect(board.locator(`[data-slot="${slot}"]`).textContent()).resolves.toContain(name);
    }
    await expect(board.locator('[data-team="A"]').textContent()).resolves.toBe('Natus Vincere');
    await expect(board.locator('[data-series-score="A"]').textContent()).resolves.toBe('1');
    await ok(server, 'hide_scoreboard');
    await panel(page, 'scoreboard', false);
    await ok(server, 'show_scoreboard');
    await panel(page, 'scoreboard', true);
    await ok(server, 'toggle_scoreboard');
    await panel(page, 'scoreboard', false);
  });

  it('toggle_veto, show_veto, hide_veto and veto_reveal: the steps turn over as revealed', async () => {
    const server = await build();
    const page = await overlay(server);
    await seriesInProgress(server);
    await ok(server, 'show_veto');
    await panel(page, 'veto', true);
    const steps = page.locator('[data-panel="veto"] [data-veto-step]');
    await expect(steps.count()).resolves.toBe(7);
    const first = page.locator('[data-veto-step="1"]');
    expect(await first.getAttribute('data-type')).toBe('ban');
    expect(await first.getAttribute('data-team')).toBe('A');
    expect(await first.getAttribute('data-map')).toBe('de_ancient');
    expect(await page.locator('[data-veto-step="7"]').getAttribute('data-team')).toBeNull();
    expect(await page.locator('[data-veto-step="7"]').getAttribute('data-type')).toBe('decider');

    const revealed = (n: number) =>
      page
        .locator('[data-veto-step][data-revealed="true"]')
        .count()
        .then((count) => count === n);
    const waitRevealed = async (n: number) => {
      await page.locator(`[data-veto-step="${n || 1}"][data-revealed="${n > 0}"]`).waitFor();
      await expect.poll(() => revealed(n)).toBe(true);
    };
    await ok(server, 'veto_reveal', { mode: 'reset' });
    await waitRevealed(0);
    await ok(server, 'veto_reveal', { mode: 'next' });
    await waitRevealed(1);
    await ok(server, 'veto_reveal', { mode: 'next' });
    await waitRevealed(2);
    await ok(server, 'veto_reveal', { mode: 'prev' });
    await waitRevealed(1);
    await ok(server, 'veto_reveal', { mode: 'all' });
    await waitRevealed(7);
    await ok(server, 'veto_reveal', { instant: false });
    await ok(server, 'veto_reveal', { mode: 'reset' });
    await waitRevealed(0);
    await ok(server, 'veto_reveal', { instant: true });
    await waitRevealed(7);

    await ok(server, 'toggle_veto');
    await panel(page, 'veto', false);
    await ok(server, 'toggle_veto');
    await panel(page, 'veto', true);
    await ok(server, 'hide_veto');
    await panel(page, 'veto', false);
  });

  it('shows a manual veto session live as it is played', async () => {
    const server = await build();
    const page = await overlay(server);
    await ok(server, 'show_veto');
    await ok(server, 'veto_start', { ...TEAMS });
    await ok(server, 'veto_select', { map: 'ancient' });
    await page.locator('[data-veto-step="1"][data-map="de_ancient"][data-revealed="true"]').waitFor();
    await ok(server, 'veto_select', { map: 'nuke' });
    await page.locator('[data-veto-step="2"][data-map="de_nuke"][data-team="B"]').waitFor();
    await ok(server, 'veto_undo');
    await expect.poll(() => page.locator('[data-veto-step]').count()).toBe(1);
  });

  it('top bar: set_teams renames everywhere at once, set_map_result fills the series maps, set_event_name', async () => {
    const server = await build();
    const page = await overlay(server);
    await seriesInProgress(server);
    await ok(server, 'show_veto');
    // Events arrive in revision order: once the veto panel shows, the series before it is on the page.
    await panel(page, 'veto', true);
    const bar = page.locator('[data-topbar]');
    await expect(bar.locator('[data-team="B"]').textContent()).resolves.toBe('FaZe Clan');
    await expect(bar.locator('[data-series-score="A"]').textContent()).resolves.toBe('1');
    const map1 = bar.locator('[data-map-number="1"]');
    expect(await map1.getAttribute('data-map')).toBe('de_dust2');
    expect(await map1.getAttribute('data-score-a')).toBe('13');
    expect(await map1.getAttribute('data-finished')).toBe('true');

    await ok(server, 'set_map_result', { map: 'inferno', scoreA: 10, scoreB: 13, finished: true });
    await bar.locator('[data-map-number="2"][data-finished="true"][data-score-b="13"]').waitFor();
    await bar.locator('[data-series-score="B"]', { hasText: '1' }).waitFor();

    await ok(server, 'set_teams', { teamA: { name: 'Vitality' }, teamB: { name: 'FaZe Clan' } });
    await bar.locator('[data-team="A"]', { hasText: 'Vitality' }).waitFor();
    await page
      .locator('[data-panel="scoreboard"] [data-team="A"]', { hasText: 'Vitality' })
      .waitFor({ state: 'attached' });
    await page.locator('[data-panel="veto"] .veto__teams', { hasText: 'Vitality' }).waitFor();
    await page.locator('[data-veto-step="1"]', { hasText: 'Vitality' }).waitFor();

    await ok(server, 'set_event_name', { name: 'BLAST Premier Final' });
    await bar.locator('[data-event-name]', { hasText: 'BLAST Premier Final' }).waitFor();
  });

  it('set_color_preset switches the theme at once; an unknown preset is refused in the envelope', async () => {
    const server = await build();
    const page = await overlay(server);
    await expect.poll(async () => (await get(server, '/api/presets')).body.presets.length).toBe(4);
    await ok(server, 'set_color_preset', { presetId: 'crimson' });
    await page.locator('[data-page="hud"][data-preset="crimson"]').waitFor();
    const bad = await command(server, 'set_color_preset', { presetId: 'sepia' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_payload' });
    await ok(server, 'set_color_preset', { presetId: 'arctic' });
    await page.locator('[data-page="hud"][data-preset="arctic"]').waitFor();
  });

  it('toggle_overlay, show_overlay, hide_overlay show and hide the whole overlay on every overlay page', async () => {
    const server = await build();
    const [one, two] = [await overlay(server), await overlay(server)];
    for (const page of [one, two]) await page.locator('[data-overlay-visible="true"]').waitFor();
    await ok(server, 'toggle_overlay');
    for (const page of [one, two]) await page.locator('[data-overlay-visible="false"]').waitFor();
    expect((await get(server, '/api/state')).body.state.hudWindowOpen).toBe(false);
    await ok(server, 'show_overlay');
    for (const page of [one, two]) await page.locator('[data-overlay-visible="true"]').waitFor();
    await ok(server, 'hide_overlay');
    for (const page of [one, two]) await page.locator('[data-overlay-visible="false"]').waitFor();
    // Reopening a page does not reopen a window a command closed.
    await one.reload();
    await one.locator('[data-page="hud"][data-ready="true"]').waitFor();
    expect(await one.locator('[data-page="hud"]').getAttribute('data-overlay-visible')).toBe('false');
  });

  it('reload_overlay reloads every connected overlay page', async () => {
    const server = await build();
    const page = await overlay(server);
    await page.evaluate(() => {
      (globalThis as { beforeReload?: boolean }).beforeReload = true;
    });
    const loaded = page.waitForEvent('load');
    await ok(server, 'reload_overlay');
    await loaded;
    await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
    expect(
      await page.evaluate(() => (globalThis as { beforeReload?: boolean }).beforeReload),
    ).toBeUndefined();
  });

  it('keeps its last state while the server restarts, reconnects by itself and catches up', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    const page = await overlay(first);
    await seriesInProgress(first);
    await ok(first, 'show_scoreboard');
    await panel(page, 'scoreboard', true);
    const appPort = first.applicationPort;
    await page.evaluate(() => {
      (globalThis as { sameDocument?: boolean }).sameDocument = true;
    });
    await first.close();
    // The last state stays on screen while the server is away.
    expect(await page.locator('[data-panel="scoreboard"]').getAttribute('data-visible')).toBe('true');

    const second = await build({ dataDir, appPort });
    await ok(second, 'hide_scoreboard');
    await ok(second, 'set_teams', { teamA: { name: 'G2 Esports' }, teamB: { name: 'FaZe Clan' } });
    await panel(page, 'scoreboard', false);
    await page.locator('[data-topbar] [data-team="A"]', { hasText: 'G2 Esports' }).waitFor();
    // Caught up without a reload: the same document.
    expect(await page.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it('nothing blinks when the same state arrives again: a reconnect to a restarted server changes no panel', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    const page = await overlay(first);
    // The roster comes from the game and is not saved: without it the state after the restart is the same.
    await seriesInProgress(first, { roster: false });
    await ok(first, 'show_veto');
    await ok(first, 'show_scoreboard');
    await panel(page, 'veto', true);
    await settled(page);
    // Every change inside the panels and the top bar from now on is counted.
    await page.evaluate(() => {
      const g = globalThis as unknown as {
        mutations: number;
        document: { querySelectorAll(s: string): Iterable<unknown> };
        MutationObserver: new (cb: (records: unknown[]) => void) => { observe(n: unknown, o: object): void };
      };
      g.mutations = 0;
      const observer = new g.MutationObserver((records) => {
        g.mutations += records.length;
      });
      for (const node of g.document.querySelectorAll('[data-panel], [data-topbar]'))
        observer.observe(node, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const appPort = first.applicationPort;
    await first.close();
    await page.locator('[data-connection="reconnecting"]').waitFor();
    await build({ dataDir, appPort });
    await page.locator('[data-connection="open"]').waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { mutations: number }).mutations)).toBe(0);
  });

  it('scales to the size it is given, keeping its proportions', async () => {
    const server = await build();
    // The top bar is on air once the match is set (before that the HUD shows nothing).
    await ok(server, 'set_teams', { teamA: { name: 'Natus Vincere' }, teamB: { name: 'FaZe Clan' } });
    for (const [viewport, scale] of [
      [{ width: 1280, height: 720 }, '0.6667'],
      [{ width: 3840, height: 2160 }, '2.0000'],
    ] as const) {
      const page = await overlay(server, viewport);
      expect(await page.locator('[data-stage-scale]').getAttribute('data-stage-scale')).toBe(scale);
      const box = await page.locator('[data-topbar]').boundingBox();
      expect(box?.width).toBeCloseTo(1000 * Number(scale), 0);
    }
  });

  it('writes screenshots of the top bar with the scoreboard and with the veto, in two presets', async () => {
    const server = await build();
    const page = await overlay(server);
    await seriesInProgress(server);
    await teamLogos(server, page);
    await page.locator('[data-topbar] img[data-logo="B"]').first().waitFor(); // the team's, then the strip's picks
    await ok(server, 'show_scoreboard');
    await panel(page, 'scoreboard', true);
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}hud-scoreboard.png`, omitBackground: true });
    await ok(server, 'hide_scoreboard');
    await ok(server, 'show_veto');
    await panel(page, 'veto', true);
    await ok(server, 'veto_reveal', { instant: false });
    await ok(server, 'veto_reveal', { mode: 'reset' });
    for (let i = 0; i < 5; i++) await ok(server, 'veto_reveal', { mode: 'next' });
    await page.locator('[data-veto-step="5"][data-revealed="true"]').waitFor();
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}hud-veto.png`, omitBackground: true });
    await ok(server, 'set_color_preset', { presetId: 'arctic' });
    await ok(server, 'veto_reveal', { mode: 'all' });
    await page.locator('[data-preset="arctic"]').waitFor();
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}hud-veto-arctic.png`, omitBackground: true });
  });
});
