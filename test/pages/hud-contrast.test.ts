/**
 * One colour language, readable in every preset, in every script (docs/themes.md, "Colours" and
 * "Fonts"): WCAG AA contrast of every text on air against what is painted under it, for each
 * preset with every panel open and live game data; the side colours after a side swap; no team
 * colour left in the stylesheets; Cyrillic and Greek names drawn with the bundled faces.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PANELS } from '../../machines/panels.ts';
import { THEME_PRESETS } from '../../src/pages/common/broadcast.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, ok, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { panelApi, seriesInProgress } from '../helpers/hud.ts';
import type { ProbedText, ProbeHost } from '../helpers/hud-pages.ts';
import { endReplay, holdReplay, probedOverlay, standInObs } from '../helpers/hud-pages.ts';
import { makeClip, makeLogo } from '../helpers/media.ts';

const FULL_HD = { width: 1920, height: 1080 };
const PAGES = fileURLToPath(new URL('../../src/pages/', import.meta.url));

/** WCAG 2 AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold); a dead player's text 3:1. */
const required = (text: ProbedText) =>
  text.dead || text.fontSize >= 24 || (text.fontSize >= 18.66 && text.fontWeight >= 700) ? 3 : 4.5;

/** The panels the commands toggle (machines/panels.ts), and those that draw only with live game data. */
const TOGGLED: string[] = PANELS.flatMap((panel) => ('hook' in panel ? [panel.hook] : []));
const NEEDS_GAME = ['stats', 'radar'];

/** What the overlay shows at once, in turn: together every panel and every kind of text. */
interface Scene {
  name: string;
  panels: string[];
  sponsor: string | null;
  badge: string | null;
}

describe.skipIf(!chromiumAvailable)('the HUD overlay: colours and fonts', () => {
  const chromium = chromiumPerFile();

  const until = (page: Page, present: string[], absent: string[] = []) =>
    page.evaluate(
      ([p, a]) => (globalThis as unknown as ProbeHost).hudProbe.until(p ?? [], a ?? []),
      [present, absent],
    );

  /**
   * Shows a scene and waits for it. The stats panel and the radar draw only with live game data:
   * shown without it, they must stay off air.
   */
  async function show(server: RunningServer, page: Page, scene: Scene, live: boolean) {
    for (const hook of TOGGLED) await ok(server, `${scene.panels.includes(hook) ? 'show' : 'hide'}_${hook}`);
    for (const [action, at] of [
      ['set_sponsor_overlay', scene.sponsor],
      ['set_event_badge', scene.badge],
    ] as const)
      await ok(server, action, at ? { enabled: true, position: at } : { enabled: false });
    const onAir = (hook: string) => scene.panels.includes(hook) && (live || !NEEDS_GAME.includes(hook));
    const present = [
      ...scene.panels.filter(onAir),
      ...(scene.sponsor ? [`sponsor@${scene.sponsor}`] : []),
      ...(scene.badge ? [`badge@${scene.badge}`] : []),
    ];
    await until(
      page,
      present,
      TOGGLED.filter((hook) => !onAir(hook)),
    );
  }

  /**
   * Each text on air with its contrast over a white and over a black game picture (the panels are
   * not quite opaque): the lower of the two.
   */
  async function contrasts(page: Page) {
    const texts = await page.evaluate(() => (globalThis as unknown as ProbeHost).hudProbe.texts());
    const worst = new Map<string, ProbedText & { contrast: number }>();
    for (const backdrop of ['#ffffff', '#000000']) {
      const hide = await page.addStyleTag({
        content: `html { background: ${backdrop} !important; }
          .hud *, .hud *::before, .hud *::after { color: transparent !important; text-shadow: none !important; }`,
      });
      const shot = `data:image/png;base64,${(await page.screenshot()).toString('base64')}`;
      await hide.evaluate((style) => (style as unknown as { remove(): void }).remove());
      const measured = await page.evaluate(
        ([s, t]) => (globalThis as unknown as ProbeHost).hudProbe.contrast(s as string, t as ProbedText[]),
        [shot, texts] as const,
      );
      for (const text of measured) {
        const key = `${text.where} "${text.text}"`;
        const before = worst.get(key);
        if (!before || text.contrast < before.contrast) worst.set(key, text);
      }
    }
    return [...worst.values()];
  }

  it('every text on air meets WCAG AA against its own background, in every preset, with every panel and live data', async () => {
    const dir = await tempDir();
    const clip = join(dir, 'Replay 2026-11-24 13-37-00.webm');
    const server = await build({
      gameReceivingTimeoutMs: 10 * 60_000,
      overrides: { obs: { enabled: true, url: 'ws://127.0.0.1:4455', password: 'stand-in' } },
      machine: (live) => live.provide({ actors: { obs: standInObs(clip) } }),
    });
    const page = await probedOverlay(server, chromium.newContext, FULL_HD);
    await writeFile(clip, await makeClip(page, 1200));
    await seriesInProgress(server);
    const api = await panelApi(server);
    const sponsor = (await api.upload(await makeLogo(page, { text: 'HYPERION', colour: '#e0413a' }))).body
      .media.id;
    await api.settings({ branding: { sponsors: [{ name: 'Hyperion', image: sponsor }] } });
    await ok(server, 'set_stats_player', { slot: 4 });
    await ok(server, 'show_stats');

    const failures: string[] = [];
    const seen = new Set<string>();
    // A radar disc under another (players standing on each other) is covered, not poorly contrasted.
    const covered = new Set<string>();
    const check = async (preset: string, scene: string) => {
      for (const text of await contrasts(page)) {
        const panel = text.where.split(/[ @]/)[0] ?? '';
        seen.add(panel);
        if (text.covered) covered.add(`${panel}: ${scene}, ${text.where} "${text.text}"`);
        else if (text.contrast < required(text))
          failures.push(
            `${preset}, ${scene}: ${text.where} "${text.text}" ${text.contrast.toFixed(2)}:1 < ${required(text)}:1 (${text.color}, ${text.fontSize}px ${text.fontWeight})`,
          );
      }
    };
    const presets = async (scene: Scene, live: boolean) => {
      await show(server, page, scene, live);
      for (const { id } of THEME_PRESETS) {
        await ok(server, 'set_color_preset', { presetId: id });
        await page.locator(`[data-page="hud"][data-preset="${id}"]`).waitFor();
        await check(id, scene.name);
        if (scene.name.startsWith('live'))
          await page.screenshot({ path: `${SCREENSHOTS}hud-contrast-${scene.name}-${id}.png` });
      }
    };

    // Before the game: the map score, the veto, the corner panels; the stats panel and the radar
    // are on but draw nothing without the game.
    await presets(
      {
        name: 'no game',
        panels: ['scoreboard', 'veto', 'stats', 'radar'],
        sponsor: 'top-right',
        badge: 'top-left',
      },
      false,
    );
    await presets(
      { name: 'no game, corners', panels: ['stats', 'radar'], sponsor: 'bottom-left', badge: 'bottom-right' },
      false,
    );
    const frames = ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));
    // Freeze time: the economy.
    const freezetime = frames[10];
    if (!freezetime) throw new Error('no frame 10');
    await postAccepted(server, freezetime);
    await until(page, ['players', 'observed', 'economy']);
    await presets(
      { name: 'live-freezetime', panels: ['stats', 'radar'], sponsor: 'top-right', badge: 'top-left' },
      true,
    );
    // The live round at its end: dead players, the round's words and banner, every box.
    const roundOver = frames[8];
    if (!roundOver) throw new Error('no frame 8');
    await postAccepted(server, roundOver);
    await until(page, ['players', 'observed', 'round-banner'], ['economy']);
    await presets(
      {
        name: 'live',
        panels: ['scoreboard', 'stats', 'radar'],
        sponsor: 'bottom-right',
        badge: 'top-center',
      },
      true,
    );
    await ok(server, 'save_replay');
    await holdReplay([page]);
    await presets(
      { name: 'live-replay-veto', panels: ['veto', 'radar'], sponsor: 'top-right', badge: 'top-left' },
      true,
    );
    await endReplay([page]);

    // Every kind of panel was measured.
    for (const panel of [
      'topbar',
      'players',
      'observed',
      'scoreboard',
      'veto',
      'stats',
      'radar',
      'economy',
      'round-banner',
      'sponsor',
      'badge',
      'replay',
    ])
      expect([...seen], panel).toContain(panel);
    expect(failures, failures.slice(0, 40).join('\n')).toEqual([]);
    // Only the radar's discs ever lie on each other (the layout test keeps everything else apart).
    console.info(`covered, not measured:\n${[...covered].join('\n')}`);
    for (const text of covered) expect(text).toMatch(/^radar: /);
  }, 300_000);

  it('team A and team B each wear the colour of the side they play, after a swap too; identity stays neutral', async () => {
    const server = await build({ gameReceivingTimeoutMs: 10 * 60_000 });
    const page = await probedOverlay(server, chromium.newContext, FULL_HD);
    await seriesInProgress(server);
    const frames = ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));
    await postAccepted(server, frames[0] as Frame);
    await until(page, ['players']);
    await ok(server, 'show_scoreboard');
    await until(page, ['scoreboard']);

    const colours = () => page.evaluate(() => (globalThis as unknown as ProbeHost).hudProbe.sideColours());
    const expectSides = async (a: 'ct' | 't') => {
      const drawn = await colours();
      const b = a === 'ct' ? 't' : 'ct';
      for (const team of ['A', 'B'] as const) {
        const parts = Object.keys(drawn[team]);
        expect(parts).toEqual(expect.arrayContaining(['underline', 'chip', 'score', 'scoreboard']));
        expect(parts.filter((what) => what.startsWith('box ')).length).toBeGreaterThan(0);
      }
      for (const [team, side] of [
        ['A', a],
        ['B', b],
      ] as const) {
        for (const [what, colour] of Object.entries(drawn[team])) {
          const badge = what === 'chip' || what.startsWith('box ');
          expect(colour, `team ${team}'s ${what} in the ${side} colour`).toBe(
            badge ? drawn.badge[side] : drawn[side],
          );
        }
      }
      for (const colour of drawn.neutral) {
        expect(colour).not.toContain(drawn.ct);
        expect(colour).not.toContain(drawn.t);
      }
    };
    // Team A plays CT (the capture has no team names: the operator's sides), then the sides swap.
    await expectSides('ct');
    await ok(server, 'swap_sides');
    await page.locator('[data-page="hud"][data-side-a="T"]').waitFor();
    await expectSides('t');
    await page.screenshot({ path: `${SCREENSHOTS}hud-colours-after-swap.png` });
  });

  it('no stylesheet of the pages colours anything by team: --team-a and --team-b are gone', async () => {
    const files = (await readdir(PAGES, { recursive: true })).filter((file) => file.endsWith('.css'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const css = await readFile(join(PAGES, file), 'utf8');
      expect(css, file).not.toMatch(/--team-[ab]\b/);
    }
  });

  it('Cyrillic and Greek player names are drawn with the bundled faces, not a system font', async () => {
    const server = await build({ gameReceivingTimeoutMs: 10 * 60_000 });
    const page = await probedOverlay(server, chromium.newContext, FULL_HD);
    await seriesInProgress(server, { roster: false });
    const frame = toCs2(((await fixture(ROUND_SEQUENCE)) as Frame[])[0] as Frame);
    const players = Object.values<Frame>(frame.allplayers);
    const [cyrillic, greek] = [players[0], players[1]];
    if (!cyrillic || !greek) throw new Error('no players');
    cyrillic.name = 'Дмитрий Жуков';
    greek.name = 'Αλέξανδρος Ψαράς';
    frame.player = { ...frame.player, ...cyrillic, steamid: Object.keys(frame.allplayers)[0] };
    await postAccepted(server, frame);
    await until(page, ['players', 'observed']);
    await ok(server, 'show_scoreboard');
    await until(page, ['scoreboard']);
    await page.evaluate(
      () =>
        (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready,
    );

    // Which fonts Chromium really drew each name's glyphs with (DevTools protocol).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const fontsOf = async (selector: string, name: string) => {
      const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
      for (const nodeId of nodeIds) {
        const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
        if (outerHTML.includes(name))
          return (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts;
      }
      throw new Error(`${name} is not in ${selector}`);
    };
    const drawn: string[] = [];
    for (const [where, name, family] of [
      ['[data-panel="players"] [data-player-name]', cyrillic.name, /^Sofia Sans (Medium|SemiBold|Bold)$/],
      ['[data-panel="players"] [data-player-name]', greek.name, /^Sofia Sans (Medium|SemiBold|Bold)$/],
      ['[data-panel="scoreboard"] [data-player-name]', cyrillic.name, /^Sofia Sans (Medium|SemiBold|Bold)$/],
      ['[data-panel="scoreboard"] [data-player-name]', greek.name, /^Sofia Sans (Medium|SemiBold|Bold)$/],
      ['[data-observed-name]', cyrillic.name, /^Sofia Sans Condensed/],
    ] as const) {
      const fonts = await fontsOf(where, name);
      drawn.push(`${where} ${name}: ${fonts.map((f) => `${f.familyName} (${f.glyphCount})`).join(', ')}`);
      // Every glyph from a bundled face (the space between the words from Barlow), the letters from Sofia.
      for (const font of fonts) expect(font.isCustomFont, `${where} ${name}: ${font.familyName}`).toBe(true);
      const letters = name.replace(/\s/g, '').length;
      expect(
        fonts.some((font) => family.test(font.familyName) && font.glyphCount >= letters),
        `${where} ${name}: ${JSON.stringify(fonts)}`,
      ).toBe(true);
    }
    console.info(drawn.join('\n'));
    // The faces the page loaded for them are the bundled Cyrillic and Greek subsets.
    const loaded = await page.evaluate(() =>
      [
        ...(
          globalThis as unknown as {
            document: {
              fonts: Iterable<{ family: string; status: string; weight: string }>;
            };
          }
        ).document.fonts,
      ]
        .filter((face) => face.status === 'loaded')
        .map((face) => `${face.family.replace(/["']/g, '')} ${face.weight}`),
    );
    // (fontsource's one-subset files carry no unicode-range: the Cyrillic and Greek faces of a
    // weight load together, the first time a name needs either.)
    for (const face of ['Sofia Sans 600', 'Sofia Sans Condensed 700'])
      expect(loaded, `${face} loaded`).toContain(face);
    await page.screenshot({ path: `${SCREENSHOTS}hud-fonts-cyrillic-greek.png` });
  });
});
