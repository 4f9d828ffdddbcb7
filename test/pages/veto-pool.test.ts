/**
 * The map pool in the operator app (issue 19): the saved pool edited in its card, the start form
 * with one checkbox per pool map plus "add a map", and the hand-set editor suggesting the pool.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACTIVE_DUTY_POOL } from '../../machines/map-names.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { settled, TEAMS } from '../helpers/hud.ts';

const DESK = { width: 1920, height: 1080 };

const savedPool = async (server: RunningServer) =>
  (await get(server, '/internal/settings')).body.settings.veto.mapPool as string[];

describe.skipIf(!chromiumAvailable)('the map pool in the operator app, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function vetoView(server: RunningServer): Promise<Page> {
    const context = await chromium.newContext(DESK);
    context.setDefaultTimeout(8_000);
    const page = await context.newPage();
    await page.goto(server.signInUrl());
    await page.locator('[data-status="connection"][data-tone="ok"]').waitFor();
    await page.getByRole('tab', { name: 'Veto' }).click();
    await page.locator('[data-view="veto"]').waitFor();
    return page;
  }

  const startFormMaps = (page: Page) =>
    page
      .locator('[data-map-pool] [data-pool-map]')
      .evaluateAll((boxes) =>
        boxes.map(
          (box) =>
            `${box.getAttribute('data-pool-map')}${(box as unknown as { checked: boolean }).checked ? '' : ' (unticked)'}`,
        ),
      );

  it('edits the saved pool, starts a veto over the ticked maps and suggests the pool in the hand-set editor', async () => {
    const server = await build();
    expect((await command(server, 'set_teams', TEAMS)).status).toBe(200);
    const page = await vetoView(server);

    // The start form: one checkbox per map of the saved pool (the Active Duty pool), all ticked.
    await expect.poll(() => startFormMaps(page)).toEqual([...ACTIVE_DUTY_POOL]);
    const poolCard = page.locator('[data-card="veto-pool"]');
    expect(await poolCard.locator('[data-saved-pool-map]').count()).toBe(7);

    // Add a map to the saved pool, in the operator's spelling: saved as its full name.
    const addToPool = poolCard.getByLabel('Add a map to the pool');
    await addToPool.fill('Anubis');
    await poolCard.getByRole('button', { name: 'Add' }).click();
    await poolCard.locator('[data-saved-pool-map="de_anubis"]').waitFor();
    expect(await savedPool(server)).toEqual([...ACTIVE_DUTY_POOL, 'de_anubis']);
    await expect.poll(() => startFormMaps(page)).toEqual([...ACTIVE_DUTY_POOL, 'de_anubis']);

    // A name that is no map is refused in words; nothing is saved.
    await addToPool.fill('not a map!');
    await addToPool.press('Enter');
    await expect(poolCard.getByRole('alert').textContent()).resolves.toMatch(
      /"not a map!" is not a map name/,
    );
    expect(await savedPool(server)).toEqual([...ACTIVE_DUTY_POOL, 'de_anubis']);
    await addToPool.fill('');

    // Remove Train from the saved pool.
    await poolCard.getByRole('button', { name: 'Remove Train from the map pool' }).click();
    await poolCard.locator('[data-saved-pool-map="de_train"]').waitFor({ state: 'detached' });
    const pool = [...ACTIVE_DUTY_POOL.filter((map) => map !== 'de_train'), 'de_anubis'];
    expect(await savedPool(server)).toEqual(pool);

    // This veto: without Nuke, with Vertigo added for it alone (not saved).
    const form = page.locator('[data-card="veto-start"]');
    await form.locator('[data-pool-map="de_nuke"]').uncheck();
    await form.getByLabel('Add a map to this veto').fill('de_vertigo');
    await form.getByRole('button', { name: 'Add' }).click();
    await expect
      .poll(() => startFormMaps(page))
      .toEqual([...pool.map((map) => (map === 'de_nuke' ? 'de_nuke (unticked)' : map)), 'de_vertigo']);
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}veto-pool-1920x1080.png`, fullPage: true });
    await form.getByRole('button', { name: 'Start veto' }).click();
    await page.locator('[data-veto-next="ban"]').waitFor();
    const status = (await get(server, '/api/veto')).body.veto;
    expect(status.remainingMaps).toEqual([...pool.filter((map) => map !== 'de_nuke'), 'de_vertigo']);
    expect(await savedPool(server)).toEqual(pool);

    // The hand-set editor suggests the saved pool's maps.
    const suggested = await page
      .locator('datalist#veto-maps option')
      .evaluateAll((options) => options.map((option) => option.getAttribute('value')));
    for (const map of pool) expect(suggested).toContain(map);

    // Back to the Active Duty pool.
    await command(server, 'veto_cancel');
    await poolCard.locator('[data-action="pool-reset"]').click();
    await expect.poll(() => savedPool(server)).toEqual([...ACTIVE_DUTY_POOL]);
    await expect.poll(() => startFormMaps(page)).toEqual([...ACTIVE_DUTY_POOL]);
  });
});
