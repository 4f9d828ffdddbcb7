/**
 * The killfeed on the overlay (issue 35): the recorded round's frames posted to /gsi like the game
 * (each death in the frame that reports it), the entries read back from the panel's hooks at
 * 1920x1080 and 1280x720: killer, victim, assister, weapon icon, headshot, side colours; cleared at
 * the next freeze time; kept off air by its switch. Screenshots.
 */
import type { Page, ViewportSize } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, ok } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { Bytes, connectPgl, PglWriter, PLAYER_DEATH, player } from '../helpers/hlae-stand-in.ts';
import { panelApi, seriesInProgress, settled } from '../helpers/hud.ts';
import { connect } from '../helpers/ws-client.ts';

const ROUND_KILLS = 'gsi_csgo_spectator_round_kills__nodecg-csgo-manager__standard-frames.json';

const SIZES: Array<[string, ViewportSize]> = [
  ['1920x1080', { width: 1920, height: 1080 }],
  ['1280x720', { width: 1280, height: 720 }],
];

/** The entries as the panel shows them: names from the hooks, the icons by their labels. */
const feedOf = (page: Page) =>
  page.locator('[data-panel="killfeed"] [data-kill]').evaluateAll((entries) =>
    entries.map((entry) => {
      const hook = (name: string) => entry.querySelector(`[data-${name}]`);
      return {
        killer: hook('killer')?.getAttribute('data-killer') ?? null,
        killerSide: hook('killer')?.getAttribute('data-side') ?? null,
        assister: hook('assister')?.getAttribute('data-assister') ?? null,
        weapon: hook('weapon')?.getAttribute('data-weapon') ?? null,
        headshot: entry.querySelector('[aria-label="Headshot"]') !== null,
        victim: hook('victim')?.getAttribute('data-victim') ?? null,
        victimSide: hook('victim')?.getAttribute('data-side') ?? null,
      };
    }),
  );

describe.skipIf(!chromiumAvailable)('the killfeed, from real frames, in Chromium', () => {
  const chromium = chromiumPerFile();

  async function overlay(server: RunningServer, viewport: ViewportSize): Promise<Page> {
    return chromium.hud(server, viewport);
  }

  it('every death of the round one entry, killer and victim right, in their side colours; gone at freeze time; off air by its switch', async () => {
    const server = await build({ gameReceivingTimeoutMs: 15 * 60_000 });
    await seriesInProgress(server, { roster: false });
    const pages = await Promise.all(SIZES.map(([, viewport]) => overlay(server, viewport)));
    const frames = ((await fixture(ROUND_KILLS)) as Frame[]).map((frame) => toCs2(frame));
    for (const frame of frames) await postAccepted(server, frame);
    const recorded = [
      {
        killer: 'Big Daddy',
        killerSide: 'T',
        assister: null,
        weapon: 'weapon_ak47',
        headshot: false,
        victim: 'xxx_ajsmokesthembigoledoinks_xxx',
        victimSide: 'CT',
      },
      {
        killer: 'AussiePing',
        killerSide: 'CT',
        assister: 'Atomic',
        weapon: 'weapon_m4a1',
        headshot: false,
        victim: 'ウソップ',
        victimSide: 'T',
      },
      {
        killer: 'AussiePing',
        killerSide: 'CT',
        assister: null,
        weapon: 'weapon_m4a1',
        headshot: true,
        victim: 'Big Daddy',
        victimSide: 'T',
      },
      {
        killer: 'Atomic',
        killerSide: 'CT',
        assister: null,
        weapon: 'weapon_m4a1',
        headshot: true,
        victim: 'Nin. [zeus]',
        victimSide: 'T',
      },
    ];
    for (const [at, page] of pages.entries()) {
      await expect.poll(() => feedOf(page), { message: SIZES[at]?.[0] }).toEqual(recorded);
      expect(await page.locator('[data-panel="killfeed"]').getAttribute('data-visible')).toBe('true');
      // The side colours: a CT name in the CT colour, a T name in the T colour.
      const colours = await page
        .locator('[data-panel="killfeed"] [data-kill]')
        .first()
        .evaluate((entry) => {
          const colour = (selector: string) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(
              entry.querySelector(selector),
            ).color;
          return { killer: colour('[data-killer]'), victim: colour('[data-victim]') };
        });
      expect(colours.killer).not.toBe(colours.victim);
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-killfeed-${SIZES[at]?.[0]}.png` });
    }
    // The next round's freeze time: the feed starts again, off air.
    const freeze = toCs2(((await fixture(ROUND_SEQUENCE)) as Frame[])[10] as Frame);
    await postAccepted(server, freeze);
    for (const page of pages) {
      await expect
        .poll(() => page.locator('[data-panel="killfeed"]').getAttribute('data-visible'))
        .toBe('false');
    }
    // Kept off air by its switch while the kills are there.
    const api = await panelApi(server);
    expect((await api.settings({ branding: { killfeedOnAir: false } })).status).toBe(200);
    for (const frame of frames) await postAccepted(server, frame);
    for (const page of pages) {
      await page.locator('[data-topbar] [data-phase="bomb"]').waitFor();
      await expect
        .poll(() => page.locator('[data-panel="killfeed"]').getAttribute('data-visible'))
        .toBe('false');
    }
    expect(server.service.game.live().killfeed).toHaveLength(4);
  });

  it("shows HLAE's marks in the game's order: blind, flash assist, no scope, through smoke, wallbang, headshot", async () => {
    const server = await build({ gameReceivingTimeoutMs: 15 * 60_000 });
    await seriesInProgress(server, { roster: false });
    const pages = await Promise.all(SIZES.map(([, viewport]) => overlay(server, viewport)));
    const frame = toCs2(((await fixture(ROUND_KILLS)) as Frame[])[0] as Frame);
    await postAccepted(server, frame);
    const ids = Object.keys(frame.allplayers);
    const at = (index: number) => player(index + 2, ids[index] as string);
    const link = await connectPgl(`${server.wsUrl}/hlae`);
    const writer = new PglWriter();
    link.send(writer.hello().done());
    await link.setUp();
    const deaths = new Bytes();
    // Every mark at once (an AWP unscoped, through a smoke and a wall, the killer flashed, the
    // assister's flash), then a plain kill.
    writer.event(deaths, PLAYER_DEATH, {
      userid: at(0),
      attacker: at(5),
      assister: at(6),
      assistedflash: true,
      weapon: 'awp',
      headshot: true,
      penetrated: 1,
      noscope: true,
      thrusmoke: true,
      attackerblind: true,
    });
    writer.event(deaths, PLAYER_DEATH, {
      userid: at(1),
      attacker: at(7),
      assister: player(-1, null),
      weapon: 'ak47',
    });
    link.send(deaths.done());
    /** Each entry's marks and names, in the order they stand. */
    const marksOf = (page: Page) =>
      page
        .locator('[data-panel="killfeed"] [data-kill]')
        .evaluateAll((entries) =>
          entries.map((entry) =>
            [...entry.querySelectorAll('[aria-label], [data-killer], [data-assister], [data-victim]')].map(
              (element) =>
                element.getAttribute('aria-label') ??
                (element.hasAttribute('data-victim')
                  ? 'victim'
                  : element.hasAttribute('data-killer')
                    ? 'killer'
                    : 'assister'),
            ),
          ),
        );
    for (const [index, page] of pages.entries()) {
      const size = SIZES[index]?.[0];
      await expect
        .poll(() => marksOf(page), { message: size })
        .toEqual([
          [
            'Blind',
            'killer',
            'Flash assist',
            'assister',
            'AWP',
            'No scope',
            'Through smoke',
            'Wallbang',
            'Headshot',
            'victim',
          ],
          ['killer', 'AK-47', 'victim'],
        ]);
      // The longest entry stays inside the panel and the picture.
      const entry = await page.locator('[data-panel="killfeed"] [data-kill]').first().boundingBox();
      const width = page.viewportSize()?.width ?? 0;
      expect(entry && entry.x >= 0 && entry.x + entry.width <= width, size).toBe(true);
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-killfeed-hlae-marks-${size}.png` });
      await page
        .locator('[data-panel="killfeed"]')
        .screenshot({ path: `${SCREENSHOTS}hud-killfeed-hlae-marks-${size}-panel.png` });
    }
    link.close();
  });

  it('every entry names its players as the database does, and a name saved later renames the entries made', async () => {
    const server = await build({ gameReceivingTimeoutMs: 15 * 60_000 });
    await seriesInProgress(server, { roster: false });
    const frames = ((await fixture(ROUND_KILLS)) as Frame[]).map((frame) => toCs2(frame));
    const gameNames = (frames[0] as { allplayers: Record<string, { name: string }> }).allplayers;
    // Every player of the round under another name: Cyrillic, CJK, Latin with marks.
    const saved = new Map<string, string>();
    const ids = new Map<string, string>();
    for (const [at, [steamid]] of Object.entries(gameNames).entries()) {
      const name = [
        'Саша',
        '雨',
        'Zoë',
        'Ødegaard',
        'Ярослав',
        '김철수',
        'Łukasz',
        'Ñoño',
        'Þór',
        'Σωκράτης',
      ][at];
      saved.set(steamid, name as string);
      ids.set(steamid, (await ok(server, 'save_player', { steamid, name })).result.player.id);
    }
    const socket = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=overlay`);
    const page = await overlay(server, { width: 1920, height: 1080 });
    for (const frame of frames) await postAccepted(server, frame);
    const names = (entries: Array<Record<string, { steamid: string; name: string } | null>>) =>
      entries.flatMap((entry) =>
        (['killer', 'victim', 'assister'] as const).flatMap((role) => {
          const who = entry[role];
          return who ? [{ role, steamid: who.steamid, name: who.name }] : [];
        }),
      );
    const feed = await socket.waitFor((m) => m.type === 'game' && m.live?.killfeed?.length === 4);
    const said = names(feed.live.killfeed);
    // Four deaths, each with its killer, one assist: nine names, each the saved one.
    expect(said).toHaveLength(9);
    for (const who of said) expect(who.name, `${who.role} ${who.steamid}`).toBe(saved.get(who.steamid));
    const nameOf = (steamid: string) => saved.get(steamid) as string;
    const expected = (rename: (steamid: string) => string) =>
      server.service.game.live().killfeed.map((entry) => ({
        killer: entry.killer ? rename(entry.killer.steamid) : null,
        assister: entry.assister ? rename(entry.assister.steamid) : null,
        victim: rename(entry.victim.steamid),
      }));
    const shown = async () =>
      (await feedOf(page)).map(({ killer, assister, victim }) => ({ killer, assister, victim }));
    await expect.poll(shown).toEqual(expected(nameOf));
    // The killer of the first entry renamed after his kill: that entry and his later ones follow.
    const killer = server.service.game.live().killfeed[0]?.killer?.steamid as string;
    saved.set(killer, 'Большой Папа');
    const renamed = socket.waitForNew((m) => m.type === 'game' && m.live?.killfeed);
    await ok(server, 'save_player', { id: ids.get(killer), name: 'Большой Папа' });
    const patch = await renamed;
    for (const who of names(patch.live.killfeed))
      expect(who.name, `${who.role} ${who.steamid}`).toBe(saved.get(who.steamid));
    expect(names(patch.live.killfeed).filter((who) => who.steamid === killer).length).toBeGreaterThan(1);
    await expect.poll(shown).toEqual(expected(nameOf));
    // Removed from the database: the game's name again, in the entries made too.
    await ok(server, 'remove_player', { player: killer });
    saved.set(killer, (gameNames[killer] as { name: string }).name);
    await expect.poll(shown).toEqual(expected(nameOf));
    await settled(page);
    await page.screenshot({ path: `${SCREENSHOTS}hud-killfeed-names-1920x1080.png` });
    socket.close();
  });
});
