/**
 * Issue 33 in Chromium: the operator app previews an import (the server's dry run), asks before an
 * import that replaces finished results, names the change in a toast with Undo, and the undo brings
 * the results back; Recent changes lists it with Redo. Screenshots at 1920x1080 and 1280x800.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { get, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { FURIA_NAVI, hltvUrl, serviceWithHltv, VITALITY_FAZE } from '../helpers/hltv-stand-in.ts';

const DESK = { width: 1920, height: 1080 };
const LAPTOP = { width: 1280, height: 800 };

describe.skipIf(!chromiumAvailable)('import preview, confirm and undo in the operator app', () => {
  const chromium = chromiumPerFile();

  // The Live page is the first view after sign-in.
  const signedIn = (server: RunningServer, viewport: ViewportSize): Promise<Page> =>
    chromium.operator(server, viewport, 'live');

  /** A series in progress: the desk's teams (NaVi on the left), the bo3 imported, two maps played. */
  async function seriesPlayed(server: RunningServer) {
    await ok(server, 'set_teams', {
      teamA: { name: 'Natus Vincere', tag: 'NAVI' },
      teamB: { name: 'FURIA' },
    });
    await ok(server, 'import_match_veto', { url: hltvUrl(FURIA_NAVI) });
    await ok(server, 'set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true });
    await ok(server, 'set_map_result', { map: 2, scoreA: 11, scoreB: 13, finished: true });
    return (await get(server, '/api/match')).body.match;
  }

  for (const [size, viewport] of [
    ['1920x1080', DESK],
    ['1280x800', LAPTOP],
  ] as const) {
    it(`${size}: the preview says what goes, the apply asks, the toast undoes it and the results come back`, async () => {
      const server = await serviceWithHltv([FURIA_NAVI, VITALITY_FAZE]);
      const played = await seriesPlayed(server);
      const page = await signedIn(server, viewport);
      await page.locator('[data-tab="veto"]').click();
      const url = page.getByLabel('FACEIT room or HLTV match URL');
      const preview = page.locator('[data-import-preview]');

      // The same series again: the desk's teams stay, nothing is lost.
      await url.fill(hltvUrl(FURIA_NAVI));
      await page.locator('[data-action="veto-import"]').click();
      await preview.locator('[data-preview-teams="kept"]').waitFor({ timeout: 20_000 });
      await preview.locator('[data-preview-lost="0"]').waitFor();
      expect(await preview.locator('[data-preview-team="A"]').textContent()).toBe(
        'Natus Vincere (NAVI) · no logo',
      );

      // A wrong address pasted: the preview names the two results that would go, and nothing changed yet.
      await url.fill(hltvUrl(VITALITY_FAZE));
      await page.locator('[data-action="veto-import"]').click();
      await preview.locator('[data-preview-lost="2"]').waitFor({ timeout: 20_000 });
      expect(await preview.textContent()).toMatch(
        /map 1 Mirage 13–9 \(finished\), map 2 Inferno 11–13 \(finished\)/,
      );
      expect(await preview.locator('[data-preview-teams]').getAttribute('data-preview-teams')).toBe(
        'replaced',
      );
      expect((await get(server, '/api/match')).body.match).toEqual(played);
      await preview.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}import-preview-${size}.png` });

      // Apply asks first: Cancel changes nothing; confirmed, the import goes on air.
      await page.locator('[data-action="veto-import-apply"]').click();
      const dialog = page.getByRole('dialog', { name: 'Replace 2 results on air?' });
      await dialog.waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}import-confirm-${size}.png` });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await get(server, '/api/match')).body.match).toEqual(played);
      await page.locator('[data-action="veto-import-apply"]').click();
      await dialog.getByRole('button', { name: 'Apply and replace' }).click();
      await page.locator('[data-import-state="done"]').waitFor({ timeout: 20_000 });
      expect((await get(server, '/api/match')).body.match.teamA.name).toBe('Vitality');

      // The toast names the change; its Undo brings the series back exactly.
      const toast = page.locator('[data-toast="change"]');
      await toast.filter({ hasText: 'Import: Vitality vs FaZe (replaced 2 results)' }).waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}import-toast-${size}.png` });
      await toast.getByRole('button', { name: 'Undo' }).click();
      await page.locator('[data-match-title]', { hasText: 'Natus Vincere' }).waitFor();
      expect((await get(server, '/api/match')).body.match).toEqual(played);

      // Recent changes in the Match view: the import is on redo, the last change on top.
      await page.locator('[data-tab="match"]').click();
      const recent = page.locator('[data-card="recent-changes"]');
      await recent.locator('[data-changes="redo"]', { hasText: 'Import: Vitality vs FaZe' }).waitFor();
      expect(await recent.locator('[data-history-entry="0"]').textContent()).toMatch(
        /Map 2 Inferno: 11–13, finished/,
      );
      await recent.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}recent-changes-${size}.png` });
      await recent.getByRole('button', { name: 'Redo' }).click();
      await page.locator('[data-match-title]', { hasText: 'Vitality' }).waitFor();
    }, 120_000);
  }
});
