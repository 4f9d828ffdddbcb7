/**
 * Every generated action, pressed on a (test double of a) Companion button, sends its command with
 * the payload its schema wants to the real server.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import catalogue from '../src/generated/catalogue.json' with { type: 'json' };
import { CompanionHost } from './helpers/companion-host.ts';
import { type HudServer, startHudServer } from './helpers/hud-server.ts';

const BO1_STEPS = [
  { type: 'ban', team: 'A', map: 'ancient' },
  { type: 'ban', team: 'B', map: 'anubis' },
  { type: 'ban', team: 'A', map: 'dust2' },
  { type: 'ban', team: 'B', map: 'inferno' },
  { type: 'ban', team: 'A', map: 'mirage' },
  { type: 'ban', team: 'B', map: 'overpass' },
  { type: 'decider', map: 'nuke' },
];

/** What an operator types into each button with a payload, and what must arrive at the server. */
const BUTTONS: Record<string, { options: Record<string, unknown>; payload: Record<string, unknown> }> = {
  show_player_stats: {
    options: { slot: 3, provider: 'live', durationMs__send: true, durationMs: 5000, name: '' },
    payload: { slot: 3, provider: 'live', durationMs: 5000 },
  },
  set_color_preset: { options: { presetId: 'midnight' }, payload: { presetId: 'midnight' } },
  import_match_veto: {
    options: { url: '', platformMatchId: '1-5e7c1f6d-1f0c-4f5e-9d6b-2b1d5a1c9e3f', apply: true, show: true },
    payload: { platformMatchId: '1-5e7c1f6d-1f0c-4f5e-9d6b-2b1d5a1c9e3f', apply: true, show: true },
  },
  veto_reveal: { options: { mode: 'next' }, payload: { mode: 'next' } },
  veto_start: {
    options: { boFormat: 'bo3', teamA__name: 'Vitality', teamB__name: 'FaZe', firstBanner: 'B', mapPool: '' },
    payload: { boFormat: 'bo3', teamA: { name: 'Vitality' }, teamB: { name: 'FaZe' }, firstBanner: 'B' },
  },
  veto_select: { options: { map: 'Nuke' }, payload: { map: 'Nuke' } },
  veto_set: {
    options: {
      boFormat: 'bo1',
      teamA__name: 'Vitality',
      teamB__name: 'FaZe',
      steps: JSON.stringify(BO1_STEPS),
    },
    payload: { boFormat: 'bo1', teamA: { name: 'Vitality' }, teamB: { name: 'FaZe' }, steps: BO1_STEPS },
  },
  set_teams: {
    options: { teamA__name: 'Team Spirit', teamB__name: 'MOUZ', boFormat: 'bo1' },
    payload: { teamA: { name: 'Team Spirit' }, teamB: { name: 'MOUZ' }, boFormat: 'bo1' },
  },
  set_map_result: {
    options: { map: '1', scoreA: 13, scoreB: 9, finished: 'true' },
    payload: { map: 1, scoreA: 13, scoreB: 9, finished: true },
  },
  set_event_name: { options: { name: 'Budapest Major' }, payload: { name: 'Budapest Major' } },
  set_team_format: { options: { format: '5v5' }, payload: { format: '5v5' } },
  show_sen_scene: { options: { scene: 'mapRecap' }, payload: { scene: 'mapRecap' } },
  set_sponsor_overlay: {
    options: { enabled: 'true', position: 'top-center' },
    payload: { enabled: true, position: 'top-center' },
  },
  set_event_badge: { options: { position: 'bottom-left' }, payload: { position: 'bottom-left' } },
  set_smart_observer: {
    options: { enabled: 'true', mode: 'auto', cinematicEnabled: 'false' },
    payload: { enabled: true, mode: 'auto', cinematicEnabled: false },
  },
  set_stats_player: { options: { slot: '__null__' }, payload: { slot: null } },
  set_observer_console: {
    options: { host: '127.0.0.1', port: 2121 },
    payload: { host: '127.0.0.1', port: 2121 },
  },
  observer_pin: { options: { strategy: 'lock' }, payload: { strategy: 'lock' } },
  game_replay_start: {
    options: { file: 'game-2026-11-28T19-45-03-120Z.jsonl', speed: 4 },
    payload: { file: 'game-2026-11-28T19-45-03-120Z.jsonl', speed: 4 },
  },
  save_team: { options: { name: 'Vitality', tag: 'VIT' }, payload: { name: 'Vitality', tag: 'VIT' } },
  remove_team: { options: { team: 'Vitality' }, payload: { team: 'Vitality' } },
  save_player: {
    options: { name: 'ZywOo', steamid: '76561198113666193', country: 'FR' },
    payload: { name: 'ZywOo', steamid: '76561198113666193', country: 'FR' },
  },
  remove_player: { options: { player: '76561198113666193' }, payload: { player: '76561198113666193' } },
  import_teams: {
    options: { format: 'csv', data: '# hud-automation.teams 1' },
    payload: { format: 'csv', data: '# hud-automation.teams 1' },
  },
  read_rosters: {
    options: { url: '', platformMatchId: '1-5e7c1f6d-1f0c-4f5e-9d6b-2b1d5a1c9e3f' },
    payload: { platformMatchId: '1-5e7c1f6d-1f0c-4f5e-9d6b-2b1d5a1c9e3f' },
  },
  save_rosters: {
    options: { url: '', platformMatchId: '1-5e7c1f6d-1f0c-4f5e-9d6b-2b1d5a1c9e3f', confirm: 'npl, NiKo' },
    payload: { platformMatchId: '1-5e7c1f6d-1f0c-4f5e-9d6b-2b1d5a1c9e3f', confirm: ['npl', 'NiKo'] },
  },
  export_teams: { options: { format: 'json' }, payload: { format: 'json' } },
};

/** Refusals that come from the state of the show, not from the payload (404: no such recording in this server's folder). */
const STATE_REFUSALS = /refused \((404 not_found|409 conflict|502 upstream_error|503 unavailable)\)/;

let server: HudServer;
let host: CompanionHost;

beforeAll(async () => {
  server = await startHudServer({ subscription: true });
  host = await CompanionHost.start({ config: { host: '127.0.0.1', port: server.port, token: '' } });
  await host.waitForStatus('ok');
});
afterAll(async () => {
  await host?.stop();
  await server?.close();
});

describe('every action', () => {
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });

  it.each(catalogue.actions.map((command) => [command.id, command] as const))(
    '%s sends its command with a payload its schema accepts',
    async (id, command) => {
      const button = BUTTONS[id];
      if (command.payload !== null) expect(button, `BUTTONS has no sample for ${id}`).toBeDefined();
      const before = host.logs.length;
      await host.runAction(id, button?.options ?? {});
      const lines = host.logs.slice(before).map((line) => line.message);
      const sent = lines.find((line) => line.startsWith(`send ${id} `));
      expect(sent, lines.join('\n')).toBeDefined();
      const payload = JSON.parse((sent as string).slice(`send ${id} `.length));
      expect(payload).toEqual(button?.payload ?? {});
      if (command.payload !== null) {
        const valid = ajv.validate(command.payload, payload);
        expect(valid, ajv.errorsText()).toBe(true);
      }
      const outcome = lines.find((line) => line.startsWith(`${id} `)) as string;
      expect(outcome, lines.join('\n')).toMatch(new RegExp(`^${id} (done|${STATE_REFUSALS.source})`));
    },
  );

  it('reached the server once per press, by name', async () => {
    const { body } = await server.get('/internal/requests');
    const pressed = (body.requests as Array<{ request: string; status: number }>)
      .filter((record) => record.request.startsWith('POST /api/actions/'))
      .map((record) => record.request.slice('POST /api/actions/'.length));
    expect(pressed.sort()).toEqual(catalogue.actions.map((command) => command.id).sort());
  });

  it('resolves variables in text options before sending', async () => {
    await server.command('veto_start', {
      boFormat: 'bo3',
      teamA: { name: 'Vitality' },
      teamB: { name: 'FaZe' },
    });
    await host.waitForVariable('veto_remaining_2', 'dust2');
    const before = host.logs.length;
    await host.runAction('veto_select', { map: `$(${host.label}:veto_remaining_2)` });
    expect(host.logs.slice(before).map((line) => line.message)).toContain('send veto_select {"map":"dust2"}');
    await host.waitForVariable('veto_remaining', 'ancient, inferno, mirage, nuke, overpass, train');
  });
});
