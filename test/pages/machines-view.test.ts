/**
 * The Machines view in real Chromium against a real server, with every request that would leave
 * this machine aborted and counted: a bo3 veto driven over HTTP lights each state of the veto
 * session in turn and the timeline lists each event with its source; stepping back replays the veto
 * read-only; a game frame and an observer cut show in the observer's chart and timeline; /machines is
 * the same view alone, behind the sign-in. Screenshots in test/.tmp/screenshots/machines-*.png.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, get, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { type Frame, fixture, postFrame, ROUND_SEQUENCE, toCs2, withToken } from '../helpers/gsi.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';

const DESK = { width: 1920, height: 1080 };

const consoles: ConsoleStandIn[] = [];
afterEach(async () => {
  for (const console of consoles.splice(0)) await console.close();
});

describe.skipIf(!chromiumAvailable)('the Machines view in Chromium', () => {
  const chromium = chromiumPerFile();
  /** Requests to anywhere but this machine: aborted, and listed here for the assertion. */
  let leaving: string[] = [];

  async function offlineContext(): Promise<BrowserContext> {
    leaving = [];
    const context = await chromium.newContext(DESK);
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.hostname === '127.0.0.1' || url.hostname === 'localhost') {
        return route.continue();
      }
      leaving.push(url.href);
      return route.abort();
    });
    return context;
  }

  async function machinesTab(server: RunningServer): Promise<Page> {
    const page = await (await offlineContext()).newPage();
    // A missing state fails here, naming the locator, well inside the test's time.
    page.setDefaultTimeout(8_000);
    await page.goto(server.signInUrl());
    await page.locator('[data-status="connection"][data-tone="ok"]').waitFor();
    await page.getByRole('tab', { name: 'Machines' }).click();
    await page.locator('[data-view="machines"] [data-machines-link="live"]').waitFor();
    return page;
  }

  const state = (page: Page, chart: string, path: string) =>
    page.locator(`svg[data-chart="${chart}"] [data-state="${path}"]`);

  it('a bo3 veto over HTTP lights each state in turn, lists each event with its source, and replays read-only', async () => {
    const server = await build();
    const page = await machinesTab(server);
    await state(page, 'vetoSession', 'session.none').and(page.locator('[data-active="yes"]')).waitFor();
    // Nested and parallel: the session's states inside it, the import region beside it.
    expect(await state(page, 'vetoSession', 'session.active.inProgress').getAttribute('data-active')).toBe(
      'no',
    );
    expect(await state(page, 'vetoSession', 'import').count()).toBe(1);
    expect(await page.locator('svg[data-chart="vetoSession"] [data-state-type="parallel"]').count()).toBe(1);

    const mapPool = BO3_ACTIVE_DUTY.map((step) => step.map);
    await ok(server, 'veto_start', {
      boFormat: 'bo3',
      teamA: { name: 'Alpha' },
      teamB: { name: 'Bravo' },
      mapPool,
    });
    await state(page, 'vetoSession', 'session.active.inProgress')
      .and(page.locator('[data-active="yes"]'))
      .waitFor();
    expect(await state(page, 'vetoSession', 'session.none').getAttribute('data-active')).toBe('no');
    await page
      .locator('[data-entry-actor="vetoSession"][data-event="veto.start"][data-source="HTTP"]')
      .waitFor();
    // The transition just taken is marked on the chart.
    expect(await page.locator('svg[data-chart="vetoSession"] [data-taken="yes"]').count()).toBeGreaterThan(0);

    const selects = BO3_ACTIVE_DUTY.filter((step) => step.type !== 'decider');
    for (const [index, step] of selects.entries()) {
      await ok(server, 'veto_select', { map: step.map });
      await expect
        .poll(() =>
          page
            .locator('[data-entry-actor="vetoSession"][data-event="veto.select"][data-source="HTTP"]')
            .count(),
        )
        .toBe(index + 1);
      const now = index === selects.length - 1 ? 'session.active.complete' : 'session.active.inProgress';
      await state(page, 'vetoSession', now).and(page.locator('[data-active="yes"]')).waitFor();
    }
    expect(
      await page.locator('[data-entry-actor="vetoSession"][data-event="veto.select"]').first().textContent(),
    ).toContain(selects.at(-1)?.map ?? '');
    await page.screenshot({ path: `${SCREENSHOTS}machines-veto.png`, fullPage: true });

    // Replay: one step back shows the chart as it was before the last pick, and changes nothing on air.
    await page.locator('[data-action="step-back"]').click();
    await page.locator('[data-replay="on"]').waitFor();
    await state(page, 'vetoSession', 'session.active.inProgress')
      .and(page.locator('[data-active="yes"]'))
      .waitFor();
    expect(await state(page, 'vetoSession', 'session.active.complete').getAttribute('data-active')).toBe(
      'no',
    );
    // Back to the first event recorded: the start of the veto.
    const back = page.locator('[data-action="step-back"]');
    while (await back.isEnabled()) await back.click();
    await page.locator('[data-replay-step="0"]', { hasText: 'veto.start' }).waitFor();
    await page
      .locator('[data-entry-actor="vetoSession"][data-event="veto.start"][data-replayed="yes"]')
      .waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}machines-replay.png`, fullPage: true });
    expect((await get(server, '/api/veto')).body.veto.complete).toBe(true);
    await page.locator('[data-action="step-forward"]').click();
    await page.locator('[data-action="live"]').click();
    await page.locator('[data-replay="off"]').waitFor();
    await state(page, 'vetoSession', 'session.active.complete')
      .and(page.locator('[data-active="yes"]'))
      .waitFor();

    // Pause: the list holds still while events go on; resume shows them.
    await page.locator('[data-action="pause"]').click();
    const listed = await page.locator('[data-entry-actor="vetoSession"]').count();
    await ok(server, 'veto_undo');
    await state(page, 'vetoSession', 'session.active.inProgress')
      .and(page.locator('[data-active="yes"]'))
      .waitFor();
    expect(await page.locator('[data-entry-actor="vetoSession"]').count()).toBe(listed);
    await page.locator('[data-action="pause"]').click();
    await page
      .locator('[data-entry-actor="vetoSession"][data-event="veto.undo"][data-source="HTTP"]')
      .waitFor();

    expect(leaving).toEqual([]);
  });

  it('a game frame and an observer cut show in the observer chart and timeline; the context on demand', async () => {
    const game = new ConsoleStandIn();
    await game.listen();
    consoles.push(game);
    const server = await build({ subscriptionActive: true });
    await ok(server, 'set_observer_console', { host: '127.0.0.1', port: game.port });
    await ok(server, 'set_smart_observer', { enabled: true, mode: 'auto' });
    const page = await machinesTab(server);
    await page.locator('[data-actor="observer"]').click();
    await state(page, 'observer', 'link.session').and(page.locator('[data-active="yes"]')).waitFor();

    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).slice(0, 3).map((frame: Frame) => toCs2(frame));
    for (const frame of frames)
      await postFrame(server.applicationPort, withToken(frame, server.service.game.token));
    // The frame is listed with its source, and the observer's chart hears of it (from the frame
    // itself, or from the actor that game frames reach first).
    await page.locator('[data-source="game frame"]').first().waitFor();
    await page.locator('[data-entry-actor="observer"][data-event="observer.frame"]').first().waitFor();
    // A cut, in whichever strategy the observer uses (by name, or locked to the account id).
    await expect
      .poll(() => game.lines.some((line) => /^spec_(player|lock_to_accountid)\b/.test(line)))
      .toBe(true);
    // The cut is the auto state's frame transition (directFrame, sendCut, …), marked as taken.
    const cut = page.locator('svg[data-chart="observer"] [data-transition][data-taken="yes"]', {
      hasText: 'sendCut',
    });
    await cut.first().waitFor();
    await page.locator('[data-action="context"]').click();
    await page.locator('[data-context="observer"]').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}machines-observer.png`, fullPage: true });
    expect(leaving).toEqual([]);
  });

  it('game frames while the view shows another actor: a few a second listed, each saying how many were not sent; all of them on the game', async () => {
    const server = await build();
    const page = await machinesTab(server);
    const first = toCs2((await fixture(ROUND_SEQUENCE))[0] as Frame);
    const FRAMES = 20;
    for (let index = 0; index < FRAMES; index++) {
      const frame = { ...first, provider: { ...first.provider, timestamp: 1_700_000_000 + index } };
      await postFrame(server.applicationPort, withToken(frame, server.service.game.token));
    }
    const gameFrames = page.locator('[data-entry-actor="game"][data-event="game.frame"]');
    const counted = () =>
      gameFrames.evaluateAll((entries) =>
        entries.reduce(
          (sum, entry) =>
            sum + 1 + Number(entry.querySelector('[data-unsent]')?.getAttribute('data-unsent') ?? 0),
          0,
        ),
      );
    // Nothing hidden: the entries listed and the ones they say were not sent add up to every frame.
    await expect.poll(counted).toBe(FRAMES);
    expect(await gameFrames.count()).toBeLessThan(FRAMES);
    expect(await page.locator('[data-entry-actor="game"] [data-unsent]').first().textContent()).toMatch(
      /more game events? from game frames/,
    );
    // On the game, every frame is listed.
    await page.locator('[data-actor="game"]').click();
    await expect.poll(() => gameFrames.count()).toBe(FRAMES);
    expect(await page.locator('[data-entry-actor="game"] [data-unsent]').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}machines-thinned.png`, fullPage: true });
    expect(leaving).toEqual([]);
  });

  it('/machines is the view alone, behind the sign-in', async () => {
    const server = await build();
    const page = await (await offlineContext()).newPage();
    await page.goto(`${server.applicationUrl}/machines`);
    await page.locator('[data-sign-in]').waitFor();
    const key = new URL(server.signInUrl()).searchParams.get('key') ?? '';
    await page.getByLabel('Sign-in key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-machines-link="live"]').waitFor();
    await state(page, 'vetoSession', 'session.none').and(page.locator('[data-active="yes"]')).waitFor();
    await page.locator('[data-actor="match"]').click();
    await page.locator('svg[data-chart="match"]').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}machines-page.png`, fullPage: true });
    expect(leaving).toEqual([]);
  });
});
