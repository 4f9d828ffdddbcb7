/**
 * The module in a real Bitfocus Companion (4.2.6, built from source; helpers/real-companion.ts),
 * driven as a desk does. Companion runs in a network namespace, as on another machine of the local
 * network: it reaches hud-automation (in local network mode) with the access token, and nothing
 * else. The test imports a page saved with module 0.1.0 (the upgrade scripts run), puts every preset
 * of the show page on a button and presses each once over Companion's HTTP API, checking what the
 * server received and what it changed; then it changes the show from another client and reads
 * Companion's variables and button faces, restarts the server and gives a wrong token.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../../test/helpers/netns.ts';
import { TESTED_COMPANION_VERSIONS } from '../src/compatibility.ts';
import { type HudServer, startHudServer } from './helpers/hud-server.ts';
import {
  buildCompanion,
  COMPANION_REQUIRED,
  type CompanionBuild,
  findCompanion,
  installDevModule,
  type Location,
  type RealCompanion,
  startCompanion,
  waitUntil,
} from './helpers/real-companion.ts';
import { screenshotFaces } from './helpers/button-page.ts';
import { presetDefinitions } from '../src/presets.ts';

/** The command a preset's button sends: the module's own preset definitions (Companion lists only names). */
function commandOf(id: string): string | undefined {
  return (moduleDefinitions() as Record<string, any>)[id]?.steps[0]?.down[0]?.actionId;
}

/** The preset page the module builds for this show (the overlay reports two colour presets). */
function moduleDefinitions() {
  return presetDefinitions(LABEL, [
    { id: 'midnight', name: 'Midnight' },
    { id: 'daylight', name: 'Daylight' },
  ]);
}

const PKG = fileURLToPath(new URL('../pkg', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/companion-4.2.6-page-module-0.1.0.json', import.meta.url));
const SCREENSHOT = '/tmp/companion-presets.png';
const LABEL = 'hud';
const WRONG_TOKEN = 'A'.repeat(43);
const COLUMNS = 8;
const ROWS = 4;

const found = await findCompanion();
const netSkip = netnsSkipReason();
const skip = 'skip' in found ? found.skip : netSkip;

/** Everything the server publishes, as a fresh client is told at hello. */
function serverSnapshot(port: number): Promise<any> {
  return new Promise((done, fail) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
    socket.once('message', (raw) => {
      done(JSON.parse(raw.toString()).snapshot);
      socket.close();
    });
    socket.once('error', fail);
  });
}

/** The colour of a face's bottom-left corner (its background), as #rrggbb. */
async function faceColor(build: CompanionBuild, dataUrl: string): Promise<string> {
  const { createRequire } = await import('node:module');
  const require = createRequire(`${build.app}/package.json`);
  const { loadImage, createCanvas } = require('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(dataUrl.split(',')[1] as string, 'base64'));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const [r, g, b] = context.getImageData(2, image.height - 3, 1, 1).data as number[];
  return `#${[r, g, b].map((v) => (v as number).toString(16).padStart(2, '0')).join('')}`;
}

const GREEN = '#00963c';
const RED = '#c80000';
const IDLE = '#262626';
const GREY = '#5a5a5a';

describe.skipIf(skip && !COMPANION_REQUIRED)(
  `the module in a real Companion${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let build: CompanionBuild;
    let net: TestNetwork;
    let server: HudServer;
    let token: string;
    let companion: RealCompanion;
    let connectionId: string;
    const placed = new Map<string, { location: Location; preset: any }>();

    beforeAll(async () => {
      if (skip) throw new Error(`a real Companion is required here (CI or HUD_REQUIRE_COMPANION): ${skip}`);
      if (!existsSync(PKG)) throw new Error(`no packaged module at ${PKG}: run npm run package first`);
      build = await buildCompanion(found as { archive?: string; dir: string });
      [net, server] = await Promise.all([
        createTestNetwork(),
        startHudServer({ lan: true, subscription: true, logRequests: true }),
      ]);
      token = await server.token();
      companion = await startCompanion(build, {
        modules: await installDevModule(PKG),
        place: { namespace: net.lan.namespace, address: net.lan.address },
      });
      console.log(`Companion ${companion.version} (${build.built}), in namespace ${net.lan.namespace}`);
    }, 1_200_000);
    afterAll(async () => {
      await companion?.stop();
      await server?.close();
      await net?.close();
    });

    const config = (groups: boolean) => ({
      host: net.lan.serverAddress,
      port: server.port,
      token,
      variablesGame: groups,
      variablesPlayers: groups,
    });

    /** The game's frame, as CS2 posts it: dust2, round 11, CT 7 - T 3, 8 s left, two players. */
    async function postGameFrame() {
      const gsiToken = (await readFile(`${server.dataDir}/gsi-token`, 'utf8')).trim();
      const frame = {
        provider: { name: 'Counter-Strike 2', appid: 730, version: 14093 },
        map: { name: 'de_dust2', phase: 'live', round: 10, team_ct: { score: 7 }, team_t: { score: 3 } },
        round: { phase: 'live' },
        phase_countdowns: { phase: 'live', phase_ends_in: '8.0' },
        player: { steamid: '76561198034202275' },
        allplayers: {
          '76561198034202275': { name: 's1mple', observer_slot: 6, team: 'T', state: { health: 90, money: 1500 }, match_stats: { kills: 4, deaths: 9 } },
          '76561197991272318': { name: 'ropz', observer_slot: 3, team: 'CT', state: { health: 100, money: 4200 }, match_stats: { kills: 7, deaths: 2 } },
        },
        auth: { token: gsiToken },
      };
      expect((await server.post('/gsi', frame)).status).toBe(200);
    }

    /** Waits until the module shows the server's current revision. */
    async function caughtUp(): Promise<number> {
      const revision = (await serverSnapshot(server.port)).revision;
      await companion.waitForVariable(LABEL, 'revision', (value) => Number(value) >= revision, `>= ${revision}`);
      return revision;
    }

    /** Presses a button and returns the command request the server received for it. */
    async function press(location: Location, action: string) {
      await caughtUp();
      const seen = server.requests.length;
      await companion.press(location);
      return waitUntil(
        async () => server.requests.slice(seen).find((entry) => entry.request === `POST /api/actions/${action}`),
        `the server to receive ${action}`,
      );
    }

    it('is the Companion version the module declares it is tested on', () => {
      expect(TESTED_COMPANION_VERSIONS).toContain(companion.version);
    });

    it('upgrades a page saved with module 0.1.0: number options become text, the connection keeps its variables', async () => {
      const saved = JSON.parse(await readFile(FIXTURE, 'utf8'));
      // The desk's saved connection, pointed at this server (as the operator would after moving it).
      for (const instance of Object.values(saved.instances) as any[]) Object.assign(instance.config, config(false));
      for (const instance of Object.values(saved.instances) as any[]) {
        delete instance.config.variablesGame;
        delete instance.config.variablesPlayers;
      }
      await companion.importPage(saved, 1);
      const connections = await new Promise<Record<string, any>>((done, fail) => {
        const sub = companion.trpc.instances.connections.watch.subscribe(undefined, {
          onData: (data: any) => {
            const init = (Array.isArray(data) ? data : [data]).find((entry: any) => entry?.type === 'init');
            if (init) {
              queueMicrotask(() => sub.unsubscribe());
              done(init.info);
            }
          },
          onError: fail,
        });
      });
      connectionId = Object.entries(connections).find(([, c]) => c.label === LABEL)?.[0] as string;
      expect(connectionId).toBeTruthy();
      await companion.waitForStatus(connectionId, (status) => status.category === 'good', 'ok');
      const page = await waitUntil(async () => {
        const exported = await companion.exportPage(1);
        const instance = Object.values(exported.instances)[0] as any;
        return instance.lastUpgradeIndex === 0 ? exported : undefined;
      }, 'the upgrade script to run');
      const actionAt = (column: number) => page.page.controls['0'][String(column)].steps['0'].action_sets.down[0];
      expect(actionAt(1)).toMatchObject({
        definitionId: 'set_map_result',
        options: { map: '1', scoreA: '13', scoreB: '9' },
      });
      expect(actionAt(2)).toMatchObject({ definitionId: 'show_player_stats', options: { slot: '7', durationMs: '8000' } });
      expect((Object.values(page.instances)[0] as any).config).toMatchObject({
        variablesGame: false,
        variablesPlayers: false,
      });
      // The upgraded button still sends numbers the server takes (slot 7 is s1mple in the game).
      await postGameFrame();
      const received = await press({ pageNumber: 1, row: 0, column: 2 }, 'show_player_stats');
      expect(received.status).toBe(200);
      expect((await serverSnapshot(server.port)).statsPlayer.player.slot).toBe(7);
      console.log('upgrade: page of module 0.1.0 imported, upgrade index -1 -> 0, options now text, slot 7 pressed: 200');
      // The desk switches the variable groups on, as a new connection has the game group.
      await companion.setConfig(connectionId, LABEL, config(true));
      await companion.waitForStatus(connectionId, (status) => status.category === 'good', 'ok again');
    });

    it('presses every preset of the show page once, and the server does what the button says', async () => {
      // Another client prepares the show: the overlay's colour presets, a bo5 veto, a live game.
      // The colour presets come after Companion listed the connection's presets, so they arrive as
      // Companion's patch of the list (a wait that read only whole lists timed out in CI).
      const watch = await companion.watchPresets(connectionId);
      await server.post('/internal/overlay_report', {
        presets: [
          { id: 'midnight', name: 'Midnight' },
          { id: 'daylight', name: 'Daylight' },
        ],
      });
      await server.command('set_teams', { teamA: { name: 'Vitality', tag: 'VIT' }, teamB: { name: 'FaZe' } });
      await server.command('veto_start', {
        boFormat: 'bo5',
        teamA: { name: 'Vitality' },
        teamB: { name: 'FaZe' },
      });
      await postGameFrame();

      const presets = await watch.until((all) => 'colour_midnight' in all);
      Object.entries(presets).forEach(([id, preset], index) => {
        const location = {
          pageNumber: 2 + Math.floor(index / (ROWS * COLUMNS)),
          row: Math.floor((index % (ROWS * COLUMNS)) / COLUMNS),
          column: index % COLUMNS,
        };
        placed.set(id, { location, preset });
      });
      // Companion starts with one page: the preset pages go after it.
      const pages = Math.ceil(placed.size / (ROWS * COLUMNS));
      await companion.trpc.pages.insert.mutate({
        asPageNumber: 2,
        pageNames: Array.from({ length: pages }, (_, index) => `hud ${index + 1}`),
      });
      for (const [id, { location }] of placed) await companion.placePreset(connectionId, id, location);

      const pressedOnce = new Set<string>();
      const log: string[] = [];
      async function pressPreset(id: string, check: (before: any, after: any) => void) {
        const entry = placed.get(id);
        if (!entry) throw new Error(`no preset ${id}`);
        const action = commandOf(id);
        if (!action) throw new Error(`preset ${id} sends no command`);
        const before = await serverSnapshot(server.port);
        const received = await press(entry.location, action);
        // Some effects follow the answer (the stats player's event): read until the check holds.
        let last: unknown;
        await waitUntil(async () => {
          const now = await serverSnapshot(server.port);
          if (now.revision <= before.revision && received.status < 400) return undefined;
          try {
            check(before, now);
            return now;
          } catch (error) {
            last = error;
            return undefined;
          }
        }, `the effect of ${id}`, 10_000).catch(() => {
          throw last ?? new Error(`no change after ${id}`);
        });
        pressedOnce.add(id);
        const where = `${entry.location.pageNumber}/${entry.location.row}/${entry.location.column}`;
        const line = `pressed ${id.padEnd(24)} ${where.padEnd(6)} -> server received ${received.request} ${received.status}${received.error ? ` ${received.error}` : ''}`;
        log.push(line);
        console.log(line);
      }

      for (const panel of ['scoreboard', 'veto', 'stats', 'radar'])
        await pressPreset(`toggle_${panel}`, (b, a) => expect(a.state[`${panel}Visible`] === true).toBe(b.state[`${panel}Visible`] !== true));
      await pressPreset('toggle_overlay_window', (b, a) => expect(a.state.hudWindowOpen).toBe(!b.state.hudWindowOpen));
      for (const scene of ['versus', 'talents', 'sponsors', 'maprecap'])
        await pressPreset(`show_${scene}`, (_b, a) => expect(String(a.state.senScene).toLowerCase()).toBe(scene));
      await pressPreset('hide_scene', (_b, a) => expect(a.state.senScene).toBeNull());
      await pressPreset('save_replay', (_b, a) => expect(a.state.obs.connection).not.toBe('connected'));
      await pressPreset('swap_sides', (b, a) => expect(a.state.sides.teamA).toBe(b.state.sides.teamB));
      for (const color of ['midnight', 'daylight'])
        await pressPreset(`colour_${color}`, (_b, a) => expect(a.activePresetId).toBe(color));
      // The game has players in slots 7 and 4 only: the panel shows them; an empty slot is answered.
      for (const slot of [1, 2, 3, 5, 6, 8, 9, 0, 4, 7])
        await pressPreset(`stats_slot_${slot}`, (_b, a) => {
          if (slot !== 7 && slot !== 4) return;
          expect(a.state.statsVisible).toBe(true);
          expect(a.statsPlayer.player.slot).toBe(slot);
        });
      for (const mode of ['auto', 'suggest'])
        await pressPreset(`observer_${mode}`, (_b, a) => expect(a.production.smartObserver).toMatchObject({ enabled: true, mode }));
      await pressPreset('observer_off', (_b, a) => expect(a.production.smartObserver.enabled).toBe(false));
      // The veto: each remaining-map button takes the map it shows; the last one first.
      for (const position of [7, 6, 5, 4, 3, 2])
        await pressPreset(`remaining_map_${position}`, (b, a) => {
          expect(a.veto.remainingMaps?.length ?? 0).toBeLessThan(b.veto.remainingMaps.length);
        });
      await pressPreset('undo', (b, a) => expect(a.veto.remainingMaps.length).toBeGreaterThan(b.veto.remainingMaps?.length ?? 0));
      await pressPreset('remaining_map_1', (_b, a) => expect(a.veto.complete).toBe(true));
      await pressPreset('reveal_reset', (_b, a) => expect(a.reveal.revealed).toBe(0));
      await pressPreset('reveal_next', (_b, a) => expect(a.reveal.revealed).toBe(1));
      await pressPreset('reveal_all', (_b, a) => expect(a.reveal.revealed).toBe(a.reveal.total));
      await pressPreset('reveal_prev', (_b, a) => expect(a.reveal.revealed).toBe(a.reveal.total - 1));
      for (const map of [1, 2, 3, 4, 5])
        await pressPreset(`map_${map}_live_score`, (_b, a) => {
          const aIsT = a.state.sides.teamA === 'T';
          expect(a.match.maps.find((entry: any) => entry.number === map)).toMatchObject({
            scoreA: aIsT ? 3 : 7,
            scoreB: aIsT ? 7 : 3,
          });
        });
      await pressPreset('cancel', (_b, a) => expect(a.veto.active).toBe(false));

      console.log(`Companion ${companion.version}: ${log.length} presets pressed`);
      const withCommand = [...placed].filter(([id]) => commandOf(id) !== undefined);
      expect(withCommand.length).toBeGreaterThan(40);
      expect(withCommand.map(([id]) => id).filter((id) => !pressedOnce.has(id))).toEqual([]);
    }, 300_000);

    it('draws value feedbacks from the live game: the round clock red under 10 s, money red under $2000', async () => {
      const clock = placed.get('round_clock') as { location: Location };
      const money7 = placed.get('money_slot_7') as { location: Location };
      const money4 = placed.get('money_slot_4') as { location: Location };
      await waitUntil(async () => ((await faceColor(build, await companion.face(clock.location))) === RED ? true : undefined), 'the round clock to turn red');
      await waitUntil(async () => ((await faceColor(build, await companion.face(money7.location))) === RED ? true : undefined), "slot 7's money to turn red");
      expect(await faceColor(build, await companion.face(money4.location))).toBe(IDLE);
      expect(await companion.variable(LABEL, 'round_clock')).toBe('0:08');
      expect(await companion.variable(LABEL, 'slot_7_money')).toBe('1500');
    });

    it('follows changes another client makes: feedbacks on the faces, variables over HTTP', async () => {
      const scoreboard = placed.get('toggle_scoreboard') as { location: Location };
      const shown = (await serverSnapshot(server.port)).state.scoreboardVisible === true;
      await server.command(shown ? 'hide_scoreboard' : 'show_scoreboard');
      await caughtUp();
      const lit = shown ? IDLE : GREEN;
      await waitUntil(async () => ((await faceColor(build, await companion.face(scoreboard.location))) === lit ? true : undefined), `the scoreboard button ${lit}`);
      await server.command('set_event_name', { name: 'Budapest Major' });
      await companion.waitForVariable(LABEL, 'event_name', (value) => value === 'Budapest Major', 'Budapest Major');
      await server.command('set_teams', { teamA: { name: 'Team Spirit', tag: 'SPIRIT' }, teamB: { name: 'MOUZ' } });
      await companion.waitForVariable(LABEL, 'team_a_short', (value) => value === 'SPIRIT', 'SPIRIT');
      expect(await companion.variable(LABEL, 'team_b_name')).toBe('MOUZ');
    });

    it('says "main window closed" in the status and on the buttons that would answer 503', async () => {
      // The observer's Off button (set_smart_observer, which needs the main window): red while the
      // observer is off, grey with its "main window closed" face while the window is closed.
      const observerOff = placed.get('observer_off') as { location: Location };
      await server.post('/internal/host_report', { mainWindowOpen: false, signedIn: false });
      const closed = await companion.waitForStatus(connectionId, (status) => /main window closed/.test(status.message ?? ''), 'main window closed');
      expect(closed.category).not.toBe('good');
      await waitUntil(async () => ((await faceColor(build, await companion.face(observerOff.location))) === GREY ? true : undefined), 'the observer button grey');
      await server.post('/internal/host_report', { mainWindowOpen: true, signedIn: true });
      await companion.waitForStatus(connectionId, (status) => status.category === 'good', 'ok once the main window is back');
      await waitUntil(async () => ((await faceColor(build, await companion.face(observerOff.location))) !== GREY ? true : undefined), 'the observer button back');
      console.log(`status while closed: ${closed.level}: ${closed.message}`);
    });

    it('shows a server restart and a wrong token in the connection status', async () => {
      const connection = placed.get('connection') as { location: Location };
      await server.stop();
      // First the socket's close, then the failed reconnects: "unreachable: … (ECONNREFUSED)".
      const down = await companion.waitForStatus(connectionId, (status) => /unreachable/.test(status.message ?? ''), 'unreachable');
      expect(down.category).toBe('error');
      await waitUntil(async () => ((await faceColor(build, await companion.face(connection.location))) === RED ? true : undefined), 'the connection button red');
      await server.restart();
      await companion.waitForStatus(connectionId, (status) => status.category === 'good', 'ok after the restart');
      await waitUntil(async () => ((await faceColor(build, await companion.face(connection.location))) === GREEN ? true : undefined), 'the connection button green');
      await companion.setConfig(connectionId, LABEL, { ...config(true), token: WRONG_TOKEN });
      const refused = await companion.waitForStatus(connectionId, (status) => /bad token/.test(status.message ?? ''), 'bad token');
      expect(refused.level).toMatch(/auth/i);
      await companion.setConfig(connectionId, LABEL, config(true));
      await companion.waitForStatus(connectionId, (status) => status.category === 'good', 'ok with the token');
      console.log(`statuses seen: ${down.level}: ${down.message} | ${refused.level}: ${refused.message}`);
    });

    it('renders the preset page: a screenshot of the faces Companion draws', async () => {
      const faces: Array<{ category: string; name: string; image: string }> = [];
      const definitions = moduleDefinitions() as Record<string, any>;
      for (const [id, { location }] of placed) {
        const { category, name } = definitions[id];
        faces.push({ category, name, image: await companion.face(location) });
      }
      await screenshotFaces(faces, SCREENSHOT, `Companion ${companion.version}: hud-automation presets`);
      expect(existsSync(SCREENSHOT)).toBe(true);
    });
  },
);
