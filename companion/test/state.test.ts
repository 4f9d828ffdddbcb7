/**
 * Feedbacks and variables follow what another client changes over HTTP, with the event of that
 * change: when a button lights up, the module's revision is the revision the command answered.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CompanionHost } from './helpers/companion-host.ts';
import { type HudServer, startHudServer } from './helpers/hud-server.ts';

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

/** Two players of a GOTV capture (test/fixtures of the server): CS2 observer slots 6 and 3, HUD slots 7 and 4. */
const S1MPLE = '76561198034202275';
const ROPZ = '76561197991272318';

/** What a plain WebSocket client of the server is told at hello: the truth to compare with. */
function hello(): Promise<{ snapshot: any }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/`);
    socket.once('message', (raw) => {
      resolve(JSON.parse(raw.toString()));
      socket.close();
    });
    socket.once('error', reject);
  });
}

/** Another client runs a command; resolves with the revision it answered. */
async function change(action: string, payload?: unknown): Promise<number> {
  const answer = await server.command(action, payload);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.state.revision;
}

/** Waits for the button to show `value` and checks it came with the event of `revision`. */
async function showsWith(revision: number, feedback: string, value: boolean): Promise<void> {
  await host.waitForFeedback(feedback, value);
  expect(host.variables.get('revision')).toBe(revision);
}

describe('feedbacks', () => {
  it('light a panel button when the panel is shown and clear it when hidden', async () => {
    const scoreboard = host.addFeedback('panel_visible', { panel: 'scoreboard' });
    const veto = host.addFeedback('panel_visible', { panel: 'veto' });
    await host.waitForFeedback(scoreboard, false);
    await showsWith(await change('show_scoreboard'), scoreboard, true);
    expect(host.feedbackValue(veto)).toBe(false);
    await showsWith(await change('toggle_veto'), veto, true);
    await showsWith(await change('hide_scoreboard'), scoreboard, false);
  });

  it('follow the stats panel as the overlay reports it', async () => {
    const stats = host.addFeedback('panel_visible', { panel: 'stats' });
    await host.waitForFeedback(stats, false);
    const answer = await server.post('/internal/overlay_report', { statsVisible: true });
    expect(answer.status).toBe(200);
    await host.waitForFeedback(stats, true);
  });

  it('show the overlay window open', async () => {
    const overlay = host.addFeedback('overlay_open', {});
    await host.waitForFeedback(overlay, false);
    await showsWith(await change('show_overlay'), overlay, true);
  });

  it('show which scene is on air, and whether any is', async () => {
    const versus = host.addFeedback('scene_shown', { scene: 'versus' });
    const talents = host.addFeedback('scene_shown', { scene: 'talents' });
    const any = host.addFeedback('scene_shown', { scene: 'any' });
    await host.waitForFeedback(any, false);
    await showsWith(await change('show_sen_scene', { scene: 'versus' }), versus, true);
    expect(host.feedbackValue(any)).toBe(true);
    expect(host.feedbackValue(talents)).toBe(false);
    expect(host.variables.get('scene')).toBe('versus');
    await showsWith(await change('hide_sen_scene'), any, false);
    expect(host.feedbackValue(versus)).toBe(false);
    expect(host.variables.get('scene')).toBe('');
  });

  it('show OBS disconnected and the replay buffer stopped when there is no OBS', async () => {
    const obs = host.addFeedback('obs_connected', {});
    const replay = host.addFeedback('replay_buffer_active', {});
    await host.waitForFeedback(obs, false);
    await host.waitForFeedback(replay, false);
  });

  it("follow the veto's next step, turn by turn, and the finished maps of the series", async () => {
    const aBan = host.addFeedback('veto_next_step', { team: 'A', step: 'ban' });
    const bBan = host.addFeedback('veto_next_step', { team: 'B', step: 'ban' });
    const aPick = host.addFeedback('veto_next_step', { team: 'A', step: 'pick' });
    const seventh = host.addFeedback('veto_map_available', { position: 7 });
    const first = host.addFeedback('map_finished', { map: 1 });
    await host.waitForFeedback(aBan, false);

    await showsWith(
      await change('veto_start', { boFormat: 'bo3', teamA: { name: 'Vitality' }, teamB: { name: 'FaZe' } }),
      aBan,
      true,
    );
    expect(host.feedbackValue(seventh)).toBe(true);
    expect(host.variables.get('veto_next')).toBe('Vitality to ban');
    expect(host.variables.get('veto_remaining_count')).toBe(7);

    await showsWith(await change('veto_select', { map: 'nuke' }), bBan, true);
    expect(host.feedbackValue(aBan)).toBe(false);
    expect(host.feedbackValue(seventh)).toBe(false);
    expect(host.variables.get('veto_next')).toBe('FaZe to ban');
    expect(host.variables.get('veto_remaining')).toBe('ancient, dust2, inferno, mirage, overpass, train');

    await showsWith(await change('veto_select', { map: 'overpass' }), aPick, true);
    expect(host.variables.get('veto_next')).toBe('Vitality to pick');
    expect(host.variables.get('veto_next_type')).toBe('pick');

    for (const map of ['mirage', 'inferno', 'ancient', 'train']) await change('veto_select', { map });
    await host.waitForVariable('veto_next', 'veto complete');
    await host.waitForFeedback(aPick, false);
    expect(host.variables.get('map_1_name')).toBe('Mirage');
    expect(host.variables.get('map_3_name')).toBe('Dust II');

    await showsWith(
      await change('set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true }),
      first,
      true,
    );
    expect(host.variables.get('map_1_score')).toBe('13-9');
    expect(host.variables.get('map_1_winner')).toBe('Vitality');
    expect(host.variables.get('series_score')).toBe('1-0');
    expect(host.variables.get('series_score_a')).toBe(1);
  });

  it("show the smart observer's mode, and its link and suggestion as the server reports them", async () => {
    const auto = host.addFeedback('observer_mode', { mode: 'auto' });
    const suggest = host.addFeedback('observer_mode', { mode: 'suggest' });
    await host.waitForFeedback(auto, false);
    // In auto mode the observer starts its link to the game, which is a change of its own: the
    // module may already be a revision further when the button lights.
    const autoAt = await change('set_smart_observer', { enabled: true, mode: 'auto' });
    await host.waitForFeedback(auto, true);
    expect(host.variables.get('revision')).toBeGreaterThanOrEqual(autoAt);
    expect(host.feedbackValue(suggest)).toBe(false);
    expect(host.variables.get('observer_mode')).toBe('auto');
    expect(host.variables.get('observer_enabled')).toBe('on');
    const suggestAt = await change('set_smart_observer', { mode: 'suggest' });
    await host.waitForFeedback(suggest, true);
    expect(host.variables.get('revision')).toBeGreaterThanOrEqual(suggestAt);

    // The observer's own status (link, suggestion) is new on the wire: without it the link
    // feedbacks are false and the variables empty; with it they say what it says. The link changes
    // by itself meanwhile (the observer retries the game's console port 1 to 10 s apart), so the
    // module is compared with a fresh answer of the server until the two agree.
    const links = ['connected', 'connecting', 'disconnected', 'off'].map((state) => ({
      state,
      id: host.addFeedback('observer_link', { state }),
    }));
    await expect
      .poll(
        async () => {
          const { snapshot } = await hello();
          const reported = snapshot.observer?.link?.connection;
          const suggestion = snapshot.observer?.suggestion?.name ?? '';
          const differ = links
            .filter(({ state, id }) => host.feedbackValue(id) !== (state === reported))
            .map(({ state }) => `feedback ${state} (the server reports ${reported})`);
          if (host.variables.get('observer_link') !== (reported ?? ''))
            differ.push(`observer_link ${host.variables.get('observer_link')} (the server: ${reported})`);
          if (host.variables.get('observer_suggestion') !== suggestion)
            differ.push(
              `observer_suggestion ${host.variables.get('observer_suggestion')} (the server: ${suggestion})`,
            );
          // How cuts reach the game and whether the camera follows (issue 32).
          const strategy = snapshot.observer?.camera?.strategy;
          const expected = strategy === undefined ? '' : (strategy ?? 'none');
          if (expected === '') differ.push('the server reports no camera strategy');
          if (host.variables.get('observer_strategy') !== expected)
            differ.push(
              `observer_strategy ${host.variables.get('observer_strategy')} (the server: ${expected})`,
            );
          if (host.variables.get('observer_camera') !== (snapshot.observer?.cameraFollows ?? ''))
            differ.push(
              `observer_camera ${host.variables.get('observer_camera')} (the server: ${snapshot.observer?.cameraFollows})`,
            );
          return differ;
        },
        { timeout: 10_000, message: "the observer's link and suggestion on the module against the server" },
      )
      .toEqual([]);
  });
});

describe('variables', () => {
  it('carry the team names, their tags (the names when none is set) and the event name', async () => {
    const revision = await change('set_teams', { teamA: { name: 'Team Spirit' }, teamB: { name: 'MOUZ' } });
    await host.waitForVariable('team_a_name', 'Team Spirit');
    expect(host.variables.get('revision')).toBe(revision);
    expect(host.variables.get('team_b_name')).toBe('MOUZ');
    expect(host.variables.get('team_a_short')).toBe('Team Spirit');
    // The operator's short tag, from the server's Team (optional `tag`).
    await change('set_teams', { teamA: { name: 'Team Spirit', tag: 'SPIRIT' }, teamB: { name: 'MOUZ' } });
    await host.waitForVariable('team_a_short', 'SPIRIT');
    await change('set_event_name', { name: 'Budapest Major' });
    await host.waitForVariable('event_name', 'Budapest Major');
  });

  it('follow the observed player in the game: the module asks for the live game data', async () => {
    // The game's frames, as CS2 posts them to the address of older cfg files (this machine only).
    const token = (await readFile(join(server.dataDir, 'gsi-token'), 'utf8')).trim();
    const frame = (observed: string) => ({
      provider: { name: 'Counter-Strike 2', appid: 730, version: 14093 },
      player: { steamid: observed },
      allplayers: {
        [S1MPLE]: { name: 's1mple', observer_slot: 6, team: 'T', state: { health: 100 } },
        [ROPZ]: { name: 'ropz', observer_slot: 3, team: 'CT', state: { health: 100 } },
      },
      auth: { token },
    });
    expect((await server.post('/gsi', frame(S1MPLE))).status).toBe(200);
    // The slot comes only from the live data (the roster has no observed player).
    await host.waitForVariable('observed_slot', 7);
    expect(host.variables.get('observed_name')).toBe('s1mple');
    expect((await server.post('/gsi', frame(ROPZ))).status).toBe(200);
    await host.waitForVariable('observed_slot', 4);
    expect(host.variables.get('observed_name')).toBe('ropz');
  });

  it('say the connection is ok and never needed a snapshot to catch up', () => {
    expect(host.variables.get('connection_status')).toBe('ok');
    expect(host.logs.filter((line) => /asking for a snapshot/.test(line.message))).toEqual([]);
  });
});
