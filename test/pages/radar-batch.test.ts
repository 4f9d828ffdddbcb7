/**
 * Several radar overviews in one action (issue 35), in the operator app in Chromium: images and a
 * .zip picked at once, then a folder, each given to its map by its file name as the game names them
 * (de_nuke_lower_radar_psd.png is Nuke's lower level), what names no map left out and said; the list
 * of Active Duty maps still without an overview follows.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { makeLogo } from '../helpers/media.ts';

describe.skipIf(!chromiumAvailable)('radar overviews, several at once, in the operator app', () => {
  const chromium = chromiumPerFile();

  async function operator(server: RunningServer): Promise<Page> {
    const context = await chromium.newContext({ width: 1440, height: 900 });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(server.signInUrl());
    await page.getByRole('tab', { name: 'HUD' }).click();
    await page.locator('[data-view="hud"] [data-card="radar"]').waitFor();
    return page;
  }

  const radarImages = (server: RunningServer) =>
    server.service.settings.current().branding?.radarImages ?? {};

  it('images and a .zip in one pick, then a folder: each on its map, the rest left out; the missing list follows', async () => {
    const server = await build();
    const page = await operator(server);
    const missing = page.locator('[data-radar-missing]');
    expect((await missing.getAttribute('data-radar-missing'))?.split(' ')).toEqual(
      expect.arrayContaining(['de_ancient', 'de_dust2', 'de_mirage', 'de_nuke']),
    );
    const square = (text: string, colour: string) =>
      makeLogo(page, { text, colour, width: 300, height: 300 });
    const png = (name: string, buffer: Buffer) => ({ name, mimeType: 'image/png', buffer });
    const archive = Buffer.from(
      zipSync({
        'overviews/de_ancient_radar_psd.png': new Uint8Array(await square('ANC', '#3a7')),
        'overviews/readme.txt': new TextEncoder().encode('not an image'),
      }),
    );
    await page
      .locator('[data-upload="radar-many"]')
      .setInputFiles([
        png('de_mirage_radar_psd.png', await square('MIR', '#a73')),
        png('de_nuke_radar_psd.png', await square('NUK', '#37a')),
        png('de_nuke_lower_radar_psd.png', await square('LOW', '#73a')),
        png('team-photo.png', await square('XX', '#777')),
        { name: 'overviews.zip', mimeType: 'application/zip', buffer: archive },
      ]);
    const report = page.locator('[data-radar-batch]');
    await expect.poll(() => report.textContent()).toMatch(/^Uploaded: /);
    const words = (await report.textContent()) ?? '';
    expect(words).toContain('Mirage');
    expect(words).toContain('Nuke (lower level)');
    expect(words).toContain('Ancient');
    expect(words).toContain('Left out: team-photo.png (no map in its name)');
    const images = radarImages(server);
    expect(Object.keys(images).sort()).toEqual(['de_ancient', 'de_mirage', 'de_nuke']);
    expect(images.de_nuke?.lower).toMatch(/\S/);
    expect(images.de_nuke?.lower).not.toBe(images.de_nuke?.image);
    for (const map of ['de_ancient', 'de_mirage', 'de_nuke'])
      await page.locator(`[data-radar-map-row="${map}"][data-radar-image-set="true"]`).waitFor();
    await expect
      .poll(async () => (await missing.getAttribute('data-radar-missing'))?.split(' ') ?? [])
      .not.toContain('de_mirage');
    expect((await missing.getAttribute('data-radar-missing'))?.split(' ')).toContain('de_dust2');

    // A folder: the game's overviews folder, as Steam keeps it.
    const folder = join(await tempDir(), 'overviews');
    await mkdir(folder);
    await writeFile(join(folder, 'de_dust2_radar_psd.png'), await square('D2', '#aa3'));
    await writeFile(join(folder, 'de_dust2.txt'), 'the calibration file');
    await page.locator('[data-upload="radar-folder"]').setInputFiles(folder);
    await expect.poll(() => report.textContent()).toContain('Dust II');
    expect(await report.textContent()).toContain('Left out: de_dust2.txt (not an image)');
    expect(Object.keys(radarImages(server))).toContain('de_dust2');
    await page.locator('[data-radar-map-row="de_dust2"][data-radar-image-set="true"]').waitFor();
    await page.locator('[data-card="radar"]').screenshot({ path: `${SCREENSHOTS}operator-radar-batch.png` });
  });
});
