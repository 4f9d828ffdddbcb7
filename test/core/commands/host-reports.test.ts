import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server.ts';
import { build, command, get } from '../../helpers/build.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const fixture = async (name: string) => JSON.parse(await readFile(`${FIXTURES}${name}`, 'utf8'));

async function post(server: RunningServer, path: string, body: unknown) {
  // Game frames carry the auth token of the cfg file, as the game sends them.
  const signed = path === '/gsi' ? { ...(body as object), auth: { token: server.service.game.token } } : body;
  const response = await fetch(`${server.httpUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(signed),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('reports of the shell, the overlay and the game', () => {
  it('a real CS2 Game State Integration post sets the roster by HUD slot, 1 to 9 then 0', async () => {
    const server = await build();
    const payload = await fixture('gsi_csgo_gotv_pro_faze-vs-navi_dust2__sces-csgo-hud-fe__output.json');
    expect((await post(server, '/gsi', payload)).status).toBe(200);
    const { state } = (await get(server, '/api/state')).body;
    expect(state.roster).toEqual([
      { slot: 1, name: 'Twistzz' },
      { slot: 2, name: 'broky' },
      { slot: 3, name: 'rain' },
      { slot: 4, name: 'ropz' },
      { slot: 5, name: 'karrigan' },
      { slot: 6, name: 'b1t' },
      { slot: 7, name: 's1mple' },
      { slot: 8, name: 'Perfecto' },
      { slot: 9, name: 'Boombl4' },
      { slot: 0, name: 'electronic' },
    ]);
    // The game posts many times a second: the same players again are no change.
    await post(server, '/gsi', payload);
    expect((await get(server, '/api/state')).body.state.revision).toBe(state.revision);
  });

  it('every GSI frame of a recorded round is accepted; frames without players change nothing', async () => {
    const server = await build();
    const frames: unknown[] = await fixture(
      'gsi_csgo_spectator_round_sequence__nodecg-csgo-manager__standard-frames.json',
    );
    for (const frame of frames) expect((await post(server, '/gsi', frame)).status).toBe(200);
    const { roster } = (await get(server, '/api/state')).body.state;
    expect(roster).toHaveLength(10);
    expect(roster.map((p: { slot: number }) => p.slot)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
    expect((await post(server, '/gsi', { provider: { name: 'Counter-Strike' } })).status).toBe(200);
    expect((await get(server, '/api/state')).body.state.roster).toEqual(roster);
  });

  it('the overlay reports its panels and presets; the shell its main window', async () => {
    const server = await build({ headless: false });
    const report = await post(server, '/internal/overlay_report', {
      scoreboardVisible: true,
      hudWindowOpen: true,
      vetoVisible: false,
    });
    expect(report.body.state).toEqual({
      revision: 1,
      scoreboardVisible: true,
      vetoVisible: false,
      hudWindowOpen: true,
    });
    expect((await post(server, '/internal/overlay_report', {})).status).toBe(400);
    expect((await post(server, '/internal/overlay_report', { scoreboardVisible: 'yes' })).status).toBe(400);

    expect((await get(server, '/api/state')).body.state.mainWindowOpen).toBe(false);
    const opened = await post(server, '/internal/host_report', { mainWindowOpen: true, signedIn: true });
    expect(opened.body).toMatchObject({
      ok: true,
      state: { mainWindowOpen: true },
      result: { signedIn: true },
    });
    expect((await command(server, 'get_match')).status).toBe(200);
    await post(server, '/internal/host_report', { mainWindowOpen: false });
    expect((await command(server, 'get_match')).status).toBe(503);
  });

  it('reports are not commands: GET /api/actions does not list them, /api/actions/<report> is unknown', async () => {
    const server = await build();
    const ids = (await get(server, '/api/actions')).body.actions.map((a: { id: string }) => a.id);
    expect(ids).not.toContain('host_report');
    expect((await command(server, 'overlay_report', { scoreboardVisible: true })).status).toBe(404);
  });

  it('settings: the answer never shows the OBS password', async () => {
    const server = await build();
    const changed = await post(server, '/internal/settings', {
      obs: { password: 'hunter2', enabled: false },
    });
    expect(changed.body.settings.obs).toEqual({
      url: 'ws://127.0.0.1:4455',
      enabled: false,
      passwordSet: true,
    });
    expect(JSON.stringify((await get(server, '/internal/settings')).body)).not.toContain('hunter2');
    expect((await post(server, '/internal/settings', { obs: { port: 1 } })).status).toBe(400);
  });
});
