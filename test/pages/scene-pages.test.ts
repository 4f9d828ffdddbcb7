import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { panelApi, seriesInProgress, settled, teamLogos } from '../helpers/hud.ts';
import { makeLogo } from '../helpers/media.ts';
import { connect } from '../helpers/ws-client.ts';

const FULL_HD = { width: 1920, height: 1080 };
const SCENES = ['versus', 'talents', 'sponsors', 'mapRecap'] as const;

describe('scene and overlay pages only read', () => {
  it('refuses triggers from role=scene and role=overlay, and reports from anything but an overlay', async () => {
    const server = await build();
    const ws = server.applicationUrl.replace('http:', 'ws:');
    for (const role of ['scene', 'overlay']) {
      const client = await connect(`${ws}/ws?role=${role}`);
      await client.waitFor((m) => m.type === 'hello');
      client.send({ type: 'trigger', id: 't', action: 'show_scoreboard' });
      const refused = await client.waitFor((m) => m.type === 'result' && m.id === 't');
      expect(refused).toMatchObject({ ok: false, status: 403, error: 'forbidden' });
      client.close();
    }
    const scene = await connect(`${ws}/ws?role=scene`);
    scene.send({ type: 'report', id: 'r', report: { scoreboardVisible: true } });
    expect(await scene.waitFor((m) => m.type === 'result' && m.id === 'r')).toMatchObject({
      ok: false,
      error: 'forbidden',
    });
    const overlay = await connect(`${ws}/ws?role=overlay`);
    overlay.send({ type: 'report', id: 'bad', report: { scoreboardVisible: 'maybe' } });
    expect(await overlay.waitFor((m) => m.type === 'result' && m.id === 'bad')).toMatchObject({
      ok: false,
      status: 400,
      error: 'invalid_payload',
    });
    expect((await command(server, 'show_scoreboard')).status).toBe(200);
  });

  it('answers an unknown scene page with the 404 envelope', async () => {
    const server = await build();
    const response = await fetch(`${server.applicationUrl}/scenes/credits`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ ok: false, error: 'not_found' });
  });
});

describe.skipIf(!chromiumAvailable)('the scene pages in Chromium', () => {
  const chromium = chromiumPerFile();

  async function open(server: RunningServer, which: string): Promise<Page> {
    const context = await chromium.newContext(FULL_HD);
    const page = await context.newPage();
    await page.goto(`${server.applicationUrl}/scenes/${which}`);
    await page.locator('[data-page="scene"][data-ready="true"]').waitFor();
    return page;
  }

  it('show_sen_scene and hide_sen_scene drive the scene window; the fixed sources keep their own scene', async () => {
    const server = await build();
    const window = await open(server, 'window');
    const versus = await open(server, 'versus');
    const recap = await open(server, 'mapRecap');
    await window.locator('[data-shown-scene="none"]').waitFor();
    expect(await window.locator('[data-scene]').count()).toBe(0);
    for (const scene of SCENES) {
      await ok(server, 'show_sen_scene', { scene });
      await window.locator(`[data-shown-scene="${scene}"] [data-scene="${scene}"]`).waitFor();
      expect(await window.locator('[data-scene]').count()).toBe(1);
    }
    await ok(server, 'hide_sen_scene');
    await window.locator('[data-shown-scene="none"]').waitFor();
    expect(await window.locator('[data-scene]').count()).toBe(0);
    // The fixed sources never moved.
    await versus.locator('[data-scene="versus"]').waitFor();
    await recap.locator('[data-scene="mapRecap"]').waitFor();
    expect(await versus.locator('[data-scene]').count()).toBe(1);
  });

  it('versus: teams, logos and the series format; set_teams renames at once', async () => {
    const server = await build();
    const page = await open(server, 'versus');
    await ok(server, 'set_teams', {
      teamA: { name: 'Team Spirit' },
      teamB: { name: 'MOUZ' },
      boFormat: 'bo5',
    });
    await page.locator('[data-scene="versus"] [data-team="A"]', { hasText: 'Team Spirit' }).waitFor();
    await page.locator('[data-bo-format="bo5"]', { hasText: 'Best of 5' }).waitFor();
    await ok(server, 'set_teams', { teamA: { name: 'Team Spirit' }, teamB: { name: 'Falcons' } });
    await page.locator('[data-scene="versus"] [data-team="B"]', { hasText: 'Falcons' }).waitFor();
    await page.locator('[data-bo-format="bo5"]').waitFor();
  });

  it('talents: the names, roles, handles and photos set in the operator app, at once', async () => {
    const server = await build();
    const page = await open(server, 'talents');
    const api = await panelApi(server);
    const photo = (
      await api.upload(
        await makeLogo(page, { text: 'AB', colour: '#2f7de1', width: 300, height: 300, round: true }),
      )
    ).body.media.id;
    const saved = await api.settings({
      branding: {
        talents: [
          { name: 'Anders Blume', role: 'Caster', handle: '@AndersBlume', photo },
          { name: 'Mathieu Quiquerez', role: 'Caster', handle: '@Maniac' },
          { name: 'Alex Hopkins', role: 'Host' },
        ],
      },
    });
    expect(saved.status).toBe(200);
    await expect
      .poll(() => page.locator('[data-talent-name]').allTextContents())
      .toEqual(['Anders Blume', 'Mathieu Quiquerez', 'Alex Hopkins']);
    await page.locator('[data-talent="0"] img').waitFor();
    const bad = await api.settings({ branding: { talents: [{ name: '', role: 'Caster' }] } });
    expect(bad.status).toBe(400);
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}scene-talents.png` });
  });

  it('sponsors: the uploaded images, rotating', async () => {
    const server = await build();
    const page = await open(server, 'sponsors');
    const api = await panelApi(server);
    const sponsors = [];
    for (const [name, colour] of [
      ['HYPERION', '#e0413a'],
      ['NORDSTREAM', '#2f7de1'],
    ] as const) {
      sponsors.push({
        name,
        image: (await api.upload(await makeLogo(page, { text: name, colour }))).body.media.id,
      });
    }
    await api.settings({ branding: { sponsors } });
    await page.locator('[data-scene="sponsors"] img[data-sponsor="0"][data-current="true"]').waitFor();
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}scene-sponsors.png` });
    await page
      .locator('[data-scene="sponsors"] img[data-sponsor="1"][data-current="true"]')
      .waitFor({ timeout: 12_000 });
  });

  it('mapRecap: the series maps with picks, scores and winners, the decider marked', async () => {
    const server = await build();
    const page = await open(server, 'mapRecap');
    await seriesInProgress(server);
    const map1 = page.locator('[data-scene="mapRecap"] [data-map-number="1"]');
    await map1.locator('xpath=.').and(page.locator('[data-finished="true"]')).waitFor();
    expect(await map1.getAttribute('data-map')).toBe('de_dust2');
    expect(await map1.getAttribute('data-winner')).toBe('A');
    expect(await map1.getAttribute('data-picked')).toBe('A');
    await expect(map1.textContent()).resolves.toContain('Natus Vincere win');
    const decider = page.locator('[data-map-number="3"]');
    expect(await decider.getAttribute('data-picked')).toBe('decider');
    await expect(decider.textContent()).resolves.toContain('Decider');
    await ok(server, 'set_map_result', { map: 2, scoreA: 13, scoreB: 11, finished: true });
    await page.locator('[data-map-number="2"][data-finished="true"][data-winner="A"]').waitFor();
    await page.locator('[data-scene="mapRecap"] [data-series-score="A"]', { hasText: '2' }).waitFor();
    await ok(server, 'set_teams', { teamA: { name: 'Aurora' }, teamB: { name: 'FaZe Clan' } });
    await expect.poll(() => map1.textContent()).toContain('Aurora win');
    await expect.poll(() => map1.textContent()).toContain('Aurora pick');
  });

  it('writes screenshots of the versus and map recap scenes, and the closed window is transparent', async () => {
    const server = await build();
    await seriesInProgress(server);
    const window = await open(server, 'window');
    await teamLogos(server, window);
    await ok(server, 'show_sen_scene', { scene: 'versus' });
    await window.locator('[data-scene="versus"] img[data-logo="B"]').first().waitFor(); // the team's, then the maps' picks
    await settled(window);
    await window.screenshot({ path: `${SCREENSHOTS}scene-versus.png` });
    await ok(server, 'show_sen_scene', { scene: 'mapRecap' });
    await window.locator('[data-scene="mapRecap"]').waitFor();
    await settled(window);
    await window.screenshot({ path: `${SCREENSHOTS}scene-map-recap.png` });
    await ok(server, 'hide_sen_scene');
    await window.locator('[data-shown-scene="none"]').waitFor();
    const background = await window.evaluate(() => {
      const g = globalThis as unknown as {
        document: { body: unknown; documentElement: unknown };
        getComputedStyle(e: unknown): { backgroundColor: string };
      };
      return [
        g.getComputedStyle(g.document.documentElement).backgroundColor,
        g.getComputedStyle(g.document.body).backgroundColor,
      ];
    });
    expect(background).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
  });
});
