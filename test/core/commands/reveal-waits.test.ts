/**
 * Issue 33, "Reveals that wait", over HTTP: a veto that arrives whole (veto_set; an import is in
 * import-match-veto.test.ts) waits face down in step-by-step mode, whatever the mode was; a live veto
 * (veto_start + veto_select) shows each step as it is made.
 */
import { describe, expect, it } from 'vitest';
import { build, get, ok } from '../../helpers/build.ts';
import { BO3_ACTIVE_DUTY } from '../../helpers/vetoes.ts';

const TEAMS = { teamA: { name: 'Natus Vincere' }, teamB: { name: 'FaZe Clan' } };

describe('the reveal of a veto over HTTP (docs/api.md, "The reveal of a new veto")', () => {
  it('veto_set on a new server (instant) waits: step by step, nothing revealed, no series map on air', async () => {
    const server = await build();
    expect((await ok(server, 'veto_status')).result).toEqual({ active: false });
    await ok(server, 'veto_set', { boFormat: 'bo3', ...TEAMS, steps: BO3_ACTIVE_DUTY });
    const { match } = (await get(server, '/api/match')).body;
    expect(match.veto.revealed).toBe(0);
    expect(match.maps.map((entry: { revealed: boolean }) => entry.revealed)).toEqual([false, false, false]);
    expect((await ok(server, 'veto_reveal', { mode: 'next' })).result).toEqual({
      revealed: 1,
      total: BO3_ACTIVE_DUTY.length,
      instant: false,
    });
  });

  it('a live veto after a veto that waits shows each step as it is played; cancel brings the hidden veto back', async () => {
    const server = await build();
    await ok(server, 'veto_set', { boFormat: 'bo3', ...TEAMS, steps: BO3_ACTIVE_DUTY });
    await ok(server, 'veto_start', { boFormat: 'bo1', ...TEAMS, mapPool: ['mirage', 'inferno', 'nuke'] });
    await ok(server, 'veto_select', { map: 'nuke' });
    let { match } = (await get(server, '/api/match')).body;
    expect(match.veto).toEqual({ steps: [{ type: 'ban', team: 'A', map: 'de_nuke' }], revealed: 1 });
    // The second ban leaves the decider: every step shows at once, and so does the series map.
    await ok(server, 'veto_select', { map: 'mirage' });
    ({ match } = (await get(server, '/api/match')).body);
    expect(match.veto.revealed).toBe(3);
    expect(match.maps).toMatchObject([{ map: 'de_inferno', revealed: true }]);
    // Cancel: the veto set before comes back still face down.
    await ok(server, 'veto_cancel');
    ({ match } = (await get(server, '/api/match')).body);
    expect(match.veto.revealed).toBe(0);
    expect((await ok(server, 'veto_reveal', { mode: 'next' })).result).toMatchObject({
      revealed: 1,
      instant: false,
    });
  });
});
