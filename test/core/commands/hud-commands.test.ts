import { describe, expect, it } from 'vitest';
import { build, command, get } from '../../helpers/build.ts';
import { postLiveGame } from '../../helpers/live-game.ts';

const PANELS = [
  { name: 'scoreboard', flag: 'scoreboardVisible' },
  { name: 'veto', flag: 'vetoVisible' },
  { name: 'stats', flag: 'statsVisible' },
  { name: 'overlay', flag: 'hudWindowOpen' },
] as const;

describe('HUD commands', () => {
  it('leaves panel flags out of the HUD state until they are known', async () => {
    const server = await build();
    const { body } = await get(server, '/api/state');
    expect(body.ok).toBe(true);
    expect(body.state).toEqual({
      revision: 0,
      roster: [],
      hudWindowOpen: false,
      mainWindowOpen: true,
      senScene: null,
      // build() switches OBS off: the state says so.
      obs: { connection: 'disconnected', replayBufferActive: false, reason: 'switched_off' },
      // No game data yet: team A on CT as set, nothing arriving.
      sides: { teamA: 'CT', teamB: 'T' },
      gameReceiving: false,
      history: { undo: [], redo: [] },
      storage: { ok: true, reason: null },
    });
  });

  for (const { name, flag } of PANELS) {
    it(`toggle_${name}, show_${name} and hide_${name} set ${flag}; show and hide of the same state change nothing`, async () => {
      const server = await build();
      const toggled = await command(server, `toggle_${name}`);
      expect(toggled).toEqual({
        status: 200,
        body: { ok: true, state: { revision: 1, [flag]: true }, result: {} },
      });

      const again = await command(server, `show_${name}`);
      expect(again.body.state).toEqual({ revision: 1, [flag]: true });

      const hidden = await command(server, `hide_${name}`);
      expect(hidden.body.state).toEqual({ revision: 2, [flag]: false });
      expect((await command(server, `hide_${name}`)).body.state.revision).toBe(2);

      expect((await command(server, `toggle_${name}`)).body.state).toEqual({ revision: 3, [flag]: true });
      expect((await get(server, '/api/state')).body.state[flag]).toBe(true);
    });
  }

  it('show_player_stats shows the stats of a slot and accepts numbers as strings', async () => {
    const server = await build();
    await postLiveGame(server);
    const { revision } = (await get(server, '/api/state')).body.state;
    const shown = await command(server, 'show_player_stats', {
      slot: '0',
      provider: 'live',
      name: 'tenth player',
    });
    // The live provider answers the game's values of the player in the slot.
    expect(shown.body).toMatchObject({
      ok: true,
      state: { revision: revision + 1, statsVisible: true },
      result: { stats: { slot: 0, name: 'electronic' } },
    });
    for (const slot of [-1, 10, 1.5, 'one', null]) {
      const refused = await command(server, 'show_player_stats', { slot });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ ok: false, error: 'invalid_payload' });
      expect(refused.body.message).toContain('slot');
    }
    expect(
      (await command(server, 'show_player_stats', { slot: 2, provider: 'elsewhere' })).body.message,
    ).toContain('provider');
    expect((await get(server, '/api/state')).body.state.revision).toBe(revision + 1);
  });

  it('show_player_stats with durationMs hides the panel by itself', async () => {
    const server = await build();
    await postLiveGame(server);
    const changed = new Promise<void>((resolve) => {
      server.service.hub.emitter.on('event', (event) => {
        if (event.event === 'hud.state' && (event.data as { statsVisible?: boolean }).statsVisible === false)
          resolve();
      });
    });
    const shown = (await command(server, 'show_player_stats', { slot: 3, durationMs: 50 })).body.state;
    expect(shown.statsVisible).toBe(true);
    await changed;
    // One revision more: the panel closing by itself.
    expect((await get(server, '/api/state')).body.state).toMatchObject({
      statsVisible: false,
      revision: shown.revision + 1,
    });
  });

  it('reload_overlay needs the overlay window open and notifies the overlay', async () => {
    const server = await build();
    const closed = await command(server, 'reload_overlay');
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({ ok: false, error: 'conflict' });
    await command(server, 'show_overlay');
    const seen: string[] = [];
    server.service.hub.emitter.on('event', ({ event }) => seen.push(event));
    const reloaded = await command(server, 'reload_overlay');
    expect(reloaded.body).toEqual({ ok: true, state: { revision: 1, hudWindowOpen: true }, result: {} });
    expect(seen).toEqual(['overlay.reload']);
  });

  it('set_color_preset applies a preset the overlay reported; GET /api/presets lists them', async () => {
    const server = await build();
    expect((await get(server, '/api/presets')).body).toEqual({ ok: true, presets: [] });
    expect((await command(server, 'set_color_preset', { presetId: 'navy' })).status).toBe(409);

    const presets = [
      { id: 'navy', name: 'Navy' },
      { id: 'ember', name: 'Ember' },
    ];
    const reported = await fetch(`${server.httpUrl}/internal/overlay_report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ presets }),
    });
    expect(reported.status).toBe(200);
    expect((await get(server, '/api/presets')).body).toEqual({ ok: true, presets });

    const applied = await command(server, 'set_color_preset', { presetId: 'ember' });
    expect(applied.body.result).toEqual({ preset: { id: 'ember', name: 'Ember' } });
    const unknown = await command(server, 'set_color_preset', { presetId: 'pink' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('navy, ember');
  });
});
