/**
 * Players alive in the top bar and the clutch cue (issue 35), from the captured round posted to /gsi
 * and frames derived from it: 3 against 3, a 1v3, a 1v1, then the round over and the next frame with
 * no clutch. At 1920x1080 and 1280x720, with screenshots of the 1v1.
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

/** DERIVED: the frame with only the named players left alive (the others at 0 health). */
function onlyAlive(frame: Frame, names: string[]): Frame {
  const copy = structuredClone(frame);
  for (const player of Object.values<Frame>(copy.allplayers))
    if (!names.includes(player.name)) player.state.health = 0;
  return copy;
}

/** The alive count and the clutch of each game side's team block, as its hooks say. */
const teamsSeen = (page: Page) =>
  page.locator('[data-topbar] .tb-team[data-side]').evaluateAll((blocks) =>
    Object.fromEntries(
      blocks.map((block) => {
        const alive = block.querySelector('[data-alive-count]');
        return [
          block.getAttribute('data-side'),
          {
            alive: alive?.getAttribute('data-alive-count') ?? null,
            clutch: alive?.getAttribute('data-clutch') ?? null,
            text: alive?.textContent ?? null,
          },
        ];
      }),
    ),
  );

describe.skipIf(!chromiumAvailable)('players alive and the clutch cue, from real frames, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function overlay(server: RunningServer, viewport: ViewportSize): Promise<Page> {
    return chromium.hud(server, viewport);
  }

  it('counts each team’s living, shows 1vN while a team is down to one, and drops it when the situation ends', async () => {
    const server = await build({ gameReceivingTimeoutMs: 15 * 60_000 });
    await seriesInProgress(server, { roster: false });
    const pages = await Promise.all(SIZES.map(([, viewport]) => overlay(server, viewport)));
    const frames = ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));
    const live = frames[0] as Frame;
    const alive = (frame: Frame, side: string) =>
      Object.values<Frame>(frame.allplayers).filter((p) => p.team === side && p.state.health > 0).length;

    const expectTeams = async (
      frame: Frame,
      expected: Record<string, Record<string, string | null>>,
      label: string,
    ) => {
      await postAccepted(server, frame);
      for (const [at, page] of pages.entries())
        await expect
          .poll(() => teamsSeen(page), { message: `${label}, ${SIZES[at]?.[0]}` })
          .toMatchObject(expected);
    };
    // The capture: three of each side alive, no clutch.
    expect([alive(live, 'CT'), alive(live, 'T')]).toEqual([3, 3]);
    await expectTeams(
      live,
      { CT: { alive: '3', clutch: null, text: '3' }, T: { alive: '3', clutch: null } },
      '3v3',
    );
    // AussiePing alone for the CTs against three: 1v3 on the CT team's chip only.
    const oneVsThree = onlyAlive(live, ['AussiePing', 'Big Daddy', 'Nin. [zeus]', 'ウソップ']);
    await expectTeams(
      oneVsThree,
      { CT: { alive: '1', clutch: '3', text: '1v3' }, T: { alive: '3', clutch: null, text: '3' } },
      '1v3',
    );
    // Down to AussiePing against Big Daddy: 1v1 on both.
    const oneVsOne = onlyAlive(live, ['AussiePing', 'Big Daddy']);
    await expectTeams(
      oneVsOne,
      { CT: { alive: '1', clutch: '1', text: '1v1' }, T: { alive: '1', clutch: '1', text: '1v1' } },
      '1v1',
    );
    for (const [at, page] of pages.entries()) {
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-clutch-1v1-${SIZES[at]?.[0]}.png` });
    }
    // The round over (the CTs won; no T alive): the clutch is gone with the fight.
    await expectTeams(
      frames[8] as Frame,
      { CT: { alive: '2', clutch: null }, T: { alive: '0', clutch: null } },
      'round over',
    );
    // The last one standing with nobody to face is no clutch either (the T side all dead while the bomb ticks).
    await expectTeams(
      onlyAlive(frames[5] as Frame, ['Atomic']),
      { CT: { alive: '1', clutch: null }, T: { alive: '0', clutch: null } },
      'alone',
    );
    // Back to the capture: the counts come back.
    await expectTeams(
      live,
      { CT: { alive: '3', clutch: null }, T: { alive: '3', clutch: null } },
      '3v3 again',
    );
  });
});
