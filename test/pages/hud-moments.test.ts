/**
 * The moment cards on the overlay (issue 35), driven by frames derived from the captured round
 * posted to /gsi: map point and match point (team A has won map 1 of the bo3: its map point is a
 * match point) at freeze time, half-time, a tactical timeout with the team and its timeouts left, a
 * technical one; each switched off in the operator app (Chromium) stays off air, the switch saved
 * over a restart. At 1920x1080 and 1280x720, with screenshots.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { seriesInProgress, settled } from '../helpers/hud.ts';

const SIZES: Array<[string, ViewportSize]> = [
  ['1920x1080', { width: 1920, height: 1080 }],
  ['1280x720', { width: 1280, height: 720 }],
];

/** DERIVED: the captured freeze-time frame at another score, map phase and clock phase. */
function derived(
  base: Frame,
  {
    ct,
    t,
    mapPhase = 'live',
    phase = 'freezetime',
    ctTimeouts = 1,
    tTimeouts = 1,
  }: {
    ct: number;
    t: number;
    mapPhase?: string;
    phase?: string;
    ctTimeouts?: number;
    tTimeouts?: number;
  },
): Frame {
  const copy = structuredClone(base);
  copy.map.phase = mapPhase;
  // The teams' names, as a tournament server sends them: the sides follow them, whatever the round.
  copy.map.team_ct = { ...copy.map.team_ct, name: 'Natus Vincere' };
  copy.map.team_t = { ...copy.map.team_t, name: 'FaZe Clan' };
  copy.map.round = ct + t;
  copy.map.team_ct = { ...copy.map.team_ct, score: ct, timeouts_remaining: ctTimeouts };
  copy.map.team_t = { ...copy.map.team_t, score: t, timeouts_remaining: tTimeouts };
  copy.round = { phase: phase.startsWith('timeout') || phase === 'paused' ? 'freezetime' : phase };
  copy.phase_countdowns = { phase, phase_ends_in: '30.0' };
  return copy;
}

interface CardSeen {
  visible: string | null;
  moment: string | null;
  team: string | null;
  type: string | null;
  text: string;
}

const cardOf = async (page: Page): Promise<CardSeen> => {
  const card = page.locator('[data-panel="moment"]');
  return {
    visible: await card.getAttribute('data-visible'),
    moment: await card.getAttribute('data-moment'),
    team: await card.getAttribute('data-team'),
    type: await card.getAttribute('data-timeout-type'),
    // What a viewer reads: the words, not the initials tile of a team without a logo (aria-hidden).
    text: (
      await card.evaluate((element) => {
        const words = (
          element as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }
        ).querySelectorAll('[data-moment-words] > *, [data-timeouts-left]');
        return Array.from(words, (w) => w.textContent ?? '').join(' ');
      })
    )
      .replace(/\s+/g, ' ')
      .trim(),
  };
};

describe.skipIf(!chromiumAvailable)('the moment cards, from game frames, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function open(server: RunningServer, viewport: ViewportSize, path = '/hud'): Promise<Page> {
    const context = await chromium.newContext(viewport);
    context.setDefaultTimeout(8_000);
    const page = await context.newPage();
    if (path === '/hud') {
      await page.goto(`${server.applicationUrl}/hud`);
      await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
    } else {
      await page.goto(server.signInUrl());
      // The moment cards' switches are on the Live page, the first view after sign-in.
      await page.locator('[data-view="live"] [data-card="moment-cards"]').waitFor();
    }
    return page;
  }

  it('each card goes on air with its moment and leaves with it; a switched-off card stays off air, saved', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir, gameReceivingTimeoutMs: 15 * 60_000 });
    // Natus Vincere (A) 13:9 on map 1 of a bo3, map 2 in play: one map from the series.
    await seriesInProgress(server, { roster: false });
    const pages = await Promise.all(SIZES.map(([, viewport]) => open(server, viewport)));
    const [hud] = pages as [Page];
    const base = toCs2(((await fixture(ROUND_SEQUENCE)) as Frame[])[10] as Frame);
    await postAccepted(server, derived(base, { ct: 5, t: 4 }));
    await hud.locator('[data-page="hud"][data-side-a="CT"]').waitFor();
    // Natus Vincere (team A) plays CT by the names in the frames: the CT score is team A's.
    const score = (a: number, b: number) => ({ ct: a, t: b });
    const timeoutOf = (team: 'A' | 'B') => (team === 'A' ? 'timeout_ct' : 'timeout_t');

    const expectCard = async (
      frame: Frame | null,
      expected: Partial<CardSeen>,
      label: string,
      shot?: string,
    ) => {
      if (frame) await postAccepted(server, frame);
      for (const [at, page] of pages.entries()) {
        await expect
          .poll(() => cardOf(page), { message: `${label}, ${SIZES[at]?.[0]}` })
          .toMatchObject(expected);
        if (shot) {
          await settled(page);
          await page.screenshot({ path: `${SCREENSHOTS}hud-moment-${shot}-${SIZES[at]?.[0]}.png` });
        }
      }
    };
    const off = { visible: 'false' };
    // The captured freeze time, 5:4: no moment.
    await expectCard(null, off, 'captured');
    // 12:8 for team A, before the round: team A wins the series with this map.
    await expectCard(
      derived(base, score(12, 8)),
      { visible: 'true', moment: 'match-point', team: 'A', text: 'Match point Natus Vincere' },
      'match point',
      'match-point',
    );
    // The round starts: the card leaves.
    await expectCard(derived(base, { ...score(12, 8), phase: 'live' }), off, 'round live');
    // 8:12 for team B, which has no map yet: map point.
    await expectCard(
      derived(base, score(8, 12)),
      { visible: 'true', moment: 'map-point', team: 'B', text: 'Map point FaZe Clan' },
      'map point',
      'map-point',
    );
    // In overtime, 15:14: map point again (16 wins the first overtime); 15:15 nothing.
    await expectCard(derived(base, score(14, 15)), { moment: 'map-point', team: 'B' }, 'overtime map point');
    await expectCard(derived(base, score(15, 15)), off, 'overtime tie');
    // Half-time: the map's intermission.
    await expectCard(
      derived(base, { ...score(7, 5), mapPhase: 'intermission', phase: 'over' }),
      { visible: 'true', moment: 'halftime', text: 'Half-time NV 7 : 5 FAZE' },
      'half-time',
      'halftime',
    );
    // Team B calls a tactical timeout with two left after it.
    const tactical = derived(base, { ...score(9, 6), phase: timeoutOf('B'), ctTimeouts: 2, tTimeouts: 2 });
    await expectCard(
      tactical,
      {
        visible: 'true',
        moment: 'timeout',
        type: 'tactical',
        team: 'B',
        text: 'Tactical timeout FaZe Clan 2 timeouts left',
      },
      'tactical timeout',
      'timeout',
    );
    await expectCard(
      derived(base, { ...score(9, 6), phase: 'paused' }),
      { visible: 'true', moment: 'timeout', type: 'technical', team: null },
      'technical timeout',
    );
    await expectCard(derived(base, score(9, 6)), off, 'timeout over');

    // The operator switches the timeout card off: a timeout no longer puts it on air; the others still go.
    const operator = await open(server, { width: 1440, height: 900 }, '/operator');
    const timeoutSwitch = operator.locator('[data-moment-switch="timeout"]');
    expect(await timeoutSwitch.getAttribute('aria-checked')).toBe('true');
    await timeoutSwitch.click();
    await expect.poll(() => timeoutSwitch.getAttribute('aria-checked')).toBe('false');
    await expectCard(tactical, off, 'timeout, switched off');
    await expectCard(
      derived(base, score(12, 8)),
      { visible: 'true', moment: 'match-point' },
      'match point, timeout switched off',
    );
    await operator.screenshot({ path: `${SCREENSHOTS}operator-moment-switches.png` });

    // Saved: a server started again on the same data keeps the timeout card off.
    await server.close();
    const again = await build({ dataDir, gameReceivingTimeoutMs: 15 * 60_000 });
    const page = await open(again, { width: 1280, height: 720 });
    await postAccepted(again, tactical);
    await page.locator('[data-page="hud"][data-game="live"]').waitFor();
    await page.locator('[data-topbar] [data-phase="timeout"]').waitFor();
    expect((await cardOf(page)).visible).toBe('false');
  });
});
