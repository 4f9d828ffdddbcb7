/**
 * The veto's map pool (issue 19): veto_start's schema publishes the default pool, the operator keeps
 * a pool of their own in the settings (`veto.mapPool`), and veto_start without a mapPool uses it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIVE_DUTY_POOL } from '../../../machines/map-names.ts';
import { STATE_FILE } from '../../../src/persistence/data-dir.ts';
import type { RunningServer } from '../../../src/server.ts';
import { build, command, get, tempDir } from '../../helpers/build.ts';
import { panelApi } from '../../helpers/hud.ts';
import { connect } from '../../helpers/ws-client.ts';

const TEAMS = { teamA: { name: 'Vitality' }, teamB: { name: 'FaZe' } };

/** The settings of the shell (POST /internal/settings on the automation server). */
async function changeSettings(server: RunningServer, change: unknown) {
  const response = await fetch(`${server.httpUrl}/internal/settings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof change === 'string' ? change : JSON.stringify(change),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const savedPool = async (server: RunningServer) =>
  (await get(server, '/internal/settings')).body.settings.veto.mapPool as string[];

describe('the map pool', () => {
  it("veto_start's schema publishes the default pool: the CS2 Active Duty pool of December 2025, with Train and without Anubis", async () => {
    const server = await build();
    const { body } = await get(server, '/api/actions');
    const start = body.actions.find((action: { id: string }) => action.id === 'veto_start');
    const mapPool = start.payload.properties.mapPool;
    expect(mapPool.default).toEqual([
      'de_ancient',
      'de_dust2',
      'de_inferno',
      'de_mirage',
      'de_nuke',
      'de_overpass',
      'de_train',
    ]);
    expect(mapPool.default).toEqual([...ACTIVE_DUTY_POOL]);
    expect(mapPool.description).toContain('December 2025');
    // Until the operator changes it, the saved pool is that default.
    expect(await savedPool(server)).toEqual([...ACTIVE_DUTY_POOL]);
  });

  it('a pool saved in the settings (any spelling) is what veto_start uses without a mapPool, after a restart too', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    const saved = await changeSettings(first, {
      veto: { mapPool: ['Mirage', 'dust 2', 'de_anubis', 'workshop/123/de_train', 'NUKE', 'inferno'] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const pool = ['de_mirage', 'de_dust2', 'de_anubis', 'de_train', 'de_nuke', 'de_inferno'];
    expect(saved.body.settings.veto).toEqual({ mapPool: pool });
    const started = await command(first, 'veto_start', { boFormat: 'bo3', ...TEAMS });
    expect(started.status).toBe(200);
    expect(started.body.result.remainingMaps).toEqual(pool);
    // A mapPool sent with the command still wins.
    const own = await command(first, 'veto_start', {
      boFormat: 'bo1',
      ...TEAMS,
      mapPool: ['vertigo', 'cache'],
    });
    expect(own.body.result.remainingMaps).toEqual(['de_vertigo', 'de_cache']);
    await first.close();

    const second = await build({ dataDir });
    expect(await savedPool(second)).toEqual(pool);
    const again = await command(second, 'veto_start', { boFormat: 'bo1', ...TEAMS });
    expect(again.body.result.remainingMaps).toEqual(pool);
  });

  it('the operator app changes it through the panel API, and every operator page hears it in panel.status', async () => {
    const server = await build();
    const api = await panelApi(server);
    const page = await connect(`${server.applicationUrl.replace('http:', 'ws:')}/ws?role=operator`, {
      headers: { cookie: api.cookie, origin: server.applicationUrl },
    });
    await page.waitFor((message) => message.type === 'event' && message.event === 'panel.status');
    const answer = await api.settings({ veto: { mapPool: [...ACTIVE_DUTY_POOL, 'anubis'] } });
    expect(answer.status).toBe(200);
    const status = await page.waitFor(
      (message) =>
        message.type === 'event' &&
        message.event === 'panel.status' &&
        message.data.settings.veto.mapPool.includes('de_anubis'),
    );
    expect(status.data.settings.veto.mapPool).toEqual([...ACTIVE_DUTY_POOL, 'de_anubis']);
    page.close();
  });

  it('a saved pool that cannot be read (a hand edit) starts from the Active Duty pool; the other settings stay', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    await changeSettings(first, { game: { slotNumbering: 'csgo' }, veto: { mapPool: ['mirage', 'nuke'] } });
    await first.close();
    const doc = JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8'));
    expect(doc.settings.veto).toEqual({ mapPool: ['de_mirage', 'de_nuke'] });
    doc.settings.veto.mapPool = ['de_nuke', 'de_nuke'];
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(doc));
    const second = await build({ dataDir });
    expect(await savedPool(second)).toEqual([...ACTIVE_DUTY_POOL]);
    expect((await get(second, '/internal/settings')).body.settings.game).toEqual({ slotNumbering: 'csgo' });
  });

  const refusals: Array<[string, unknown, RegExp]> = [
    [
      'a name that is no map',
      { veto: { mapPool: ['mirage', 'nuke', 'not a map!'] } },
      /mapPool\[2\].*not a map name/,
    ],
    ['a map named twice (in two spellings)', { veto: { mapPool: ['mirage', 'nuke', 'de_Mirage'] } }, /twice/],
    ['one map only', { veto: { mapPool: ['mirage'] } }, /at least 2 items/],
    ['17 maps', { veto: { mapPool: Array.from({ length: 17 }, (_, i) => `map${i}`) } }, /at most 16 items/],
    ['an empty name', { veto: { mapPool: ['mirage', ''] } }, /must not be empty/],
    ['a number for a map', { veto: { mapPool: ['mirage', 7] } }, /mapPool/],
    ['a pool that is not a list', { veto: { mapPool: 'mirage, nuke' } }, /mapPool/],
    ['null', { veto: { mapPool: null } }, /mapPool/],
    ['an unknown field', { veto: { mapPools: ['mirage', 'nuke'] } }, /unknown field mapPools/],
    ['a veto that is not an object', { veto: 'pool' }, /veto/],
    ['text that is not JSON', '{"veto": {"mapPool": [', /JSON/],
  ];
  for (const [name, change, message] of refusals) {
    it(`refuses ${name} with the envelope and changes nothing`, async () => {
      const server = await build();
      const before = (await get(server, '/internal/settings')).body;
      const answer = await changeSettings(server, change);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        ok: false,
        error: 'invalid_payload',
        message: expect.stringMatching(message),
      });
      expect((await get(server, '/internal/settings')).body).toEqual(before);
    });
  }

  it('a saved pool too small for the format: veto_start without mapPool says so and changes nothing', async () => {
    const server = await build();
    expect((await changeSettings(server, { veto: { mapPool: ['mirage', 'nuke', 'inferno'] } })).status).toBe(
      200,
    );
    const refused = await command(server, 'veto_start', { boFormat: 'bo3', ...TEAMS });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      ok: false,
      error: 'invalid_payload',
      message: expect.stringMatching(/saved map pool.*bo3 veto needs a map pool of 5 to 16 maps, got 3/),
    });
    expect((await get(server, '/api/veto')).body.veto).toEqual({ active: false });
    // A bo1 fits: the three maps.
    const bo1 = await command(server, 'veto_start', { boFormat: 'bo1', ...TEAMS });
    expect(bo1.body.result.remainingMaps).toEqual(['de_mirage', 'de_nuke', 'de_inferno']);
  });
});
