/**
 * Every command answers what its contract says (src/protocol/commands.ts): each public command and
 * each report is run once to success on a real service (live game data, OBS and FACEIT stand-ins, an
 * HLTV page served locally), and its result must pass the command's result schema, extra fields
 * included, and come out of the compiled serialiser unchanged. A handler that answers another shape
 * fails here, and so does a command without a run in this scenario.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/core/caller.ts';
import type { AnyCommandName } from '../../src/protocol/commands.ts';
import {
  COMMAND_CONTRACTS,
  COMMAND_NAMES,
  contractOf,
  REPORT_CONTRACTS,
  SETTINGS_CONTRACTS,
} from '../../src/protocol/commands.ts';
import { serializerOf } from '../../src/protocol/serializer-schema.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, PROGRAM } from '../helpers/build.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { CAPTURED, STAND_IN_KEY, startFaceitStandIn } from '../helpers/faceit-stand-in.ts';
import { TEAMS } from '../helpers/hud.ts';
import { LIVE_PLAYERS, postLiveGame } from '../helpers/live-game.ts';
import { withoutLogoFetch } from '../helpers/logos.ts';
import { type ObsStandIn, startObsStandIn } from '../helpers/obs-stand-in.ts';
import { connect } from '../helpers/ws-client.ts';
import { fixtureText, html, startSourceServer } from '../import/source-server.ts';

const SHELL: Caller = { transport: 'http', address: '127.0.0.1', role: 'shell' };
const HLTV_PAGE = {
  file: 'hltv_match_2388098_b8-vs-falcons_bo1__qa-hltv-parser__teamsbox-and-maps.html',
  path: '/matches/2388098/b8-vs-falcons-starladder-budapest-major-2025',
};
const { s1mple } = LIVE_PLAYERS;

/** One successful run of each command, in an order where each can succeed. */
const RUNS: ReadonlyArray<readonly [AnyCommandName, unknown?]> = [
  ['host_report', { mainWindowOpen: true, signedIn: true }],
  ['overlay_report', { opened: true, presets: [{ id: 'night', name: 'Night' }] }],
  ['subscription', { active: true }],
  ['settings', { branding: { talents: [] } }],
  ['toggle_scoreboard'],
  ['show_scoreboard'],
  ['hide_scoreboard'],
  ['toggle_veto'],
  ['show_veto'],
  ['hide_veto'],
  ['set_stats_player', { slot: s1mple.slot }],
  ['toggle_stats'],
  ['hide_stats'],
  ['show_stats'],
  ['show_player_stats', { slot: s1mple.slot }],
  ['show_player_stats', { slot: s1mple.slot, provider: 'platform_a', durationMs: 5_000 }],
  ['set_stats_player', { slot: null }],
  ['toggle_radar'],
  ['show_radar'],
  ['hide_radar'],
  ['toggle_overlay'],
  ['hide_overlay'],
  ['show_overlay'],
  ['reload_overlay'],
  ['set_color_preset', { presetId: 'night' }],
  ['get_match'],
  ['set_teams', TEAMS],
  ['set_event_name', { name: 'Major' }],
  ['set_team_format', { format: '5v5' }],
  ['undo'],
  ['redo'],
  ['veto_status'],
  ['veto_start', { boFormat: 'bo1', teamA: TEAMS.teamA, teamB: TEAMS.teamB }],
  ['veto_select', { map: 'mirage' }],
  ['veto_undo'],
  ['veto_cancel'],
  [
    'veto_set',
    {
      boFormat: 'bo1',
      teamA: TEAMS.teamA,
      teamB: TEAMS.teamB,
      steps: [
        { type: 'ban', team: 'A', map: 'mirage' },
        { type: 'ban', team: 'B', map: 'inferno' },
        { type: 'ban', team: 'A', map: 'nuke' },
        { type: 'ban', team: 'B', map: 'ancient' },
        { type: 'ban', team: 'A', map: 'train' },
        { type: 'ban', team: 'B', map: 'dust2' },
        { type: 'decider', map: 'overpass' },
      ],
    },
  ],
  ['veto_reveal', { mode: 'next' }],
  ['set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true }],
  ['reset_veto'],
  ['import_match_veto', { url: `https://www.hltv.org${HLTV_PAGE.path}` }],
  ['show_sen_scene', { scene: 'versus' }],
  ['hide_sen_scene'],
  ['set_event_badge', { enabled: true, position: 'top-left' }],
  ['set_sponsor_overlay', { position: 'top-right' }],
  ['clean_feed'],
  ['restore_feed'],
  ['set_smart_observer', { enabled: true, mode: 'auto', cinematicEnabled: true }],
  ['save_replay'],
  ['swap_sides'],
  ['set_observer_console', { host: '127.0.0.1', port: 2121 }],
  ['observer_pin', { strategy: 'lock' }],
  ['observer_probe_again'],
  ['observer_pin', { strategy: null }],
  ['save_team', { name: 'Natus Vincere', tag: 'NAVI', country: 'UA' }],
  ['save_player', { name: 's1mple', steamid: s1mple.steamid, team: 'NAVI', country: 'UA' }],
  ['export_teams', { format: 'csv' }],
  ['read_rosters', { url: `https://www.hltv.org${HLTV_PAGE.path}` }],
  ['save_rosters', { url: `https://www.hltv.org${HLTV_PAGE.path}`, confirm: [] }],
  [
    'import_teams',
    { format: 'json', data: '{"format":"hud-automation.teams","version":1,"teams":[],"players":[]}' },
  ],
  ['remove_player', { player: s1mple.steamid }],
  ['remove_team', { team: 'NAVI' }],
];

let obs: ObsStandIn;
beforeAll(async () => {
  obs = await startObsStandIn();
});
afterAll(async () => {
  await obs?.close();
});
// The FACEIT stand-in closes itself after each test; the HLTV page's server is closed here.
const sources: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const source of sources.splice(0)) await source.close();
});

async function showReady(): Promise<RunningServer> {
  const faceit = await startFaceitStandIn({ [s1mple.steamid]: CAPTURED });
  const hltv = await startSourceServer({ [HLTV_PAGE.path]: html(fixtureText(HLTV_PAGE.file)) });
  const server = await build({
    machine: withoutLogoFetch,
    faceitApiKey: STAND_IN_KEY,
    overrides: {
      obs: { url: obs.url, password: '', enabled: true },
      sources: {
        hltvUrl: hltv.url,
        faceitDataApiUrl: faceit.dataApiUrl,
        faceitKeyHost: new URL(faceit.dataApiUrl).host,
      },
    },
  });
  const client = await connect(server.wsUrl);
  // save_replay needs OBS connected with its replay buffer running.
  const ready = (state: { obs?: { connection: string; replayBufferActive: boolean } } | undefined) =>
    state?.obs?.connection === 'connected' && state.obs.replayBufferActive;
  await client.waitFor(
    (m) => (m.type === 'event' && ready(m.data)) || (m.type === 'hello' && ready(m.snapshot.state)),
  );
  client.close();
  await postLiveGame(server);
  sources.push(hltv);
  return server;
}

describe('every command answers its contract', () => {
  it('each result passes its schema and is serialised unchanged', async () => {
    const server = await showReady();
    const ran = new Set<string>();
    const run = async (action: AnyCommandName, payload?: unknown) => {
      const contract = contractOf(action);
      if (!contract) throw new Error(`${action} is not in the contract`);
      const catalogue =
        action in REPORT_CONTRACTS ? 'reports' : action in SETTINGS_CONTRACTS ? 'panel' : 'commands';
      const caller = catalogue === 'commands' ? PROGRAM : SHELL;
      const answer = await server.service[catalogue](action, payload, caller).catch((error: Error) => {
        throw new Error(`${action} ${JSON.stringify(payload)}: ${error.message}`);
      });
      const problems = [...Value.Errors(contract.result, answer.result)].map(
        (error) => `${error.path || '/'} ${error.message}`,
      );
      expect(problems, `${action} answered ${JSON.stringify(answer.result)}`).toEqual([]);
      // What the wire carries (HTTP and WebSocket serialise by the same schema): the whole result.
      const written = JSON.parse(serializerOf(contract.result)(answer.result));
      expect(written, action).toEqual(JSON.parse(JSON.stringify(answer.result)));
      ran.add(action);
    };
    for (const [action, payload] of RUNS) await run(action, payload);
    // A test cut goes to the game's console: a stand-in console, linked before the cut.
    const game = new ConsoleStandIn({ obeys: 'name' });
    sources.push(game);
    await run('set_observer_console', { host: '127.0.0.1', port: await game.listen() });
    await expect
      .poll(async () => (await get(server, '/api/observer')).body.observer.link.connection)
      .toBe('connected');
    await postLiveGame(server); // a new console address starts the director again: a frame to cut from
    await run('observer_test_cut');
    // A recording of a frame, replayed: a second frame a minute later keeps the replay running to stop it.
    await run('game_record_start');
    await postLiveGame(server);
    await run('game_record_stop');
    const { file } = (await get(server, '/api/recordings')).body.recorder.recordings[0];
    const path = join(server.service.dataDir, 'recordings', file);
    const [header, first] = (await readFile(path, 'utf8')).split('\n');
    await writeFile(path, `${header}\n${first}\n${first?.replace(/^\{"t":0,/, '{"t":60000,')}\n`);
    await run('game_replay_start', { file, speed: 1 });
    await run('game_replay_stop');
    const every = [...COMMAND_NAMES, ...Object.keys(REPORT_CONTRACTS), ...Object.keys(SETTINGS_CONTRACTS)];
    expect(every.filter((name) => !ran.has(name))).toEqual([]);
  });

  it('publishes each result schema in GET /api/actions and answers by it over HTTP and the WebSocket', async () => {
    const server = await build();
    const listed = (await (await fetch(`${server.httpUrl}/api/actions`)).json()) as {
      actions: Array<{ id: string; result: unknown }>;
    };
    for (const action of listed.actions) {
      expect(action.result, action.id).toEqual(
        JSON.parse(JSON.stringify(COMMAND_CONTRACTS[action.id as keyof typeof COMMAND_CONTRACTS].result)),
      );
    }
    const overHttp = await command(server, 'swap_sides');
    expect(overHttp.body.result).toEqual({ teamA: 'T', teamB: 'CT' });
    const socket = await connect(server.wsUrl);
    await socket.waitFor((m) => m.type === 'hello');
    socket.send({ type: 'trigger', id: 'x', action: 'swap_sides' });
    const overWs = await socket.waitFor((m) => m.type === 'result' && m.id === 'x');
    expect(overWs).toMatchObject({ ok: true, result: { teamA: 'CT', teamB: 'T' } });
    socket.close();
  });
});
