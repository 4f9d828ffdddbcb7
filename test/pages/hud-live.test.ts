import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { seriesInProgress, settled, teamLogos } from '../helpers/hud.ts';

const FULL_HD = { width: 1920, height: 1080 };

/**
 * What the top bar says at each frame of the captured round (ROUND_SEQUENCE: round 9 of de_dust2,
 * 4:4, the bomb planted, defused, CT win, then the freeze time of round 10). Team A plays CT (the
 * operator's default; the capture has no team names).
 */
const EXPECTED_TOP_BAR = [
  { scoreA: 4, scoreB: 4, clock: '1:14', phase: 'live', round: 9, text: null },
  { scoreA: 4, scoreB: 4, clock: '1:08', phase: 'live', round: 9, text: null },
  { scoreA: 4, scoreB: 4, clock: '1:07', phase: 'live', round: 9, text: null },
  { scoreA: 4, scoreB: 4, clock: '1:04', phase: 'live', round: 9, text: null },
  { scoreA: 4, scoreB: 4, clock: '0:40', phase: 'bomb', round: 9, text: 'Bomb planted' },
  { scoreA: 4, scoreB: 4, clock: '0:31', phase: 'bomb', round: 9, text: 'Bomb planted' },
  { scoreA: 4, scoreB: 4, clock: '9.9', phase: 'defuse', round: 9, text: 'Defusing' },
  { scoreA: 4, scoreB: 4, clock: '0.1', phase: 'defuse', round: 9, text: 'Defusing' },
  { scoreA: 4, scoreB: 4, clock: '0:07', phase: 'over', round: 9, text: 'Bomb defused · Natus Vincere win' },
  { scoreA: 5, scoreB: 4, clock: '0:01', phase: 'over', round: 9, text: 'Bomb defused · Natus Vincere win' },
  { scoreA: 5, scoreB: 4, clock: '0:15', phase: 'freezetime', round: 10, text: 'Freeze time' },
] as const;

/** The HUD slot of a CS:GO capture's observer_slot (1..9, 0): the same number. */
const hudSlotOf = (player: Frame) => player.observer_slot as number;

describe.skipIf(!chromiumAvailable)('the HUD overlay with live game data in Chromium', () => {
  const chromium = chromiumPerFile();

  async function overlay(server: RunningServer): Promise<Page> {
    const context = await chromium.newContext(FULL_HD);
    // A wait that fails says which one, well before the test's own timeout.
    context.setDefaultTimeout(8_000);
    const page = await context.newPage();
    await page.goto(`${server.applicationUrl}/hud`);
    await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
    return page;
  }

  const roundFrames = async () => ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));

  /** Waits until every player box shows the frame's values for that player, in its team's column. */
  async function boxesShow(page: Page, frame: Frame, teamASide: 'CT' | 'T') {
    for (const player of Object.values<Frame>(frame.allplayers)) {
      const slot = (hudSlotOf(player) + 1) % 10; // toCs2 shifted it; the server shifts it back
      const team = player.team === teamASide ? 'A' : 'B';
      const { health, money } = player.state;
      const { kills, deaths, assists } = player.match_stats;
      await page
        .locator(
          `[data-team-boxes="${team}"] [data-slot="${slot}"][data-side="${player.team}"]` +
            `[data-alive="${health > 0}"]:has([data-health="${health}"]):has([data-money="${money}"])` +
            `:has([data-kills="${kills}"]):has([data-deaths="${deaths}"]):has([data-assists="${assists}"])`,
        )
        .waitFor({ state: 'attached' });
    }
  }

  it('top bar, player boxes and the observed player follow a replayed round; receiving off brings the map score back', async () => {
    // Long enough that a busy machine does not let it lapse between two frames of the replay.
    const server = await build({ gameReceivingTimeoutMs: 4_000 });
    const page = await overlay(server);
    await seriesInProgress(server, { roster: false });
    const topbar = page.locator('[data-topbar]');
    // No game data: the map score of the map in play (map 2, 7:5).
    await page.locator('[data-topbar][data-game="off"] [data-score-source="map"]').waitFor();
    await expect.poll(() => topbar.locator('[data-score="A"]').textContent()).toBe('7');
    expect(await page.locator('[data-panel="players"]').getAttribute('data-visible')).toBe('false');

    const frames = await roundFrames();
    for (const [index, frame] of frames.entries()) {
      const expected = EXPECTED_TOP_BAR[index];
      if (!expected) throw new Error(`no expectation for frame ${index}`);
      await postAccepted(server, frame);
      const centre = page.locator(
        `[data-topbar][data-game="live"] [data-phase="${expected.phase}"]:has([data-round="${expected.round}"])`,
      );
      await centre
        .locator('[data-clock]', { hasText: expected.clock })
        .waitFor({ timeout: 3_000 })
        .catch(async (error) => {
          const html = await page.locator('[data-topbar]').innerHTML();
          throw new Error(`frame ${index}: ${html}`, { cause: error });
        });
      expect(await centre.locator('[data-score="A"]').textContent(), `frame ${index}`).toBe(
        String(expected.scoreA),
      );
      expect(await centre.locator('[data-score="B"]').textContent(), `frame ${index}`).toBe(
        String(expected.scoreB),
      );
      if (expected.text) expect(await centre.locator('[data-phase-text]').textContent()).toBe(expected.text);
      else expect(await centre.locator('[data-phase-text]').count()).toBe(0);
      // Team A (CT here) with its side marker.
      expect(await topbar.locator('[data-side-marker]').allTextContents()).toEqual(['CT', 'T']);

      await boxesShow(page, frame, 'CT');
      const observedSlot = (hudSlotOf(frame.player) + 1) % 10;
      const boxes = page.locator('[data-panel="players"][data-visible="true"]');
      await boxes.locator(`[data-slot="${observedSlot}"][data-observed="true"]`).waitFor();
      expect(await page.locator('[data-panel="players"] [data-observed="true"]').count()).toBe(1);
      const observed = page.locator(
        `[data-panel="observed"][data-visible="true"][data-observed-slot="${observedSlot}"]`,
      );
      await observed.waitFor();
      expect(await observed.locator('[data-observed-name]').textContent()).toBe(frame.player.name);
      const own = frame.allplayers[frame.player.steamid];
      expect(await observed.locator('[data-health]').getAttribute('data-health')).toBe(
        String(own.state.health),
      );
      expect(await observed.locator('[data-kills]').getAttribute('data-kills')).toBe(
        String(own.match_stats.kills),
      );
      if (index === 4) {
        await settled(page);
        await page.screenshot({ path: `${SCREENSHOTS}hud-live-bomb.png` });
      }
    }
    expect(server.service.hub.hudState().gameReceiving).toBe(true);

    // No frame for 4 s: "receiving" goes off, the map score is back and the boxes hide.
    await page.locator('[data-topbar][data-game="off"] [data-score-source="map"]').waitFor();
    await page.locator('[data-panel="players"][data-visible="false"]').waitFor({ state: 'attached' });
    await page.locator('[data-panel="observed"][data-visible="false"]').waitFor({ state: 'attached' });
    expect(server.service.hub.hudState().gameReceiving).toBe(false);
    // And on again with the next frame.
    const last = frames.at(-1);
    if (!last) throw new Error('no frames');
    await postAccepted(server, last);
    await page.locator('[data-topbar][data-game="live"] [data-phase="freezetime"]').waitFor();
    await page.locator('[data-panel="players"][data-visible="true"]').waitFor({ state: 'attached' });
    // Eleven frames, each waited for on two panels, and a 4 s silence: more than the default on a busy machine.
  }, 60_000);

  it('a frame that changes one value changes only that value; the same frame again changes nothing; steps move only the radar', async () => {
    const server = await build();
    const page = await overlay(server);
    await seriesInProgress(server, { roster: false });
    const [first] = await roundFrames();
    if (!first) throw new Error('no frames');
    await postAccepted(server, first);
    await boxesShow(page, first, 'CT');
    await settled(page);

    // Every DOM change in the overlay from here on, as the element (or the text's parent) it hit.
    await page.evaluate(() => {
      const g = globalThis as unknown as {
        document: { querySelector(s: string): unknown };
        MutationObserver: new (
          cb: (records: Array<{ target: { nodeType: number; parentElement: unknown } }>) => void,
        ) => { observe(node: unknown, options: Record<string, boolean>): void };
        __mutations: unknown[];
      };
      g.__mutations = [];
      new g.MutationObserver((records) => {
        for (const record of records) {
          g.__mutations.push(record.target.nodeType === 3 ? record.target.parentElement : record.target);
        }
      }).observe(g.document.querySelector('[data-page="hud"]'), {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    });
    const changedSlots = () =>
      page.evaluate(() => {
        const g = globalThis as unknown as {
          __mutations: Array<{ closest(s: string): { getAttribute(n: string): string | null } | null }>;
        };
        const slots = g.__mutations.map(
          (el) => el.closest('[data-slot]')?.getAttribute('data-slot') ?? 'other',
        );
        g.__mutations = [];
        return [...new Set(slots)];
      });

    // The same frame again: nothing in the page changes.
    await postAccepted(server, first);
    await postAccepted(server, first);
    // A frame that only gives one player (Clubwho, HUD slot 1) 100 more: only that player's values change.
    const richer = structuredClone(first);
    const clubwho = Object.values<Frame>(richer.allplayers).find((p) => p.name === 'Clubwho');
    if (!clubwho) throw new Error('Clubwho not in the capture');
    clubwho.state.money += 100;
    await postAccepted(server, richer);
    await page
      .locator(`[data-panel="players"] [data-slot="1"] [data-money="${clubwho.state.money}"]`)
      .waitFor();
    // The scoreboard (hidden) holds slot 1 too: both rows of slot 1 and nothing else.
    expect(await changedSlots()).toEqual(['1']);

    // A frame in which every player only steps and turns: the radar's dots move and nothing else in
    // the page changes (that nothing else re-renders either: live-signals.test.ts).
    const moved = structuredClone(richer);
    for (const player of Object.values<Frame>(moved.allplayers)) {
      const [x, y, z] = String(player.position).split(', ').map(Number);
      player.position = `${(x as number) + 40}, ${(y as number) - 25}, ${z}`;
      player.forward = '0.6, 0.8, 0.0';
    }
    await postAccepted(server, moved);
    await page.waitForFunction(() => {
      const g = globalThis as unknown as { __mutations: Array<{ closest(s: string): unknown }> };
      return g.__mutations.filter((el) => el.closest('[data-panel="radar"] [data-slot]')).length >= 10;
    });
    const panels = await page.evaluate(() => {
      const g = globalThis as unknown as {
        __mutations: Array<{ closest(s: string): { getAttribute(n: string): string | null } | null }>;
      };
      return [...new Set(g.__mutations.map((el) => el.closest('[data-panel]')?.getAttribute('data-panel')))];
    });
    expect(panels).toEqual(['radar']);
  });

  it('show_player_stats with provider live and toggle_stats show the live values and follow them', async () => {
    const server = await build();
    const page = await overlay(server);
    await seriesInProgress(server, { roster: false });
    const frames = await roundFrames();
    const [first] = frames;
    if (!first) throw new Error('no frames');
    await postAccepted(server, first);
    // AussiePing, HUD slot 2: 14 kills in the first frame, 15 in the second.
    await ok(server, 'show_player_stats', { slot: 2, provider: 'live' });
    const stats = page.locator(
      '[data-panel="stats"][data-visible="true"][data-slot-shown="2"][data-provider="live"]',
    );
    await stats.locator('[data-stats-source="live"] [data-kills="14"]').waitFor();
    expect(await stats.locator('[data-stats-name]').textContent()).toBe('AussiePing');
    await postAccepted(server, frames[1] as Frame);
    await stats.locator('[data-stats-source="live"] [data-kills="15"]').waitFor();
    expect(await stats.locator('[data-money]').getAttribute('data-money')).toBe('350');

    // toggle_stats: the player set in the application, the observed one (AussiePing now, slot 2) …
    await ok(server, 'hide_stats');
    await page.locator('[data-panel="stats"][data-visible="false"]').waitFor({ state: 'attached' });
    await postAccepted(server, frames[5] as Frame); // Atomic observed, slot 3
    const answer = await ok(server, 'toggle_stats');
    expect(answer.result.player).toEqual({ slot: 3, provider: 'live' });
    await page
      .locator('[data-panel="stats"][data-visible="true"][data-slot-shown="3"] [data-kills="14"]')
      .waitFor();
    expect(await page.locator('[data-panel="stats"] [data-stats-name]').textContent()).toBe('Atomic');
  });

  it('screenshots of the live overlay: top bar, boxes, observed player, scoreboard and stats', async () => {
    const server = await build();
    const page = await overlay(server);
    await seriesInProgress(server, { roster: false });
    await teamLogos(server, page);
    // The pro GOTV capture: FaZe Clan CT 7, Natus Vincere T 3, round 11; the names set the sides.
    const frame = toCs2(await fixture(FAZE_NAVI));
    await postAccepted(server, frame);
    await page.locator('[data-topbar][data-game="live"] [data-score="A"]', { hasText: '3' }).waitFor();
    expect(await page.locator('[data-topbar] [data-side-marker]').allTextContents()).toEqual(['T', 'CT']);
    // NAVI (team A) plays T: its column holds the T players, whatever their slots.
    const navi = Object.values<Frame>(frame.allplayers).filter((p) => p.team === 'T');
    for (const player of navi) {
      await page
        .locator(`[data-team-boxes="A"] [data-slot="${(hudSlotOf(player) + 1) % 10}"][data-side="T"]`)
        .waitFor();
    }
    await page.locator('[data-panel="observed"][data-visible="true"]').waitFor();
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}hud-live.png` });

    await ok(server, 'show_scoreboard');
    await page.locator('[data-panel="scoreboard"][data-visible="true"] [data-observed="true"]').waitFor();
    await ok(server, 'toggle_stats');
    await page.locator('[data-panel="stats"][data-visible="true"] [data-stats-source="live"]').waitFor();
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}hud-live-scoreboard-stats.png` });
  });
});
