/**
 * Zones, not collisions (docs/themes.md, "Zones"): every combination of the overlay's panels, at
 * 1920x1080 and 1280x720, without and with live game data from real frames, and with and without a
 * replay playing. In each one, no two panels on air (`data-panel` with `data-visible="true"` that
 * the page really draws) overlap, no text runs out of its box unless an ellipsis ends it, and no text
 * is smaller than the smallest type on air (10 px at 1280x720, 15 px on the stage: docs/themes.md).
 *
 * Generic over the page's hooks: the toggled panels come from machines/panels.ts (the radar among
 * them), and the measures (test/helpers/hud-probe.js) take every `[data-panel]` the page has, so the
 * panels that come with the game's phases (the economy at freeze time, the round-win banner while a
 * round is over) and any panel added later are checked without an edit here. One page per size,
 * driven by commands and game frames; each state is awaited on the root's `data-open`, not on time.
 *
 * The stats panel with the game's values and the radar draw only with live game data: without it the
 * walk leaves them switched on and expects them off air. With it, it toggles them like the others;
 * the stats panel then shows a player of each team (each team's goes on its own side) with FACEIT's
 * figures from a stand-in (test/helpers/faceit-stand-in.ts), its tallest content. The game's values
 * are shown over every frame of the round with everything open.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PANELS } from '../../machines/panels.ts';
import { build, ok, tempDir } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { CAPTURED, STAND_IN_KEY, startFaceitStandIn } from '../helpers/faceit-stand-in.ts';
import type { Frame } from '../helpers/gsi.ts';
import { FAZE_NAVI, fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';
import { panelApi, seriesInProgress, teamLogos } from '../helpers/hud.ts';
import type { ProbeHost } from '../helpers/hud-pages.ts';
import { endReplay, holdReplay, probedOverlay, standInObs } from '../helpers/hud-pages.ts';
import { makeClip, makeLogo } from '../helpers/media.ts';

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;

/** The panels a command shows and hides (the overlay window aside: closed, nothing is on air). */
const TOGGLED = PANELS.flatMap((panel) =>
  'hook' in panel ? [{ hook: panel.hook, command: panel.command }] : [],
);
const POSITIONS = [
  'top-left',
  'top-center',
  'top-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
] as const;
type Position = (typeof POSITIONS)[number];
/**
 * The toggled panels that draw only with live game data: the stats panel with the game's values (as
 * show_stats opens it), the radar the game's map.
 */
const NEEDS_GAME: ReadonlySet<string> = new Set(['stats', 'radar']);
/**
 * A player of each team for the stats panel, by HUD slot: team A's goes on the left, team B's on the
 * right. In the captured round team A plays CT, whose players the game puts on slots 2-6.
 */
const STATS_PLAYERS = { A: 2, B: 7 } as const;
type Team = keyof typeof STATS_PLAYERS;
/** The corner position that gives way to each team's stats panel while the game is live. */
const STATS_YIELD = { A: 'bottom-left', B: 'bottom-right' } as const;
const CORNERS = [
  { hook: 'sponsor', command: 'set_sponsor_overlay' },
  { hook: 'badge', command: 'set_event_badge' },
] as const;

/**
 * One combination: which toggled panels are shown, whose player the stats panel shows (his team's
 * side) and from which provider, and where each corner panel is (null: off).
 */
interface Combination {
  shown: ReadonlySet<string>;
  statsTeam: Team;
  statsProvider: 'live' | 'platform_a';
  corners: Readonly<Record<'sponsor' | 'badge', Position | null>>;
}

/**
 * Every combination, with live game data or without: without, the panels that need it stay shown
 * (the stats panel with the game's values: it must stay off air) and only the others are toggled;
 * with it, everything, the stats panel with FACEIT's figures. Team B's stats player comes after all
 * of team A's combinations, in those that show the stats panel: the player changes once per walk.
 */
function* combinations(live: boolean): Generator<Combination> {
  const toggled = TOGGLED.filter(({ hook }) => live || !NEEDS_GAME.has(hook));
  const held = live ? [] : [...NEEDS_GAME];
  const statsProvider = live ? 'platform_a' : 'live';
  for (const statsTeam of live ? (['A', 'B'] as const) : (['A'] as const))
    for (let mask = 0; mask < 2 ** toggled.length; mask++) {
      const shown = new Set([...held, ...toggled.filter((_, i) => mask & (2 ** i)).map((p) => p.hook)]);
      if (statsTeam === 'B' && !shown.has('stats')) continue;
      for (const sponsor of [null, ...POSITIONS])
        for (const badge of [null, ...POSITIONS])
          yield { shown, statsTeam, statsProvider, corners: { sponsor, badge } };
    }
}

const describeCombination = (c: Combination) =>
  [
    c.shown.size
      ? [...c.shown]
          .map((hook) => (hook === 'stats' ? `stats ${c.statsTeam} ${c.statsProvider}` : hook))
          .join('+')
      : 'no panel',
    ...CORNERS.map(({ hook }) => `${hook} ${c.corners[hook] ?? 'off'}`),
  ].join(', ');

/**
 * The words the root's data-open must have, and must not, once the page shows a combination: a
 * panel that needs game data is on air only with it, and while the game is live a corner panel at
 * the bottom of the stats panel's side gives way to it (docs/themes.md, "Giving way to the stats").
 */
function expectedWords(c: Combination, live: boolean): { present: string[]; absent: string[] } {
  const present: string[] = [];
  const absent: string[] = [];
  const onAir = (hook: string) =>
    c.shown.has(hook) &&
    (live || !NEEDS_GAME.has(hook) || (hook === 'stats' && c.statsProvider === 'platform_a'));
  for (const { hook } of TOGGLED) (onAir(hook) ? present : absent).push(hook);
  const yielded = onAir('stats') ? STATS_YIELD[c.statsTeam] : null;
  for (const { hook } of CORNERS) {
    const at = c.corners[hook];
    if (at && at !== yielded) present.push(`${hook}@${at}`);
    else absent.push(hook);
  }
  return { present, absent };
}

const timing = { probe: 0, total: 0 };

describe.skipIf(!chromiumAvailable)('the HUD overlay: zones, not collisions', () => {
  const chromium = chromiumPerFile();

  /** Waits on every page for the words, then measures: the problems, each with where it was seen. */
  async function measure(pages: Page[], words: { present: string[]; absent: string[] }, label: string) {
    const found: string[] = [];
    await Promise.all(
      pages.map(async (page, i) => {
        const t0 = performance.now();
        const { problems, ms } = await page.evaluate(async ({ present, absent }) => {
          await (globalThis as unknown as ProbeHost).hudProbe.until(present, absent);
          return (globalThis as unknown as ProbeHost).hudProbe.layout();
        }, words);
        timing.probe += ms;
        timing.total += performance.now() - t0;
        const size = SIZES[i];
        for (const problem of problems) found.push(`${problem}  [${label}, ${size?.width}x${size?.height}]`);
      }),
    );
    return found;
  }

  /**
   * Screenshots of a dense combination at both sizes, over a stand-in for the game's picture (the
   * overlay itself is transparent), for a person to look at.
   */
  async function screenshots(pages: Page[], name: string) {
    await Promise.all(
      pages.map(async (page, i) => {
        const size = SIZES[i];
        const backdrop = await page.addStyleTag({
          content:
            'html { background: linear-gradient(170deg, #6b5a43 0%, #a88d67 38%, #4d4337 62%, #2a2622 100%) !important; }',
        });
        await page.screenshot({
          path: `${SCREENSHOTS}hud-layout-${name}-${size?.width}x${size?.height}.png`,
        });
        await backdrop.evaluate((style) => (style as unknown as { remove(): void }).remove());
      }),
    );
  }

  it('no two panels on air overlap and no text runs out of its box, in every combination, at both sizes', async () => {
    const dir = await tempDir();
    const clip = join(dir, 'Replay 2026-11-24 13-37-00.webm');
    const frames = ((await fixture(ROUND_SEQUENCE)) as Frame[]).map((frame) => toCs2(frame));
    // The round's end: the longest words under the clock, dead players dimmed.
    const roundOver = frames[8];
    if (!roundOver) throw new Error('no frame 8');
    // FACEIT knows the two stats players of the captured round (observer_slot 0 is HUD slot 1).
    const steamidIn = (slot: number) =>
      Object.entries<Frame>(roundOver.allplayers).find(([, p]) => (p.observer_slot + 1) % 10 === slot)?.[0] ??
      '';
    const faceit = await startFaceitStandIn(
      Object.fromEntries(Object.values(STATS_PLAYERS).map((slot) => [steamidIn(slot), CAPTURED])),
    );
    const server = await build({
      // The live part of the walk must not see "receiving" lapse between two frames.
      gameReceivingTimeoutMs: 15 * 60_000,
      faceitApiKey: STAND_IN_KEY,
      overrides: {
        obs: { enabled: true, url: 'ws://127.0.0.1:4455', password: 'stand-in' },
        sources: { faceitDataApiUrl: faceit.dataApiUrl, faceitKeyHost: new URL(faceit.dataApiUrl).host },
      },
      machine: (live) => live.provide({ actors: { obs: standInObs(clip) } }),
    });
    const pages: Page[] = [];
    for (const size of SIZES) pages.push(await probedOverlay(server, chromium.newContext, size));
    const [first] = pages;
    if (!first) throw new Error('no page');
    await writeFile(clip, await makeClip(first, 1200));

    // A series in progress with its roster, team logos, an event logo and a sponsor: what a crew shows.
    await seriesInProgress(server);
    await teamLogos(server, first);
    const api = await panelApi(server);
    const sponsor = (await api.upload(await makeLogo(first, { text: 'HYPERION', colour: '#e0413a' }))).body
      .media.id;
    const logo = (
      await api.upload(
        await makeLogo(first, { text: 'IEM', colour: '#1d5fe0', width: 200, height: 200, round: true }),
      )
    ).body.media.id;
    await api.settings({ branding: { eventLogo: logo, sponsors: [{ name: 'Hyperion', image: sponsor }] } });

    // The measures see what they look for: a corner panel forced onto the scoreboard, a name forced
    // onto one line in a box too small for it, at a size under the smallest type on air.
    await ok(server, 'show_scoreboard');
    await ok(server, 'set_event_badge', { enabled: true, position: 'top-center' });
    const forced = await first.addStyleTag({
      content:
        '.hud [data-panel="badge"] { visibility: visible !important; opacity: 1 !important; }' +
        '.hud [data-panel="badge"] * { white-space: nowrap !important; width: 60px !important; font-size: 12px !important; }',
    });
    const caught = await measure(
      [first],
      { present: ['scoreboard', 'badge@top-center'], absent: [] },
      'forced',
    );
    expect(caught.join('\n')).toMatch(/scoreboard .* and badge@top-center .* overlap/);
    expect(caught.join('\n')).toMatch(/badge@top-center .*"IEM Cologne 2026 · Playoffs" (is|runs) \d+ px/);
    // The badge's name forced to 12 px on the stage (8 px at 1280x720): under the smallest type on air.
    expect(caught.join('\n')).toMatch(
      /badge@top-center .*"IEM Cologne 2026 · Playoffs" is 12 px here .*under the smallest type on air/,
    );
    await forced.evaluate((style) => (style as unknown as { remove(): void }).remove());
    await ok(server, 'hide_scoreboard');
    await ok(server, 'set_event_badge', { enabled: false });

    let current: Combination = {
      // The radar is shown from the start (machines/panels.ts, startsShown).
      shown: new Set(TOGGLED.filter(({ hook }) => hook === 'radar').map(({ hook }) => hook)),
      statsTeam: 'A',
      statsProvider: 'live',
      corners: { sponsor: null, badge: null },
    };
    // Team A's player first; show_stats opens the stats panel on the player picked here.
    await ok(server, 'set_stats_player', { slot: STATS_PLAYERS.A });
    let live = false;
    /** Opens the stats panel (or gives it another player): the game's values, or FACEIT's figures. */
    const openStats = ({ statsTeam, statsProvider }: Combination) =>
      statsProvider === 'live'
        ? ok(server, 'show_stats')
        : ok(server, 'show_player_stats', { slot: STATS_PLAYERS[statsTeam], provider: 'platform_a' });
    const apply = async (next: Combination) => {
      const newRequest = next.statsTeam !== current.statsTeam || next.statsProvider !== current.statsProvider;
      if (newRequest) await ok(server, 'set_stats_player', { slot: STATS_PLAYERS[next.statsTeam] });
      const opensStats = next.shown.has('stats') && (newRequest || !current.shown.has('stats'));
      for (const { hook, command: word } of TOGGLED) {
        if (hook === 'stats' && opensStats) await openStats(next);
        else if (next.shown.has(hook) !== current.shown.has(hook))
          await ok(server, `${next.shown.has(hook) ? 'show' : 'hide'}_${word}`);
      }
      for (const { hook, command: action } of CORNERS) {
        const at = next.corners[hook];
        if (at !== current.corners[hook])
          await ok(server, action, at ? { enabled: true, position: at } : { enabled: false });
      }
      // data-open does not say whose stats are on air, nor whose figures: the panel's own hooks do.
      if (newRequest && opensStats && expectedWords(next, live).present.includes('stats'))
        await Promise.all(
          pages.map((page) =>
            page
              .locator(
                `[data-panel="stats"][data-visible="true"][data-stats-team="${next.statsTeam}"][data-provider="${next.statsProvider}"]`,
              )
              .waitFor({ state: 'attached' }),
          ),
        );
      current = next;
    };

    const seen = new Map<string, { count: number; first: string }>();
    const note = (found: string[]) => {
      for (const one of found) {
        const [problem = one, where = ''] = one.split('  [');
        const entry = seen.get(problem);
        if (entry) entry.count++;
        else seen.set(problem, { count: 1, first: where.slice(0, -1) });
      }
    };
    /** Shows a combination and measures it; `phase` adds the words the game's phase must give. */
    const show = async (
      combination: Combination,
      label: string,
      phase: { present: string[]; absent: string[] } = { present: [], absent: [] },
    ) => {
      await apply(combination);
      const words = expectedWords(combination, live);
      note(
        await measure(
          pages,
          { present: [...words.present, ...phase.present], absent: [...words.absent, ...phase.absent] },
          label,
        ),
      );
    };
    const panels = (...hooks: string[]) => new Set(hooks);

    let states = 0;
    let applying = 0;
    const started = Date.now();
    const walk = async (context: string) => {
      for (const combination of combinations(live)) {
        const t0 = performance.now();
        await apply(combination);
        applying += performance.now() - t0;
        states++;
        note(
          await measure(
            pages,
            expectedWords(combination, live),
            `${context}, ${describeCombination(combination)}`,
          ),
        );
      }
    };

    await walk('no game data');
    await show(
      {
        shown: panels('veto', 'stats', 'radar'),
        statsTeam: 'A',
        statsProvider: 'live',
        corners: { sponsor: 'top-right', badge: 'top-center' },
      },
      'screenshot',
    );
    await screenshots(pages, 'no-game-veto');
    await ok(server, 'save_replay');
    await holdReplay(pages);
    await walk('no game data, replay');
    await postAccepted(server, roundOver);
    live = true;
    await Promise.all(
      pages.map((page) =>
        page.evaluate(() => (globalThis as unknown as ProbeHost).hudProbe.until(['players', 'observed'], [])),
      ),
    );
    await walk('live, replay');
    await show(
      {
        shown: panels('veto', 'radar'),
        statsTeam: 'B',
        statsProvider: 'platform_a',
        corners: { sponsor: 'top-right', badge: 'top-left' },
      },
      'screenshot',
    );
    await screenshots(pages, 'live-replay-veto');
    await endReplay(pages);
    await walk('live, round over');
    await show(
      {
        shown: panels('scoreboard', 'stats', 'radar'),
        statsTeam: 'A',
        statsProvider: 'live',
        corners: { sponsor: 'bottom-right', badge: 'bottom-center' },
      },
      'screenshot',
    );
    await screenshots(pages, 'live-scoreboard-stats');
    await show(
      {
        shown: panels('stats', 'radar'),
        statsTeam: 'B',
        statsProvider: 'platform_a',
        corners: { sponsor: 'top-right', badge: 'top-left' },
      },
      'screenshot',
    );
    await screenshots(pages, 'live-round-over-stats-b');

    // Every frame of the captured round and the pro capture (freeze time's economy, the round-win
    // banner, the bomb): with everything open at once, and with the corner panels stacked under the
    // top bar, where the economy and the banner take their place.
    const dense: Combination = {
      shown: new Set(TOGGLED.map((p) => p.hook)),
      statsTeam: 'B',
      statsProvider: 'live',
      // Bottom centre: in the pro capture the stats player is on the other team (its own slots).
      corners: { sponsor: 'bottom-center', badge: 'top-right' },
    };
    const band: Combination = {
      shown: panels('stats', 'radar'),
      statsTeam: 'B',
      statsProvider: 'live',
      corners: { sponsor: 'top-center', badge: 'top-center' },
    };
    for (const frame of [...frames, toCs2(await fixture(FAZE_NAVI))]) {
      await postAccepted(server, frame);
      // The economy shows at freeze time, the banner while the round is over, neither otherwise.
      const phase =
        frame.round?.phase === 'freezetime'
          ? 'economy'
          : frame.round?.phase === 'over'
            ? 'round-banner'
            : null;
      const words = {
        present: phase ? [phase] : [],
        absent: ['economy', 'round-banner'].filter((word) => word !== phase),
      };
      for (const combination of [dense, band])
        await show(
          combination,
          `frame ${frame.round?.phase ?? ''} ${frame.map?.round ?? ''}, ${describeCombination(combination)}`,
          words,
        );
    }
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `hud-layout: ${states} combinations x ${SIZES.length} sizes in ${seconds.toFixed(1)} s (${(applying / 1000).toFixed(1)} s in commands; ${(timing.probe / 1000).toFixed(1)} s measuring, ${(timing.total / 1000).toFixed(1)} s waiting and measuring, summed over pages)`,
    );

    const report = [...seen].map(
      ([problem, { count, first: where }]) => `${problem}\n    ${count}x, first in ${where}`,
    );
    expect(report, report.slice(0, 40).join('\n')).toEqual([]);
  }, 900_000);
});
