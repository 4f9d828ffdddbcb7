/**
 * The operator app's Teams & players tab and the Match view's saved teams, in Chromium (issue 34):
 * the live players the database does not know (the pro GOTV capture), one added in one click; that
 * player edited (on-air name in Cyrillic, country, a photo uploaded from a file); the players
 * searched as one types; a saved team chosen by its tag in the Match view fills its name, tag and logo
 * and shows its lineup; a new team entered there is saved. Screenshots at 1920x1080 and 1280x720.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, get, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { LIVE_PLAYERS, postLiveGame } from '../helpers/live-game.ts';
import { pngOf } from '../helpers/logos.ts';

const SIZES: ViewportSize[] = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
];

describe.skipIf(!chromiumAvailable)('Teams & players in the operator app', () => {
  const chromium = chromiumPerFile();

  async function signedIn(server: RunningServer, viewport: ViewportSize, view: string): Promise<Page> {
    const page = await chromium.operator(server, viewport, view);
    page.setDefaultTimeout(10_000);
    return page;
  }

  it('adds an unknown live player in one click, edits him with a photo, searches, and sets up a match', async () => {
    const server = await build({ gameReceivingTimeoutMs: 600_000 });
    await postLiveGame(server);
    const page = await signedIn(server, SIZES[0] as ViewportSize, 'teams');
    const unknown = page.locator('[data-card="unknown-players"] [data-unknown-player]');
    await expect.poll(() => unknown.count()).toBe(10);

    // One click: saved under the game's name, gone from the unknown ones, in the players list.
    await page.locator(`[data-unknown-player="${LIVE_PLAYERS.s1mple.steamid}"] button`).click();
    await expect.poll(() => unknown.count()).toBe(9);
    const row = page.locator('[data-list="players"] li', { hasText: 's1mple' });
    await row.waitFor();

    // Edited: an on-air name, a country, a photo from a file.
    await row.getByRole('button', { name: 's1mple' }).click();
    const form = page.locator('[data-form="player"]');
    await expect.poll(() => form.getByLabel('On-air name').inputValue()).toBe('s1mple');
    await form.getByLabel('On-air name').fill('Саша');
    await form.getByLabel('Real name').fill('Александр Костылев');
    await form.getByLabel('Country (ISO code)').fill('ua');
    await form
      .getByLabel('Photo file')
      .setInputFiles({ name: 'sasha.png', mimeType: 'image/png', buffer: pngOf(96, 0x7a5cff) });
    await form.locator('img.person-photo').waitFor();
    await form.getByRole('button', { name: 'Save player' }).click();
    await page.locator('[data-list="players"] li', { hasText: 'Саша' }).waitFor();
    const saved = (await get(server, '/api/players')).body.players[0];
    expect(saved).toMatchObject({
      steamid: LIVE_PLAYERS.s1mple.steamid,
      name: 'Саша',
      realName: 'Александр Костылев',
      country: 'UA',
    });
    expect(saved.photo).toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
    // The HUD's players follow at once.
    expect(server.service.game.live().players[LIVE_PLAYERS.s1mple.steamid]?.name).toBe('Саша');

    // The search answers as one types (any case, Cyrillic too).
    for (const player of [LIVE_PLAYERS.ropz, LIVE_PLAYERS.rain]) {
      await page.locator(`[data-unknown-player="${player.steamid}"] button`).click();
    }
    await expect.poll(() => unknown.count()).toBe(7);
    const search = page.getByLabel('Search players');
    await search.fill('са');
    await expect
      .poll(() => page.locator('[data-list="players"] li').allTextContents())
      .toEqual([expect.stringContaining('Саша')]);
    await search.fill('');

    await ok(server, 'save_team', { name: 'Natus Vincere', tag: 'NAVI', country: 'UA' });
    await ok(server, 'save_team', {
      id: (await get(server, '/api/teams')).body.teams[0].id,
      lineup: [saved.id],
    });
    for (const viewport of SIZES) {
      const shot = await signedIn(server, viewport, 'teams');
      await shot.locator('[data-list="teams"] li', { hasText: 'Natus Vincere' }).waitFor();
      await shot.locator('[data-list="players"] li img.people__photo').first().waitFor();
      await shot.screenshot({
        path: `${SCREENSHOTS}operator-teams-${viewport.width}x${viewport.height}.png`,
      });
    }

    // The Match view: a saved team chosen by its tag brings its name and tag, and shows its lineup.
    const match = await signedIn(server, SIZES[0] as ViewportSize, 'match');
    await match.getByLabel('Team A name').fill('navi');
    await expect.poll(() => match.getByLabel('Team A name').inputValue()).toBe('Natus Vincere');
    expect(await match.getByLabel('Team A tag').inputValue()).toBe('NAVI');
    await match.locator('fieldset[data-team="A"] [data-saved-lineup]', { hasText: 'Саша' }).waitFor();
    await match.getByLabel('Team B name').fill('FaZe Clan');
    await match.getByRole('button', { name: 'Save teams' }).click();
    await expect.poll(async () => (await get(server, '/api/match')).body.match.teamA?.tag).toBe('NAVI');
    // A team entered in the Match view that was not saved is saved for the next match.
    await expect
      .poll(async () =>
        (await get(server, '/api/teams')).body.teams.map((team: { name: string }) => team.name),
      )
      .toEqual(['Natus Vincere', 'FaZe Clan']);
    await match.screenshot({ path: `${SCREENSHOTS}operator-match-saved-team.png` });
  });
});
