/**
 * The versus scene with both saved lineups (issue 34), in Chromium at 1920x1080 and 1280x720: the
 * teams set by their tags bring their saved lineups; each player with his photo or the fallback, his
 * flag and his on-air name (Cyrillic, CJK, Latin); the coach never among them; a team not saved
 * shows no lineup. An open scene follows the database as it changes (the `lineups` stream): a
 * player renamed, given a photo, added or removed shows without a reload.
 */
import type { ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { build, get, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { panelApi, settled } from '../helpers/hud.ts';
import { makeLogo } from '../helpers/media.ts';

const SIZES: ViewportSize[] = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
];

describe.skipIf(!chromiumAvailable)('the versus scene shows both saved lineups', () => {
  const chromium = chromiumPerFile();

  it('photos or fallbacks, flags and on-air names; no coach; none for a team not saved', async () => {
    const server = await build();
    const setup = await (await chromium.newContext(SIZES[0] as ViewportSize)).newPage();
    await setup.goto(`${server.applicationUrl}/scenes/versus`);
    const api = await panelApi(server);
    const upload = async (text: string, colour: string) =>
      (await api.upload(await makeLogo(setup, { text, colour, width: 240, height: 280, round: true }))).body
        .media.url as string;
    const player = async (name: string, country: string, team: string, photo?: string, role = 'player') =>
      (await ok(server, 'save_player', { name, country, team, role, ...(photo ? { photo } : {}) })).result
        .player;
    await ok(server, 'save_team', {
      name: 'Natus Vincere',
      tag: 'NAVI',
      country: 'UA',
      logo: await upload('NAVI', '#f2c12e'),
    });
    await ok(server, 'save_team', { name: 'FaZe Clan', tag: 'FAZE', country: 'EU' });
    await player('Саша', 'UA', 'NAVI', await upload('С', '#7a5cff'));
    await player('Денис', 'RU', 'NAVI');
    await player('b1t', 'UA', 'NAVI');
    await player('Перфекто', 'RU', 'NAVI');
    await player('Boombl4', 'RU', 'NAVI');
    await player('B1ad3', 'UA', 'NAVI', undefined, 'coach');
    await player('罗普兹', 'EE', 'FAZE', await upload('R', '#d7263d'));
    await player('雨', 'NO', 'FAZE');
    await player('broky', 'LV', 'FAZE');
    await player('Twistzz', 'CA', 'FAZE');
    await player('karrigan', 'DK', 'FAZE');
    await ok(server, 'set_teams', { teamA: { name: 'navi' }, teamB: { name: 'faze' }, boFormat: 'bo3' });
    await ok(server, 'show_sen_scene', { scene: 'versus' });
    const teams = (await get(server, '/api/teams')).body.teams;
    expect(teams[0].coach).not.toBeNull();

    for (const viewport of SIZES) {
      const page = await (await chromium.newContext(viewport)).newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`${server.applicationUrl}/scenes/versus`);
      const lineupA = page.locator('[data-scene="versus"] [data-lineup="A"] [data-lineup-player]');
      const lineupB = page.locator('[data-scene="versus"] [data-lineup="B"] [data-lineup-player]');
      await expect.poll(() => lineupA.count()).toBe(5);
      await expect.poll(() => lineupB.count()).toBe(5);
      expect(await lineupA.locator('[data-player-name]').allTextContents()).toEqual([
        'Саша',
        'Денис',
        'b1t',
        'Перфекто',
        'Boombl4',
      ]);
      expect(await lineupB.locator('[data-player-name]').allTextContents()).toEqual([
        '罗普兹',
        '雨',
        'broky',
        'Twistzz',
        'karrigan',
      ]);
      expect(await page.locator('[data-lineup="A"] img[data-photo]').count()).toBe(1);
      expect(await page.locator('[data-lineup="A"] [data-photo="none"]').count()).toBe(4);
      expect(await page.locator('[data-lineup="B"] img[data-flag="EE"]').count()).toBe(1);
      await page.waitForFunction(() => {
        const doc = (
          globalThis as unknown as {
            document: { querySelectorAll(s: string): ArrayLike<{ complete: boolean; naturalWidth: number }> };
          }
        ).document;
        return Array.from(doc.querySelectorAll('[data-lineup] img')).every(
          (img) => img.complete && img.naturalWidth > 0,
        );
      });
      await settled(page);
      await page.screenshot({
        path: `${SCREENSHOTS}scene-versus-lineups-${viewport.width}x${viewport.height}.png`,
      });
    }

    // A team not saved: no lineup on its side.
    await ok(server, 'set_teams', { teamA: { name: 'navi' }, teamB: { name: 'Unsaved Five' } });
    const page = await (await chromium.newContext(SIZES[0] as ViewportSize)).newPage();
    await page.goto(`${server.applicationUrl}/scenes/versus`);
    await page.locator('[data-lineup="A"] [data-lineup-player]').first().waitFor();
    await page.locator('[data-scene="versus"] [data-team="B"]', { hasText: 'Unsaved Five' }).waitFor();
    expect(await page.locator('[data-lineup="B"]').count()).toBe(0);
  });

  it('an open scene shows a player renamed, given a photo, added or removed, without a reload', async () => {
    const server = await build();
    await ok(server, 'save_team', { name: 'Natus Vincere', tag: 'NAVI', country: 'UA' });
    await ok(server, 'save_team', { name: 'FaZe Clan', tag: 'FAZE', country: 'EU' });
    const saved = new Map<string, string>();
    for (const [name, team] of [
      ['s1mple', 'NAVI'],
      ['b1t', 'NAVI'],
      ['rain', 'FAZE'],
      ['broky', 'FAZE'],
    ] as const)
      saved.set(name, (await ok(server, 'save_player', { name, country: 'UA', team })).result.player.id);
    await ok(server, 'set_teams', { teamA: { name: 'navi' }, teamB: { name: 'faze' }, boFormat: 'bo3' });
    await ok(server, 'show_sen_scene', { scene: 'versus' });
    const page = await (await chromium.newContext(SIZES[0] as ViewportSize)).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${server.applicationUrl}/scenes/versus`);
    // Marked once loaded: a reload would make a new document without the mark.
    await page.evaluate(() => {
      (globalThis as unknown as { loadedOnce: boolean }).loadedOnce = true;
    });
    const names = (side: 'A' | 'B') =>
      page.locator(`[data-lineup="${side}"] [data-lineup-player] [data-player-name]`).allTextContents();
    await expect.poll(() => names('A')).toEqual(['s1mple', 'b1t']);
    await expect.poll(() => names('B')).toEqual(['rain', 'broky']);
    expect(await page.locator('[data-lineup="A"] img[data-photo]').count()).toBe(0);

    // Renamed and given a photo: the scene shows both.
    const setup = await (await chromium.newContext(SIZES[0] as ViewportSize)).newPage();
    const api = await panelApi(server);
    const photo = (
      await api.upload(await makeLogo(setup, { text: 'С', colour: '#7a5cff', width: 240, height: 280 }))
    ).body.media.url as string;
    await ok(server, 'save_player', { id: saved.get('s1mple'), name: 'Саша', photo });
    await expect.poll(() => names('A')).toEqual(['Саша', 'b1t']);
    await page.locator(`[data-lineup="A"] img[data-photo="${photo}"]`).waitFor();
    // Added to a team, and removed from the other.
    await ok(server, 'save_player', { name: '雨', country: 'NO', team: 'FAZE' });
    await ok(server, 'remove_player', { player: saved.get('rain') });
    await expect.poll(() => names('B')).toEqual(['broky', '雨']);
    await expect.poll(() => names('A')).toEqual(['Саша', 'b1t']);
    expect(await page.evaluate(() => (globalThis as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(
      true,
    );
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}scene-versus-lineups-live.png` });
  });
});
