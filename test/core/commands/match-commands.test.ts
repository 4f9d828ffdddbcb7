import { describe, expect, it } from 'vitest';
import { build, command, get } from '../../helpers/build.ts';

const BO3 = {
  boFormat: 'bo3',
  teamA: { name: 'FURIA' },
  teamB: { name: 'Natus Vincere' },
  steps: [
    { type: 'ban', team: 'B', map: 'overpass' },
    { type: 'ban', team: 'A', map: 'ancient' },
    { type: 'pick', team: 'B', map: 'mirage' },
    { type: 'pick', team: 'A', map: 'inferno' },
    { type: 'ban', team: 'A', map: 'dust2' },
    { type: 'ban', team: 'B', map: 'nuke' },
    { type: 'decider', map: 'train' },
  ],
};

describe('match commands', () => {
  it('get_match and GET /api/match answer the same summary', async () => {
    const server = await build();
    const empty = {
      eventName: '',
      teamFormat: 'auto',
      boFormat: null,
      teamA: null,
      teamB: null,
      logos: { A: null, B: null },
      maps: [],
      seriesScore: { a: 0, b: 0 },
      veto: null,
    };
    expect((await command(server, 'get_match')).body).toEqual({
      ok: true,
      state: { revision: 0 },
      result: empty,
    });
    expect((await get(server, '/api/match')).body).toEqual({ ok: true, match: empty });
  });

  it('set_map_result by number or name; finished sets the winner and the series score', async () => {
    const server = await build();
    await command(server, 'veto_set', BO3);
    const first = await command(server, 'set_map_result', {
      map: 1,
      scoreA: '7',
      scoreB: 13,
      finished: 'true',
    });
    expect(first.body.result.maps[0]).toMatchObject({
      map: 'de_mirage',
      scoreA: 7,
      scoreB: 13,
      finished: true,
      winner: 'Natus Vincere',
    });
    const second = await command(server, 'set_map_result', { map: 'Inferno', scoreA: 10, scoreB: 4 });
    expect(second.body.result.maps[1]).toMatchObject({ finished: false, winner: null, scoreA: 10 });
    const ended = await command(server, 'set_map_result', {
      map: 'de_inferno',
      scoreA: 13,
      scoreB: 4,
      finished: true,
    });
    expect(ended.body.result.seriesScore).toEqual({ a: 1, b: 1 });
    // finished omitted keeps the current value, and the winner follows the new score.
    const corrected = await command(server, 'set_map_result', { map: 2, scoreA: 11, scoreB: 13 });
    expect(corrected.body.result.maps[1]).toMatchObject({ finished: true, winner: 'Natus Vincere' });
    expect(corrected.body.result.seriesScore).toEqual({ a: 0, b: 2 });
  });

  it('set_map_result: empty slot or map outside the series is 409; bad scores and draws are 400', async () => {
    const server = await build();
    expect((await command(server, 'set_map_result', { map: 1, scoreA: 1, scoreB: 0 })).status).toBe(409);
    await command(server, 'veto_set', BO3);
    expect((await command(server, 'set_map_result', { map: 4, scoreA: 1, scoreB: 0 })).body).toMatchObject({
      ok: false,
      error: 'conflict',
    });
    expect((await command(server, 'set_map_result', { map: 'vertigo', scoreA: 1, scoreB: 0 })).status).toBe(
      409,
    );
    for (const payload of [
      { map: 6, scoreA: 1, scoreB: 0 },
      { map: 0, scoreA: 1, scoreB: 0 },
      { map: 1, scoreA: 100, scoreB: 0 },
      { map: 1, scoreA: -1, scoreB: 0 },
      { map: 1, scoreA: 1 },
      { map: 1, scoreA: 13, scoreB: 13, finished: true },
      { map: 1, scoreA: 1, scoreB: 0, winner: 'A' },
    ]) {
      const refused = await command(server, 'set_map_result', payload);
      expect(refused.status, JSON.stringify(payload)).toBe(400);
    }
  });

  it('set_teams renames the teams everywhere: picks, winners, veto status', async () => {
    const server = await build();
    await command(server, 'veto_set', BO3);
    await command(server, 'set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true });
    const renamed = await command(server, 'set_teams', {
      teamA: { name: 'FURIA Esports', logo: 'https://example.org/furia.png' },
      teamB: { name: 'NAVI' },
      boFormat: 'bo3',
    });
    const { maps, teamA } = renamed.body.result;
    expect(teamA).toEqual({ name: 'FURIA Esports', logo: 'https://example.org/furia.png' });
    expect(maps.map((m: { pickedBy: string }) => m.pickedBy)).toEqual(['NAVI', 'FURIA Esports', 'decider']);
    expect(maps[0].winner).toBe('FURIA Esports');
    await command(server, 'veto_start', { boFormat: 'bo1', teamA: { name: 'X' }, teamB: { name: 'Y' } });
    await command(server, 'set_teams', { teamA: { name: 'X2' }, teamB: { name: 'Y2' } });
    expect((await get(server, '/api/veto')).body.veto).toMatchObject({
      teamA: { name: 'X2' },
      teamB: { name: 'Y2' },
    });
  });

  it('names each pick and win as team A or B too, so two teams of the same name stay apart', async () => {
    const server = await build();
    await command(server, 'veto_set', BO3);
    await command(server, 'set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true });
    await command(server, 'set_map_result', { map: 2, scoreA: 5, scoreB: 13, finished: true });
    const renamed = await command(server, 'set_teams', {
      teamA: { name: 'Academy' },
      teamB: { name: 'Academy' },
    });
    const { maps } = renamed.body.result;
    expect(maps.map((m: { pickedBy: string }) => m.pickedBy)).toEqual(['Academy', 'Academy', 'decider']);
    expect(maps.map((m: { pickedSide: string }) => m.pickedSide)).toEqual(['B', 'A', 'decider']);
    expect(maps.map((m: { winnerSide: string | null }) => m.winnerSide)).toEqual(['A', 'B', null]);
    expect((await get(server, '/api/match')).body.match.maps).toEqual(maps);
  });

  it('set_teams refuses names over 64 characters, blank names and non-URL logos', async () => {
    const server = await build();
    for (const teamA of [{ name: 'x'.repeat(65) }, { name: '   ' }, { name: 'A', logo: 'not a url' }, {}]) {
      const refused = await command(server, 'set_teams', { teamA, teamB: { name: 'B' } });
      expect(refused.status, JSON.stringify(teamA)).toBe(400);
      expect(refused.body.message).toContain('teamA');
    }
    expect(
      (await command(server, 'set_teams', { teamA: { name: 'x'.repeat(64) }, teamB: { name: 'B' } })).status,
    ).toBe(200);
  });

  it('set_event_name (at most 120 characters) and set_team_format', async () => {
    const server = await build();
    expect(
      (await command(server, 'set_event_name', { name: 'StarLadder Budapest Major 2025' })).body.result
        .eventName,
    ).toBe('StarLadder Budapest Major 2025');
    expect((await command(server, 'set_event_name', { name: 'e'.repeat(121) })).status).toBe(400);
    expect((await command(server, 'set_team_format', { format: '2v2' })).body.result.teamFormat).toBe('2v2');
    expect((await command(server, 'set_team_format', { format: '4v4' })).status).toBe(400);
    // Setting the same value again is not a change.
    const revision = (await get(server, '/api/state')).body.state.revision;
    await command(server, 'set_team_format', { format: '2v2' });
    expect((await get(server, '/api/state')).body.state.revision).toBe(revision);
  });

  it('match commands need the main window', async () => {
    const server = await build({ headless: false });
    for (const [action, payload] of [
      ['get_match', undefined],
      ['set_event_name', { name: 'x' }],
      ['set_team_format', { format: 'auto' }],
    ] as const) {
      expect((await command(server, action, payload)).status).toBe(503);
    }
  });
});
