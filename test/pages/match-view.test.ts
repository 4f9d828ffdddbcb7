/**
 * The operator app's Match view in Chromium: team tags, a team logo uploaded from a file, what the
 * server says of each logo (stored, or why not), and a map score outside 0 to 99 refused in words.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { pngOf, startLogoServer } from '../helpers/logos.ts';
import { netnsSkipReason } from '../helpers/netns.ts';
import { BO3_ACTIVE_DUTY } from '../helpers/vetoes.ts';

const DESK = { width: 1920, height: 1080 };
const LAPTOP = { width: 1280, height: 800 };

describe.skipIf(!chromiumAvailable)('the Match view in Chromium', () => {
  const chromium = chromiumPerFile();

  const signedIn = (server: RunningServer, viewport: ViewportSize = DESK): Promise<Page> =>
    chromium.operator(server, viewport, 'match');

  // The logo server stands on the local network (a network namespace): a logo on this machine is refused.
  it.skipIf(netnsSkipReason())(
    'sets tags and an uploaded team logo, and says for each logo what the HUD shows',
    async () => {
      const origin = await startLogoServer({
        '/vitality.png': { type: 'image/png', body: pngOf(96, 0xf5d90a) },
      });
      const server = await build();
      const page = await signedIn(server);
      const teamA = page.locator('fieldset[data-team="A"]');
      const teamB = page.locator('fieldset[data-team="B"]');

      await page.getByLabel('Team A name').fill('Natus Vincere');
      await page.getByLabel('Team A tag').fill('NAVI');
      await page
        .getByLabel('Team A logo file')
        .setInputFiles({ name: 'navi.png', mimeType: 'image/png', buffer: pngOf(64, 0xf2c12e) });
      await expect
        .poll(() => page.getByLabel('Team A logo URL').inputValue())
        .toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
      await teamA
        .locator('[data-logo-status="unsaved"]', { hasText: 'Save the teams to use this logo.' })
        .waitFor();
      await page.getByLabel('Team B name').fill('FaZe Clan');
      // No tag: the field suggests the short form the HUD would use.
      expect(await page.getByLabel('Team B tag').getAttribute('placeholder')).toBe('FAZE');
      await page.getByLabel('Team B logo URL').fill(`${origin.url}/faze.png`);
      await page.getByLabel('Series format').selectOption('bo3');
      await page.getByRole('button', { name: 'Save teams' }).click();

      await teamA
        .locator('[data-logo-status="stored"]', { hasText: 'Uploaded: the HUD shows it.' })
        .waitFor();
      const failed = teamB.locator('[data-logo-status="failed"]');
      await failed.waitFor();
      await expect(failed.textContent()).resolves.toMatch(
        /Not stored: the logo's server \([\d.]+:\d+\) answered 404 Not Found.*The HUD shows the initials/,
      );
      await page.screenshot({ path: `${SCREENSHOTS}match-view-logo-failed-1920x1080.png` });
      const { match } = (await get(server, '/api/match')).body;
      expect(match.teamA).toEqual({
        name: 'Natus Vincere',
        tag: 'NAVI',
        logo: expect.stringMatching(/^\/media\//),
      });
      expect(match.teamB).toEqual({ name: 'FaZe Clan', logo: `${origin.url}/faze.png` });
      // The preview is the image the HUD loads, loaded; team B shows its initials.
      await expect
        .poll(() =>
          teamA
            .locator('img.thumb')
            .evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
        )
        .toBe(64);
      await expect(teamB.locator('.thumb--initials').textContent()).resolves.toBe('FC');

      // Another address that answers: saved, fetched by the server, then shown as stored.
      await page.getByLabel('Team B logo URL').fill(`${origin.url}/vitality.png`);
      await page.getByLabel('Team B name').fill('Team Vitality');
      await page.getByRole('button', { name: 'Save teams' }).click();
      await teamB.locator('[data-logo-status="stored"]', { hasText: 'Stored on this server' }).waitFor();
      await expect
        .poll(() =>
          teamB
            .locator('img.thumb')
            .evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
        )
        .toBe(96);

      // The swap keeps names, tags and logos, and is accepted as it is sent.
      await page.getByRole('button', { name: 'Swap team A and team B' }).click();
      await page
        .getByRole('dialog', { name: 'Swap team A and team B on air?' })
        .getByRole('button', { name: 'Swap on air' })
        .click();
      await page.locator('[data-match-title]', { hasText: 'Team Vitality' }).waitFor();
      await expect.poll(async () => (await get(server, '/api/match')).body.match.teamB.tag).toBe('NAVI');

      for (const [name, viewport] of [
        ['1920x1080', DESK],
        ['1280x800', LAPTOP],
      ] as const) {
        const shot = name === '1920x1080' ? page : await signedIn(server, viewport);
        await shot.screenshot({ path: `${SCREENSHOTS}match-view-logos-${name}.png`, fullPage: true });
      }
    },
  );

  it('refuses a map score outside 0 to 99 in words, without clamping what was typed', async () => {
    const server = await build();
    const teams = { teamA: { name: 'Natus Vincere' }, teamB: { name: 'FaZe Clan' } };
    expect(
      (await command(server, 'veto_set', { boFormat: 'bo3', ...teams, steps: BO3_ACTIVE_DUTY })).status,
    ).toBe(200);
    const page = await signedIn(server);
    const row = page.locator('[data-series-map="1"]');
    const save = page.getByRole('button', { name: 'Save Map 1 result' });

    await page.getByLabel('Map 1 score Natus Vincere').fill('150');
    await page.getByLabel('Map 1 score FaZe Clan').fill('7');
    await save.click();
    await expect(row.getByRole('alert').textContent()).resolves.toBe('set_map_result: scoreA: at most 99');
    expect(await page.getByLabel('Map 1 score Natus Vincere').inputValue()).toBe('150');
    await page.screenshot({ path: `${SCREENSHOTS}match-view-score-refused-1920x1080.png` });

    await page.getByLabel('Map 1 score Natus Vincere').fill('13');
    await page.getByLabel('Map 1 score FaZe Clan').fill('-1');
    await save.click();
    await row.getByRole('alert').filter({ hasText: 'set_map_result: scoreB: at least 0' }).waitFor();
    expect((await get(server, '/api/match')).body.match.maps[0]).toMatchObject({ scoreA: 0, scoreB: 0 });

    await page.getByLabel('Map 1 score FaZe Clan').fill('7');
    await save.click();
    await row.getByRole('alert').waitFor({ state: 'detached' });
    expect((await get(server, '/api/match')).body.match.maps[0]).toMatchObject({ scoreA: 13, scoreB: 7 });
    await page.screenshot({ path: `${SCREENSHOTS}match-view-scores-1920x1080.png`, fullPage: true });
  });
});
