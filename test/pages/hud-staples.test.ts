/**
 * The staples of a CS2 HUD on the overlay, over the real transport: game frames POSTed to /gsi like
 * the game, two overlay pages (1920x1080 and 1280x720) reading them, and every figure read back from
 * the data-* hooks and compared with the frames. Equipment of all ten players (weapons, the one in
 * hand, grenades, armour and helmet, kit, bomb carrier), the economy at freeze time, the round-win
 * banner and its reason, the scoreboard's column headers, dead players' names; screenshots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { seriesInProgress, settled, teamLogos } from '../helpers/hud.ts';

const ANCIENT = 'gsi_csgo_gotv_pro_nip-vs-navi_ancient_bomb-planted__sces-csgo-hud-fe__output.json';

const SIZES = [
  { name: '1080', width: 1920, height: 1080 },
  { name: '720', width: 1280, height: 720 },
] as const;

/** The weapon types that make a primary, and the order grenades are drawn in (docs/themes.md). */
const PRIMARY = new Set(['Rifle', 'SniperRifle', 'Submachine Gun', 'Shotgun', 'Machine Gun']);
const GRENADES = [
  'weapon_hegrenade',
  'weapon_flashbang',
  'weapon_smokegrenade',
  'weapon_molotov',
  'weapon_incgrenade',
  'weapon_decoy',
];

/** What a box says about a player, as its hooks and icons say it. */
interface Equipment {
  slot: string;
  team: string | null;
  primary: string;
  secondary: string;
  active: string;
  grenades: string;
  armor: string;
  helmet: string;
  kit: string;
  bomb: string;
  /** The weapon icons in page order, `*` after the one in hand. */
  icons: string[];
  /** The marks drawn (Dead, Armour n, Helmet, Bomb, Defuse kit), sorted. */
  marks: string[];
}

const hudSlot = (player: Frame) => ((player.observer_slot as number) + 1) % 10; // toCs2 shifted it

const weaponsOf = (player: Frame): Frame[] =>
  Object.entries<Frame>(player.weapons ?? {})
    .sort(([a], [b]) => Number(a.replace('weapon_', '')) - Number(b.replace('weapon_', '')))
    .map(([, weapon]) => weapon);

/** The equipment of a player of a frame, read from the frame itself. */
function expectedEquipment(frame: Frame, steamid: string, where: 'box' | 'observed', teamASide: string) {
  const player = frame.allplayers[steamid];
  const weapons = weaponsOf(player);
  const find = (test: (w: Frame) => boolean) => weapons.find(test) ?? null;
  const primary = find((w) => PRIMARY.has(w.type));
  const secondary = find((w) => w.type === 'Pistol');
  const knife = find((w) => w.type === 'Knife');
  const taser = find((w) => w.name === 'weapon_taser');
  const active = find((w) => w.state === 'active');
  const grenades = weapons
    .filter((w) => w.type === 'Grenade')
    .flatMap((w) => Array.from({ length: w.ammo_reserve ?? 1 }, (_, i): Frame => ({ ...w, first: i === 0 })))
    .sort((a, b) => GRENADES.indexOf(a.name) - GRENADES.indexOf(b.name));
  const icon = (w: Frame | null) => (w ? [`${w.name}${w.state === 'active' ? '*' : ''}`] : []);
  const grenadeIcons = grenades.map((w) => `${w.name}${w.state === 'active' && w.first ? '*' : ''}`);
  const holdsC4 = weapons.some((w) => w.name === 'weapon_c4');
  const carrier = ['carried', 'planting'].includes(frame.bomb?.state) && frame.bomb?.player === steamid;
  const bomb = holdsC4 || carrier;
  const { armor, helmet, health } = player.state;
  const kit = player.state.defusekit === true;
  const icons =
    where === 'box'
      ? [...icon(taser), ...icon(secondary), ...icon(primary ?? (secondary ? null : knife)), ...grenadeIcons]
      : [
          ...(active ? [`${active.name}*`] : []),
          ...icon(primary),
          ...icon(secondary),
          ...icon(taser),
          ...icon(knife),
          ...grenadeIcons,
        ];
  return {
    slot: String(hudSlot(player)),
    team: where === 'box' ? (player.team === teamASide ? 'A' : 'B') : null,
    primary: primary?.name ?? '',
    secondary: secondary?.name ?? '',
    active: active?.name ?? '',
    grenades: grenades.map((w) => w.name).join(' '),
    armor: String(armor),
    helmet: String(helmet),
    kit: String(kit),
    bomb: String(bomb),
    icons,
    marks: [
      ...(health > 0 ? [] : ['Dead']),
      ...(armor > 0 ? [`Armour ${armor}`] : []),
      ...(armor > 0 && helmet ? ['Helmet'] : []),
      ...(bomb ? ['Bomb'] : kit ? ['Defuse kit'] : []),
    ].sort(),
  } satisfies Equipment;
}

/** Reads the equipment hooks and icons of the boxes a selector finds. */
function readEquipment(page: Page, selector: string): Promise<Equipment[]> {
  return page.evaluate((sel) => {
    interface El {
      getAttribute(name: string): string | null;
      closest(selector: string): El | null;
      querySelectorAll(selector: string): ArrayLike<El>;
    }
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } })
      .document;
    const marks = new Set(['Dead', 'Helmet', 'Bomb', 'Defuse kit']);
    return Array.from(doc.querySelectorAll(sel)).map((box) => {
      const hook = (name: string) => box.getAttribute(`data-${name}`) ?? '';
      return {
        slot: box.getAttribute('data-slot') ?? box.getAttribute('data-observed-slot') ?? '',
        team: box.closest('[data-team-boxes]')?.getAttribute('data-team-boxes') ?? null,
        primary: hook('primary'),
        secondary: hook('secondary'),
        active: hook('active-weapon'),
        grenades: hook('grenades'),
        armor: hook('armor'),
        helmet: hook('helmet'),
        kit: hook('kit'),
        bomb: hook('bomb'),
        icons: Array.from(box.querySelectorAll('[data-weapon]')).map(
          (icon) =>
            `${icon.getAttribute('data-weapon')}${icon.getAttribute('data-active') === 'true' ? '*' : ''}`,
        ),
        marks: Array.from(box.querySelectorAll('[role="img"]'))
          .map((icon) => icon.getAttribute('aria-label') ?? '')
          .filter((label) => marks.has(label) || label.startsWith('Armour '))
          .sort(),
      };
    });
  }, selector);
}

const bySlot = (list: Equipment[]) => [...list].sort((a, b) => a.slot.localeCompare(b.slot));

/**
 * DERIVED from a captured frame: the same frame at another round and phase (the clock's phase too),
 * with the round's winner; `round_wins` keeps the capture's own entries, which say how it ended.
 */
function atPhase(frame: Frame, round: number, phase: 'freezetime' | 'over' | 'live', winner?: 'CT' | 'T') {
  const copy = structuredClone(frame);
  copy.map.round = round;
  copy.round = { phase, ...(winner ? { win_team: winner } : {}) };
  copy.phase_countdowns = { phase, phase_ends_in: phase === 'freezetime' ? '15.0' : '5.0' };
  if (phase !== 'live') copy.bomb = undefined;
  return copy;
}

/** WCAG relative luminance of an sRGB colour (0-255 channels). */
const luminance = ([r, g, b]: number[]) => {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r ?? 0) + 0.7152 * lin(g ?? 0) + 0.0722 * lin(b ?? 0);
};

/** A computed CSS colour as [r, g, b, a] (rgb(), rgba() or color(srgb …)). */
function parseColour(text: string): [number, number, number, number] {
  const srgb = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)$/.exec(text);
  if (srgb) {
    const [, r, g, b, a] = srgb;
    return [Number(r) * 255, Number(g) * 255, Number(b) * 255, a === undefined ? 1 : Number(a)];
  }
  const rgb = /^rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)$/.exec(text);
  if (!rgb) throw new Error(`a colour the test cannot read: ${text}`);
  const [, r, g, b, a] = rgb;
  return [Number(r), Number(g), Number(b), a === undefined ? 1 : Number(a)];
}

const over = (top: number[], alpha: number, under: number[]) =>
  under.map((channel, i) => (top[i] ?? 0) * alpha + channel * (1 - alpha));

/**
 * The contrast of a text on its box, whatever the game shows behind the overlay: the backgrounds
 * from the panel inwards laid over black and over white, the text (with every opacity on the way)
 * over that; the worse of the two.
 */
function contrastOnBox(sample: { color: string; opacity: number; backgrounds: string[] }): number {
  return Math.min(
    ...[
      [0, 0, 0],
      [255, 255, 255],
    ].map((backdrop) => {
      let ground = backdrop;
      for (const background of [...sample.backgrounds].reverse()) {
        const [r, g, b, a] = parseColour(background);
        ground = over([r, g, b], a, ground);
      }
      const [r, g, b, a] = parseColour(sample.color);
      const text = over([r, g, b], a * sample.opacity, ground);
      const [light, dark] = [luminance(text), luminance(ground)].sort((x, y) => y - x);
      return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
    }),
  );
}

describe.skipIf(!chromiumAvailable)('the HUD staples with replayed game data in Chromium', () => {
  const chromium = chromiumPerFile();

  async function overlay(server: RunningServer, size: (typeof SIZES)[number]): Promise<Page> {
    return chromium.hud(server, { width: size.width, height: size.height });
  }

  /** The overlay at both sizes, on a series in progress. */
  async function overlays(server: RunningServer): Promise<Page[]> {
    await seriesInProgress(server, { roster: false });
    return Promise.all(SIZES.map((size) => overlay(server, size)));
  }

  const teamASide = (server: RunningServer) => server.service.hub.hudState().sides?.teamA ?? 'CT';

  /** Every box and the observed box show each player's equipment as the frame says. */
  async function equipmentShown(server: RunningServer, pages: Page[], frame: Frame, label: string) {
    const side = teamASide(server);
    const boxes = bySlot(
      Object.keys(frame.allplayers).map((steamid) => expectedEquipment(frame, steamid, 'box', side)),
    );
    const observed = [expectedEquipment(frame, frame.player.steamid, 'observed', side)];
    for (const page of pages) {
      await expect
        .poll(() => readEquipment(page, '[data-panel="players"] [data-slot][data-side]').then(bySlot), {
          message: `${label}: the player boxes`,
          timeout: 5_000,
        })
        .toEqual(boxes);
      await expect
        .poll(() => readEquipment(page, '[data-panel="observed"][data-visible="true"]'), {
          message: `${label}: the observed box`,
          timeout: 5_000,
        })
        .toEqual(observed);
    }
    return boxes;
  }

  it('every player box and the observed box carry the equipment of all ten players, frame by frame', async () => {
    const server = await build({ gameReceivingTimeoutMs: 30_000 });
    const pages = await overlays(server);
    const frames = [
      ...((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame, i) => ({ frame, label: `round ${i}` })),
      { frame: await fixture(FAZE_NAVI), label: 'FaZe vs NAVI' },
      { frame: await fixture(ANCIENT), label: 'NIP vs NAVI, Ancient' },
    ];
    const seen = { grenades: 0, bombs: 0, kits: 0, helmets: 0, dead: 0, twoFlashes: 0 };
    for (const { frame, label } of frames) {
      await postAccepted(server, toCs2(frame));
      const boxes = await equipmentShown(server, pages, toCs2(frame), label);
      expect(boxes).toHaveLength(10);
      for (const box of boxes) {
        seen.grenades += box.grenades ? 1 : 0;
        seen.bombs += box.bomb === 'true' ? 1 : 0;
        seen.kits += box.kit === 'true' ? 1 : 0;
        seen.helmets += box.helmet === 'true' ? 1 : 0;
        seen.dead += box.marks.includes('Dead') ? 1 : 0;
        seen.twoFlashes += box.grenades.includes('weapon_flashbang weapon_flashbang') ? 1 : 0;
      }
    }
    // The replay covered every kind of mark (not a vacuous comparison).
    for (const [kind, count] of Object.entries(seen)) expect(count, kind).toBeGreaterThan(0);
  }, 60_000);

  it('the economy shows at freeze time only: team money, equipment value and loss bonus of each team', async () => {
    const server = await build({ gameReceivingTimeoutMs: 30_000 });
    const pages = await overlays(server);
    const round = (await fixture(ROUND_SEQUENCE)) as Frame[];
    const navi = await fixture(FAZE_NAVI);
    const ancient = await fixture(ANCIENT);
    const cases = [
      // Live, then the round's end: no economy.
      { frame: round[0], freeze: false, label: 'round 9 live' },
      { frame: round[8], freeze: false, label: 'round 9 over' },
      // The captured freeze time of round 10: CT 0 losses ($1,400), T 4 ($3,400).
      { frame: round[10], freeze: true, label: 'round 10 freeze time' },
      // DERIVED: the pro captures at freeze time: T 6 losses (capped at $3,400), CT 0; T 3 ($2,900).
      { frame: atPhase(navi, 10, 'freezetime'), freeze: true, label: 'FaZe vs NAVI freeze time' },
      { frame: atPhase(ancient, 17, 'freezetime'), freeze: true, label: 'Ancient freeze time' },
      { frame: atPhase(ancient, 17, 'live'), freeze: false, label: 'Ancient live' },
    ];
    for (const { frame, freeze, label } of cases) {
      if (!frame) throw new Error(`no frame for ${label}`);
      const cs2 = toCs2(frame);
      await postAccepted(server, cs2);
      const side = teamASide(server);
      const expected = (['A', 'B'] as const).map((team) => {
        const teamSide = team === 'A' ? side : side === 'CT' ? 'T' : 'CT';
        const players = Object.values<Frame>(cs2.allplayers).filter((p) => p.team === teamSide);
        const losses = cs2.map[teamSide === 'CT' ? 'team_ct' : 'team_t'].consecutive_round_losses as number;
        return {
          team,
          side: teamSide,
          money: String(players.reduce((sum, p) => sum + p.state.money, 0)),
          equipment: String(players.reduce((sum, p) => sum + p.state.equip_value, 0)),
          losses: String(losses),
          lossBonus: String(Math.min(1400 + 500 * losses, 3400)),
        };
      });
      for (const page of pages) {
        const panel = page.locator(`[data-panel="economy"][data-visible="${freeze}"]`);
        await panel.waitFor({ state: 'attached' }).catch((error) => {
          throw new Error(`${label}: the economy should be ${freeze ? 'shown' : 'hidden'}`, { cause: error });
        });
        if (!freeze) continue;
        const read = () =>
          panel.locator('[data-economy]').evaluateAll((blocks) =>
            (
              blocks as unknown as Array<{
                getAttribute(n: string): string | null;
                querySelector(s: string): { getAttribute(n: string): string | null } | null;
              }>
            ).map((block) => {
              const value = (hook: string) =>
                block.querySelector(`[data-${hook}]`)?.getAttribute(`data-${hook}`) ?? '';
              return {
                team: block.getAttribute('data-economy'),
                side: block.getAttribute('data-side'),
                money: value('team-money'),
                equipment: value('equipment'),
                losses: value('losses'),
                lossBonus: value('loss-bonus'),
              };
            }),
          );
        await expect.poll(read, { message: label, timeout: 5_000 }).toEqual(expected);
        // The text says the same as the hooks.
        for (const block of expected) {
          const money = `$${Number(block.money).toLocaleString('en-US')}`;
          expect(await panel.locator(`[data-economy="${block.team}"] [data-team-money]`).textContent()).toBe(
            money,
          );
        }
      }
    }
  }, 60_000);

  it('the round-win banner names the winner and how the round ended, and leaves when the next round starts', async () => {
    const server = await build({ gameReceivingTimeoutMs: 30_000 });
    const pages = await overlays(server);
    const round = (await fixture(ROUND_SEQUENCE)) as Frame[];
    const navi = await fixture(FAZE_NAVI);
    const ancient = await fixture(ANCIENT);
    const cases = [
      // The captured round: bomb defused, CT win; then the next freeze time.
      { over: round[8], next: round[10], reason: 'defuse' },
      // DERIVED: the pro captures at the end of rounds their round_wins record: round 2 of FaZe vs
      // NAVI (t_win_bomb), round 9 (ct_win_elimination), round 3 of Ancient (ct_win_time).
      { over: atPhase(navi, 2, 'over', 'T'), next: atPhase(navi, 2, 'freezetime'), reason: 'bomb' },
      { over: atPhase(navi, 9, 'over', 'CT'), next: atPhase(navi, 9, 'live'), reason: 'elimination' },
      { over: atPhase(ancient, 3, 'over', 'CT'), next: atPhase(ancient, 3, 'freezetime'), reason: 'time' },
    ];
    for (const { over, next, reason } of cases) {
      if (!over || !next) throw new Error('a frame is missing');
      const cs2 = toCs2(over);
      expect(cs2.map.round_wins[String(cs2.map.round)]).toMatch(new RegExp(`_win_${reason}$`));
      await postAccepted(server, cs2);
      const winnerSide = cs2.round.win_team as 'CT' | 'T';
      const winner = teamASide(server) === winnerSide ? 'A' : 'B';
      for (const page of pages) {
        const banner = page.locator(
          `[data-panel="round-banner"][data-visible="true"][data-winner="${winner}"][data-side="${winnerSide}"][data-reason="${reason}"]`,
        );
        await banner.waitFor().catch((error) => {
          throw new Error(`the banner for ${reason}`, { cause: error });
        });
        const teamName = await page.locator(`[data-topbar] [data-team="${winner}"]`).textContent();
        expect((await banner.textContent())?.toLowerCase()).toContain(teamName?.toLowerCase());
      }
      await postAccepted(server, toCs2(next));
      for (const page of pages) {
        await page
          .locator('[data-panel="round-banner"][data-visible="false"]:not([data-winner])')
          .waitFor({ state: 'attached' });
      }
    }
  }, 60_000);

  it('stays in its zones at both sizes, nothing spills out of a box, headers sit over their columns, dead names stay readable', async () => {
    const server = await build({ gameReceivingTimeoutMs: 30_000 });
    const pages = await overlays(server);
    // Long names everywhere: the team names in the banner, a 32-character player name in the boxes.
    expect(
      (
        await command(server, 'set_teams', {
          teamA: { name: 'Natus Vincere Esports International' },
          teamB: { name: 'FaZe Clan Esports International' },
        })
      ).status,
    ).toBe(200);
    const round = (await fixture(ROUND_SEQUENCE)) as Frame[];
    const states = [
      {
        frame: toCs2(round[0] as Frame),
        wait: '[data-panel="observed"][data-visible="true"]',
        panels: ['players', 'observed'],
      },
      {
        frame: toCs2(round[8] as Frame),
        wait: '[data-panel="round-banner"][data-visible="true"]',
        panels: ['players', 'observed', 'round-banner'],
      },
      {
        frame: toCs2(round[10] as Frame),
        wait: '[data-panel="economy"][data-visible="true"]',
        panels: ['players', 'observed', 'economy'],
      },
    ];
    for (const { frame, wait, panels } of states) {
      await postAccepted(server, frame);
      for (const [index, page] of pages.entries()) {
        const size = SIZES[index];
        if (!size) throw new Error('no size');
        await page.locator(wait).waitFor();
        await settled(page);
        const scale = size.width / 1920;
        const found = await page.evaluate((names) => {
          interface Rect {
            left: number;
            right: number;
            top: number;
            bottom: number;
            width: number;
            height: number;
          }
          interface El {
            getAttribute(name: string): string | null;
            getBoundingClientRect(): Rect;
            querySelectorAll(selector: string): ArrayLike<El>;
            scrollWidth: number;
            clientWidth: number;
            textContent: string | null;
          }
          const g = globalThis as unknown as {
            document: { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> };
            getComputedStyle(el: El): { display: string; overflowX: string };
          };
          const rects: Record<string, Rect> = {};
          const spills: string[] = [];
          // Each box of the players panel is a container of its own; the other panels are one each.
          const containers: Array<[string, El]> = [];
          for (const name of names) {
            const panel = g.document.querySelector(`[data-panel="${name}"]`);
            if (!panel) continue;
            rects[name] = panel.getBoundingClientRect();
            if (name === 'players')
              for (const box of Array.from(panel.querySelectorAll('[data-slot]')))
                containers.push([`box ${box.getAttribute('data-slot')}`, box]);
            else containers.push([name, panel]);
          }
          for (const [name, container] of containers) {
            const box = container.getBoundingClientRect();
            rects[name] = box;
            for (const el of Array.from(container.querySelectorAll('*'))) {
              const r = el.getBoundingClientRect();
              if (r.width === 0 && r.height === 0) continue;
              if (
                r.left < box.left - 1 ||
                r.right > box.right + 1 ||
                r.top < box.top - 1 ||
                r.bottom > box.bottom + 1
              )
                spills.push(`${name}: "${el.textContent}" outside its box`);
              const style = g.getComputedStyle(el);
              if (
                style.display !== 'inline' &&
                style.overflowX === 'visible' &&
                el.clientWidth > 0 &&
                el.scrollWidth > el.clientWidth + 1
              )
                spills.push(`${name}: "${el.textContent}" wider than its place`);
            }
          }
          return { rects, spills };
        }, panels);
        expect(found.spills, `${size.name}`).toEqual([]);
        // The zones of docs/themes.md, at 1920x1080 and scaled.
        const within = (name: string, zone: { left: number; top: number; right: number; bottom: number }) => {
          const rect = found.rects[name];
          if (!rect) throw new Error(`${name} not found`);
          expect(rect.left, `${name} left`).toBeGreaterThanOrEqual(zone.left * scale - 1);
          expect(rect.right, `${name} right`).toBeLessThanOrEqual(zone.right * scale + 1);
          expect(rect.top, `${name} top`).toBeGreaterThanOrEqual(zone.top * scale - 1);
          expect(rect.bottom, `${name} bottom`).toBeLessThanOrEqual(zone.bottom * scale + 1);
        };
        for (const [name, rect] of Object.entries(found.rects)) {
          if (!name.startsWith('box ')) continue;
          const left = rect.right < size.width / 2;
          within(
            name,
            left
              ? { left: 20, right: 450, top: 784, bottom: 1060 }
              : { left: 1470, right: 1900, top: 784, bottom: 1060 },
          );
        }
        // The observed card with its portrait column (issue 34): 640 + 108 px, centred between the boxes.
        within('observed', { left: 586, right: 1334, top: 923, bottom: 1060 });
        if (panels.includes('economy')) within('economy', { left: 500, right: 1420, top: 114, bottom: 176 });
        if (panels.includes('round-banner'))
          within('round-banner', { left: 500, right: 1420, top: 114, bottom: 190 });
      }
    }

    // The scoreboard over the live frame: each column header centred over its column, at both sizes.
    await postAccepted(server, toCs2(round[0] as Frame));
    expect((await command(server, 'show_scoreboard')).status).toBe(200);
    for (const page of pages) {
      await page
        .locator('[data-panel="scoreboard"][data-visible="true"] [data-col-head="money"]')
        .first()
        .waitFor();
      await settled(page);
      const columns = await page
        .locator('[data-panel="scoreboard"] [data-team-column]')
        .evaluateAll((teams) =>
          (
            teams as unknown as Array<{
              getAttribute(n: string): string | null;
              querySelectorAll(s: string): ArrayLike<{
                getAttribute(n: string): string | null;
                getBoundingClientRect(): { left: number; width: number };
              }>;
            }>
          ).map((team) => {
            const centre = (el: { getBoundingClientRect(): { left: number; width: number } }) =>
              el.getBoundingClientRect().left + el.getBoundingClientRect().width / 2;
            return {
              team: team.getAttribute('data-team-column'),
              heads: Array.from(team.querySelectorAll('[data-col-head]')).map((h) => ({
                col: h.getAttribute('data-col-head'),
                x: centre(h),
              })),
              cells: Array.from(team.querySelectorAll('[data-col]')).map((c) => ({
                col: c.getAttribute('data-col'),
                x: centre(c),
              })),
            };
          }),
        );
      expect(columns).toHaveLength(2);
      for (const { team, heads, cells } of columns) {
        expect(heads.map((h) => h.col)).toEqual(['hp', 'kills', 'deaths', 'assists', 'adr', 'money']);
        expect(cells).toHaveLength(5 * heads.length);
        for (const cell of cells) {
          const head = heads.find((h) => h.col === cell.col);
          expect(Math.abs((head?.x ?? 0) - cell.x), `team ${team} ${cell.col}`).toBeLessThanOrEqual(1);
        }
      }
    }

    // Dead players (four in this frame): a dead mark, and a name readable on its box in every preset.
    const page = pages[0];
    if (!page) throw new Error('no page');
    const dead = Object.values<Frame>(round[0]?.allplayers ?? {}).filter((p) => p.state.health <= 0).length;
    expect(dead).toBeGreaterThan(0);
    for (const presetId of ['midnight', 'crimson', 'arctic', 'neon']) {
      expect((await command(server, 'set_color_preset', { presetId })).status).toBe(200);
      await page.locator(`[data-page="hud"][data-preset="${presetId}"]`).waitFor();
      await settled(page);
      for (const where of ['players', 'scoreboard']) {
        const names = page.locator(`[data-panel="${where}"] [data-alive="false"] [data-player-name]`);
        expect(await names.count(), where).toBe(dead);
        expect(
          await page.locator(`[data-panel="${where}"] [data-alive="false"] [aria-label="Dead"]`).count(),
        ).toBe(dead);
        const samples = await names.evaluateAll((els) =>
          (els as unknown as Array<{ parentElement: unknown; hasAttribute(n: string): boolean }>).map(
            (name) => {
              type Node = { parentElement: Node | null; hasAttribute(n: string): boolean };
              const style = (
                globalThis as unknown as {
                  getComputedStyle(el: unknown): { color: string; opacity: string; backgroundColor: string };
                }
              ).getComputedStyle;
              let opacity = 1;
              const backgrounds: string[] = [];
              for (let el: Node | null = name as Node; el; el = el.parentElement) {
                const computed = style(el);
                opacity *= Number(computed.opacity);
                if (computed.backgroundColor !== 'rgba(0, 0, 0, 0)')
                  backgrounds.push(computed.backgroundColor);
                if (el.hasAttribute('data-panel')) break;
              }
              return { color: style(name).color, opacity, backgrounds };
            },
          ),
        );
        for (const sample of samples) {
          expect(
            contrastOnBox(sample),
            `${presetId} ${where}: ${JSON.stringify(sample)}`,
          ).toBeGreaterThanOrEqual(3);
        }
      }
    }
  }, 60_000);

  it('screenshots at both sizes over a game-like picture: freeze time, a live round, a round end, the scoreboard', async () => {
    const server = await build({ gameReceivingTimeoutMs: 30_000 });
    const pages = await overlays(server);
    const first = pages[0];
    if (!first) throw new Error('no page');
    await teamLogos(server, first);
    const navi = await fixture(FAZE_NAVI);
    const round = (await fixture(ROUND_SEQUENCE)) as Frame[];
    for (const page of pages) {
      // A bright, busy picture behind the overlay, as the game gives it (sky and sand): the worst case.
      await page.evaluate(() => {
        const doc = (
          globalThis as unknown as { document: { documentElement: { style: Record<string, string> } } }
        ).document;
        doc.documentElement.style.background =
          'repeating-linear-gradient(115deg, rgba(0,0,0,0.07) 0 40px, transparent 40px 110px), linear-gradient(180deg, #9db7d1 0%, #d8c49a 42%, #b48e5c 70%, #6f5434 100%)';
      });
    }
    const shots = [
      {
        frame: toCs2(atPhase(navi, 10, 'freezetime')),
        wait: '[data-panel="economy"][data-visible="true"]',
        name: 'freezetime',
      },
      {
        frame: toCs2(navi),
        wait: '[data-panel="observed"][data-visible="true"][data-active-weapon="weapon_ak47"]',
        name: 'live',
      },
      {
        frame: toCs2(round[0] as Frame),
        wait: '[data-panel="players"] [data-bomb="true"]',
        name: 'live-bomb-carrier',
      },
      {
        frame: toCs2(atPhase(navi, 2, 'over', 'T')),
        wait: '[data-panel="round-banner"][data-visible="true"]',
        name: 'round-end',
      },
    ];
    for (const { frame, wait, name } of shots) {
      await postAccepted(server, frame);
      for (const [index, page] of pages.entries()) {
        await page.locator(wait).waitFor();
        await settled(page);
        await page.screenshot({ path: `${SCREENSHOTS}hud-staples-${name}-${SIZES[index]?.name}.png` });
      }
    }
    await postAccepted(server, toCs2(navi));
    expect((await command(server, 'show_scoreboard')).status).toBe(200);
    for (const [index, page] of pages.entries()) {
      await page
        .locator('[data-panel="scoreboard"][data-visible="true"] [data-col-head="kills"]')
        .first()
        .waitFor();
      await settled(page);
      await page.screenshot({ path: `${SCREENSHOTS}hud-staples-scoreboard-${SIZES[index]?.name}.png` });
    }
  }, 60_000);
});
