/**
 * The bomb on the overlay (issue 35), driven by the captured round posted to /gsi like the game:
 * the bomb's bar from the plant, the defuse's bar beside it once a defuse starts (the bomb's time
 * still running down), the defuser named, the kit when he has one; defused and exploded. At
 * 1920x1080 and 1280x720, with screenshots of the defuse.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { seriesInProgress, settled } from '../helpers/hud.ts';

const SIZES: Array<[string, ViewportSize]> = [
  ['1920x1080', { width: 1920, height: 1080 }],
  ['1280x720', { width: 1280, height: 720 }],
];

/** What the bomb panel says, from its hooks and its words. */
interface BombSeen {
  visible: string | null;
  state: string | null;
  explodesIn: string | null;
  defuseIn: string | null;
  defuseSeconds: string | null;
  defuser: string | null;
  kit: boolean;
  bombTime: string | null;
  defuseTime: string | null;
}

async function bombOf(page: Page): Promise<BombSeen> {
  const panel = page.locator('[data-panel="bomb"]');
  const text = async (selector: string) => {
    const found = panel.locator(selector);
    return (await found.count()) ? await found.textContent() : null;
  };
  return {
    visible: await panel.getAttribute('data-visible'),
    state: await panel.getAttribute('data-bomb-state'),
    explodesIn: await panel.getAttribute('data-explodes-in'),
    defuseIn: await panel.getAttribute('data-defuse-in'),
    defuseSeconds: await panel.getAttribute('data-defuse-seconds'),
    defuser: (await panel.locator('[data-defuser]').count())
      ? await panel.locator('[data-defuser]').getAttribute('data-defuser')
      : null,
    kit: (await panel.getByRole('img', { name: 'Defuse kit' }).count()) > 0,
    bombTime: await text('[data-bomb-time]'),
    defuseTime: await text('[data-defuse-time]'),
  };
}

describe.skipIf(!chromiumAvailable)('the bomb on the overlay, from real frames, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function overlay(server: RunningServer, viewport: ViewportSize): Promise<Page> {
    return chromium.hud(server, viewport);
  }

  it('the bomb bar runs on through the defuse, the defuse bar beside it names the defuser; defused, kit, exploded', async () => {
    const server = await build({ gameReceivingTimeoutMs: 15 * 60_000 });
    await seriesInProgress(server, { roster: false });
    const pages = await Promise.all(SIZES.map(([, viewport]) => overlay(server, viewport)));
    const frames = ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));
    const nameOf = (frame: Frame, steamid: string) => frame.allplayers[steamid].name as string;
    const atomic = nameOf(frames[6] as Frame, (frames[6] as Frame).bomb.player);

    /** Posts a frame and waits on every page until the panel's state is the one expected. */
    const expectBomb = async (frame: Frame, expected: Partial<BombSeen>, label: string) => {
      await postAccepted(server, frame);
      for (const [at, page] of pages.entries())
        await expect
          .poll(() => bombOf(page), { message: `${label}, ${SIZES[at]?.[0]}` })
          .toMatchObject(expected);
    };
    const off = { visible: 'false' };
    await expectBomb(frames[0] as Frame, off, 'carried');
    await expectBomb(frames[2] as Frame, off, 'planting');
    await expectBomb(
      frames[4] as Frame,
      {
        visible: 'true',
        state: 'planted',
        explodesIn: '40',
        bombTime: '40.0',
        defuseIn: null,
        defuseTime: null,
      },
      'planted',
    );
    // The top bar's bomb timer follows the bomb's own time.
    await expectBomb(
      frames[5] as Frame,
      { state: 'planted', explodesIn: '30.3', bombTime: '30.3' },
      'planted later',
    );
    // The defuse starts on the same game second: the bomb still has 30.3 s, the defuse 10 s without a kit.
    await expectBomb(
      frames[6] as Frame,
      {
        visible: 'true',
        state: 'defusing',
        explodesIn: '30.3',
        bombTime: '30.3',
        defuseIn: '10',
        defuseSeconds: '10',
        defuseTime: '10.0',
        defuser: atomic,
        kit: false,
      },
      'defuse started',
    );
    // Ten seconds later on the game's clock: the defuse nearly done, the bomb at 20.3 s.
    await expectBomb(
      frames[7] as Frame,
      {
        state: 'defusing',
        explodesIn: '20.3',
        bombTime: '20.3',
        defuseIn: '0.1',
        defuseTime: '0.1',
        defuser: atomic,
      },
      'defuse ending',
    );
    for (const [at, page] of pages.entries()) {
      const fill = await page
        .locator('[data-topbar] .tb-bomb__fill')
        .evaluate((el) => (el as unknown as { style: { transform: string } }).style.transform);
      expect(Number(/scaleX\(([\d.]+)\)/.exec(fill)?.[1]), SIZES[at]?.[0]).toBeCloseTo(20.3 / 40, 6);
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-bomb-defusing-${SIZES[at]?.[0]}.png` });
    }
    // DERIVED: the round not yet over when the bomb is defused (the banner would take the band): on air, frozen at 20.3 s.
    const defusedLive = structuredClone(frames[8] as Frame);
    defusedLive.round = { phase: 'live' };
    defusedLive.phase_countdowns = { phase: 'live', phase_ends_in: '20.0' };
    await expectBomb(
      defusedLive,
      { visible: 'true', state: 'defused', explodesIn: '20.3', defuseIn: null },
      'defused',
    );
    for (const [at, page] of pages.entries()) {
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-bomb-defused-${SIZES[at]?.[0]}.png` });
    }
    // The round over: the banner says "Bomb defused"; the bomb panel gives it the band.
    await postAccepted(server, frames[8] as Frame);
    for (const page of pages) {
      await page.locator('[data-panel="round-banner"][data-visible="true"][data-reason="defuse"]').waitFor();
      await expect
        .poll(() =>
          page
            .locator('[data-panel="bomb"]')
            .evaluate(
              (el) =>
                (
                  globalThis as unknown as { getComputedStyle(e: unknown): { visibility: string } }
                ).getComputedStyle(el).visibility,
            ),
        )
        .toBe('hidden');
    }
    await expectBomb(frames[10] as Frame, off, 'next round');

    // DERIVED: the same plant, then a defuser with a kit (5 s), then the bomb exploding.
    await expectBomb(frames[4] as Frame, { state: 'planted', explodesIn: '40' }, 'planted again');
    const withKit = structuredClone(frames[6] as Frame);
    withKit.allplayers[withKit.bomb.player].state.defusekit = true;
    withKit.bomb.countdown = '5.0';
    withKit.phase_countdowns = { phase: 'defuse', phase_ends_in: '5.0' };
    await expectBomb(
      withKit,
      { state: 'defusing', explodesIn: '30', defuseIn: '5', defuseSeconds: '5', defuser: atomic, kit: true },
      'kit defuse',
    );
    for (const [at, page] of pages.entries()) {
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-bomb-kit-${SIZES[at]?.[0]}.png` });
    }
    const exploded = structuredClone(frames[5] as Frame);
    exploded.bomb = { state: 'exploded', position: exploded.bomb.position };
    exploded.phase_countdowns = { phase: 'live', phase_ends_in: '1.0' };
    await expectBomb(
      exploded,
      { visible: 'true', state: 'exploded', explodesIn: '0', bombTime: '' },
      'exploded',
    );
    for (const page of pages)
      expect(await page.locator('[data-panel="bomb"]').textContent()).toMatch(/bomb exploded/i);
  });
});
