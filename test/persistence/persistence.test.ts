import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_FILE } from '../../src/persistence/data-dir.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { post, startCli } from '../helpers/cli-process.ts';
import { postLiveGame } from '../helpers/live-game.ts';
import { readSavedState } from '../helpers/saved-state.ts';

const teams = { teamA: { name: 'Vitality' }, teamB: { name: 'MOUZ' } };

describe('saved state', () => {
  // Regression: the timer of show_player_stats was not saved, so after a restart the panel stayed
  // shown for good.
  it('a timed stats panel hides after a restart: at once when its time is up, else when the rest has run', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    // show_player_stats shows a player of the game data (an empty slot is refused).
    await postLiveGame(first);
    await command(first, 'show_player_stats', { slot: 3, durationMs: 300 });
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const second = await build({ dataDir });
    expect((await get(second, '/api/state')).body.state.statsVisible).toBe(false);

    // Long enough that a stop and a start (each syncs the snapshot to disk) fit in it on a busy machine.
    await postLiveGame(second);
    const shownAt = Date.now(); // before the command: the server's timer cannot start earlier
    await command(second, 'show_player_stats', { slot: 4, durationMs: 4_000 });
    await second.close();
    const third = await build({ dataDir });
    expect((await get(third, '/api/state')).body.state.statsVisible).toBe(true);
    while ((await get(third, '/api/state')).body.state.statsVisible) {
      expect(Date.now() - shownAt, 'hidden when the 4 s are up').toBeLessThan(6_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(3_950); // less the timer's clock margin
  });

  it('a restart keeps the match, the veto session in progress, the reveal, presets, panels and settings', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    await command(first, 'set_event_name', { name: 'IEM Cologne 2026' });
    await command(first, 'veto_set', {
      boFormat: 'bo1',
      ...teams,
      steps: [
        { type: 'ban', team: 'A', map: 'nuke' },
        { type: 'ban', team: 'B', map: 'mirage' },
        { type: 'decider', map: 'inferno' },
      ],
    });
    await command(first, 'set_map_result', { map: 1, scoreA: 9, scoreB: 4 });
    await command(first, 'veto_start', { boFormat: 'bo3', ...teams });
    await command(first, 'veto_select', { map: 'ancient' });
    await command(first, 'veto_reveal', { instant: false, mode: 'reset' });
    await command(first, 'show_scoreboard');
    await command(first, 'show_sen_scene', { scene: 'talents' });
    await command(first, 'set_event_badge', { enabled: true, position: 'top-right' });
    await fetch(`${first.httpUrl}/internal/overlay_report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ presets: [{ id: 'p1', name: 'Major' }] }),
    });
    await command(first, 'set_color_preset', { presetId: 'p1' });
    const before = {
      state: (await get(first, '/api/state')).body,
      match: (await get(first, '/api/match')).body,
      veto: (await get(first, '/api/veto')).body,
      presets: (await get(first, '/api/presets')).body,
    };
    await first.close();

    const second = await build({ dataDir });
    expect((await get(second, '/api/state')).body).toEqual(before.state);
    expect((await get(second, '/api/match')).body).toEqual(before.match);
    expect((await get(second, '/api/veto')).body).toEqual(before.veto);
    expect((await get(second, '/api/presets')).body).toEqual(before.presets);
    // The session goes on where it stopped, and cancel still restores the veto from before it.
    expect((await command(second, 'veto_select', { map: 'train' })).body.result.steps).toHaveLength(2);
    await command(second, 'veto_cancel');
    expect((await get(second, '/api/match')).body.match.maps[0]).toMatchObject({
      map: 'de_inferno',
      scoreA: 9,
    });
    expect((await command(second, 'set_event_badge', { enabled: true })).body.result.position).toBe(
      'top-right',
    );
  });

  it('settings overridden for the run are used but not saved; a settings change is saved and ends its override', async () => {
    const dataDir = await tempDir();
    const savedSettings = async () => (await readSavedState(dataDir))?.settings;
    const server = await build({
      dataDir,
      overrides: { lanMode: true, obs: { url: 'ws://127.0.0.1:4466', password: 'run-only' } },
    });
    expect(server.service.settings.current()).toMatchObject({
      lanMode: true,
      obs: { url: 'ws://127.0.0.1:4466', password: 'run-only', enabled: false },
    });
    expect(await savedSettings()).toMatchObject({
      lanMode: false,
      obs: { url: 'ws://127.0.0.1:4455', password: '', enabled: true },
    });

    const changed = await fetch(`${server.httpUrl}/internal/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ obs: { url: 'ws://127.0.0.1:4477' } }),
    });
    expect(changed.status).toBe(200);
    expect(server.service.settings.current()).toMatchObject({
      lanMode: true,
      obs: { url: 'ws://127.0.0.1:4477', password: 'run-only', enabled: false },
    });
    expect(await savedSettings()).toMatchObject({
      lanMode: false,
      obs: { url: 'ws://127.0.0.1:4477', password: '', enabled: true },
    });
  });

  it('a change answered is kept through kill -9 right after the answer', async () => {
    const dataDir = await tempDir();
    const cli = await startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);
    await post(cli.httpUrl, 'set_teams', teams);
    const last = await post(cli.httpUrl, 'set_event_name', { name: 'answered, then killed' });
    expect(last.status).toBe(200);
    cli.child.kill('SIGKILL');
    expect((await cli.exited).signal).toBe('SIGKILL');

    const again = await startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);
    try {
      const match = (await (await fetch(`${again.httpUrl}/api/match`)).json()) as { match: unknown };
      expect(match.match).toMatchObject({
        eventName: 'answered, then killed',
        teamA: teams.teamA,
        teamB: teams.teamB,
      });
      const state = (await (await fetch(`${again.httpUrl}/api/state`)).json()) as {
        state: { revision: number };
      };
      // After a crash the revision goes on above every one that may have been sent (the lease).
      expect(state.state.revision).toBeGreaterThan(last.body.state.revision);
    } finally {
      again.child.kill('SIGKILL');
      await again.exited;
    }
  });

  it('SIGTERM saves and exits 0', async () => {
    const dataDir = await tempDir();
    const cli = await startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);
    await post(cli.httpUrl, 'set_team_format', { format: '2v2' });
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    const saved = JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8'));
    expect(saved).toMatchObject({ version: 1, match: { teamFormat: '2v2' } });
  });

  for (const [label, content] of [
    ['not JSON', '{"version": 1, "match": '],
    ['another format version', JSON.stringify({ version: 99, match: {} })],
    ['a document that does not match the format', JSON.stringify({ version: 1, match: { maps: 'none' } })],
  ] as const) {
    it(`a state file that is ${label} is moved aside with a log line and the service starts from defaults`, async () => {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, STATE_FILE), content);
      const logs: string[] = [];
      const server = await build({ dataDir, logSink: (line) => logs.push(line) });
      expect((await get(server, '/api/match')).body.match.maps).toEqual([]);
      const files = await readdir(dataDir);
      const aside = files.find((file) => file.startsWith(`${STATE_FILE}.`) && !file.endsWith('.tmp'));
      expect(aside).toBeDefined();
      expect(await readFile(join(dataDir, aside ?? ''), 'utf8')).toBe(content);
      expect(logs.some((line) => line.includes('moved aside') && line.includes(aside ?? '?'))).toBe(true);
      // And the new state is saved normally.
      await command(server, 'set_team_format', { format: '1v1' });
      await server.close();
      expect(JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8')).match.teamFormat).toBe('1v1');
    });
  }
});
