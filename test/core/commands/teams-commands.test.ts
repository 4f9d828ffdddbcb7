/**
 * The database of teams and players over the real HTTP server (issue 34): saved, read, removed,
 * refused in the envelope with nothing changed, kept across a restart, a damaged file costing only
 * itself, and export then import into an empty data directory giving the same database.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, command, get, ok, tempDir } from '../../helpers/build.ts';

const S1MPLE = '76561198034202275';
const ELECTRONIC = '76561198044045107';

async function navi(server: Awaited<ReturnType<typeof build>>) {
  const team = (await ok(server, 'save_team', { name: 'Natus Vincere', tag: 'NAVI', country: 'ua' })).result
    .team;
  const a = (
    await ok(server, 'save_player', {
      steamid: S1MPLE,
      name: 's1mple',
      realName: 'Александр Костылев',
      country: 'UA',
      team: 'NAVI',
    })
  ).result.player;
  const b = (await ok(server, 'save_player', { steamid: ELECTRONIC, name: 'electronic', team: team.id }))
    .result.player;
  const coach = (await ok(server, 'save_player', { name: 'B1ad3', role: 'coach', team: 'Natus Vincere' }))
    .result.player;
  return { team, a, b, coach };
}

describe('teams and players', () => {
  it('saves teams and players and reads them back with lineup and coach', async () => {
    const server = await build();
    const { team, a, b, coach } = await navi(server);
    expect(team).toMatchObject({
      name: 'Natus Vincere',
      tag: 'NAVI',
      country: 'UA',
      lineup: [],
      coach: null,
    });
    expect(a).toMatchObject({ name: 's1mple', country: 'UA', team: team.id, role: 'player' });
    const teams = (await get(server, '/api/teams')).body.teams;
    expect(teams).toEqual([{ ...team, lineup: [a.id, b.id], coach: coach.id }]);
    const players = (await get(server, '/api/players')).body.players;
    expect(players.map((p: { name: string }) => p.name)).toEqual(['s1mple', 'electronic', 'B1ad3']);
    // Renaming a player by id; the lineup is set in the given order.
    await ok(server, 'save_player', { id: a.id, name: 'S1MPLE' });
    const reordered = (await ok(server, 'save_team', { id: team.id, lineup: [b.id, a.id] })).result.team;
    expect(reordered.lineup).toEqual([b.id, a.id]);
    expect(reordered.coach).toBe(coach.id);
    // Empty text says none.
    const cleared = (await ok(server, 'save_player', { id: a.id, country: '', team: '' })).result.player;
    expect(cleared).toMatchObject({ country: null, team: null });
    await ok(server, 'save_player', { id: a.id, country: 'UA', team: team.id });
    await ok(server, 'remove_player', { player: ELECTRONIC });
    expect((await get(server, '/api/teams')).body.teams[0]).toMatchObject({
      lineup: [a.id],
      coach: coach.id,
    });
    expect((await ok(server, 'save_team', { id: team.id, coach: '', tag: '' })).result.team).toMatchObject({
      coach: null,
      tag: null,
    });
    await ok(server, 'remove_team', { team: 'natus vincere' });
    expect((await get(server, '/api/teams')).body.teams).toEqual([]);
    expect((await get(server, '/api/players')).body.players.map((p: { team: null }) => p.team)).toEqual([
      null,
      null,
    ]);
  });

  it('set_teams by the name or tag of a saved team takes its name, tag and logo', async () => {
    const server = await build();
    const logo = '/media/0123456789abcdef0123456789abcdef.png';
    await ok(server, 'save_team', { name: 'Natus Vincere', tag: 'NAVI', logo });
    const match = (
      await ok(server, 'set_teams', { teamA: { name: 'navi' }, teamB: { name: 'Unsaved Five' } })
    ).result;
    expect(match.teamA).toMatchObject({ name: 'Natus Vincere', tag: 'NAVI', logo });
    expect(match.teamB.name).toBe('Unsaved Five');
    expect(match.teamB.tag).toBeUndefined();
    // What the payload gives wins over the saved team's.
    const own = (
      await ok(server, 'set_teams', { teamA: { name: 'Natus Vincere', tag: 'NV' }, teamB: { name: 'X' } })
    ).result;
    expect(own.teamA).toMatchObject({ name: 'Natus Vincere', tag: 'NV', logo });
  });

  it('refuses bad input in the envelope and changes nothing', async () => {
    const server = await build();
    await navi(server);
    const before = [(await get(server, '/api/teams')).body, (await get(server, '/api/players')).body];
    const refusals: Array<[string, unknown, number, RegExp]> = [
      ['save_team', { name: 'natus vincere' }, 409, /a team named "Natus Vincere" is saved already/],
      ['save_team', { tag: 'XY' }, 400, /a new team needs a name/],
      ['save_team', { name: 'Vitality', tag: ' ' }, 400, /tag/],
      ['save_team', { name: 'Vitality', country: 'XX' }, 400, /"XX" is not an ISO 3166 country code/],
      [
        'save_team',
        { name: 'Vitality', logo: 'ftp://example.com/logo.png' },
        400,
        /only http\(s\) addresses/,
      ],
      ['save_team', { name: 'Vitality', lineup: ['p-nobody'] }, 404, /no player p-nobody/],
      ['save_team', { id: 't-nothing', name: 'Vitality' }, 404, /no team t-nothing/],
      ['save_team', {}, 400, /invalid|at least|fewer than|properties/i],
      ['save_player', { name: 'dup', steamid: S1MPLE }, 409, /is saved already as "s1mple"/],
      ['save_player', { name: 'x', steamid: '123' }, 400, /steamid/],
      ['save_player', { name: 'x', team: 'Nobody' }, 404, /no team "Nobody"/],
      ['save_player', { name: 'x', role: 'analyst' }, 400, /role/],
      ['save_player', { name: 'x', photo: '/media/../../etc/passwd' }, 400, /photo/],
      ['save_player', { name: '   ' }, 400, /name/],
      ['save_player', { name: 'x', extra: 1 }, 400, /extra/],
      ['remove_player', { player: 'p-nobody' }, 404, /no player "p-nobody"/],
      ['remove_team', { team: 'Nobody' }, 404, /no team "Nobody"/],
      ['import_teams', { format: 'json', data: '{' }, 400, /data is not JSON/],
      ['import_teams', { format: 'json', data: '{"format":"other","version":1}' }, 400, /format 1/],
      ['import_teams', { format: 'csv', data: 'kind,id\nteam,t-1' }, 400, /first line must be/],
      ['export_teams', { format: 'xml' }, 400, /format/],
    ];
    for (const [action, payload, status, message] of refusals) {
      const answer = await command(server, action, payload);
      expect(answer.status, `${action} ${JSON.stringify(payload)}`).toBe(status);
      expect(answer.body).toMatchObject({ ok: false });
      expect(answer.body.message, `${action} ${JSON.stringify(payload)}`).toMatch(message);
    }
    expect([(await get(server, '/api/teams')).body, (await get(server, '/api/players')).body]).toEqual(
      before,
    );
  });

  it('keeps the database across a restart, in its own owner-only file', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    await navi(first);
    const teams = (await get(first, '/api/teams')).body.teams;
    const players = (await get(first, '/api/players')).body.players;
    await first.close();
    const file = JSON.parse(await readFile(join(dataDir, 'teams.json'), 'utf8'));
    expect((await stat(join(dataDir, 'teams.json'))).mode & 0o777).toBe(0o600);
    expect(file).toMatchObject({ format: 'hud-automation.teams', version: 1 });
    const second = await build({ dataDir });
    expect((await get(second, '/api/teams')).body.teams).toEqual(teams);
    expect((await get(second, '/api/players')).body.players).toEqual(players);
  });

  it('a damaged file costs only itself: the saved state and the readable records stay', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    await navi(first);
    await ok(first, 'set_event_name', { name: 'Major' });
    await first.close();
    const path = join(dataDir, 'teams.json');
    const doc = JSON.parse(await readFile(path, 'utf8'));
    doc.players[1].steamid = 'not a steamid';
    await writeFile(path, JSON.stringify(doc));
    const lines: string[] = [];
    const second = await build({ dataDir, logSink: (line) => lines.push(line) });
    expect((await get(second, '/api/players')).body.players.map((p: { name: string }) => p.name)).toEqual([
      's1mple',
      'B1ad3',
    ]);
    expect((await get(second, '/api/match')).body.match.eventName).toBe('Major');
    expect(lines.join('\n')).toMatch(/players\[1\]/);
    expect((await readdir(dataDir)).some((name) => name.startsWith('teams.json.as-found-'))).toBe(true);
    await second.close();
    // Not JSON at all: moved aside, none, and the match as saved.
    await writeFile(path, '{ torn');
    const third = await build({ dataDir });
    expect((await get(third, '/api/teams')).body.teams).toEqual([]);
    expect((await get(third, '/api/match')).body.match.eventName).toBe('Major');
    expect((await readdir(dataDir)).some((name) => name.startsWith('teams.json.corrupt-'))).toBe(true);
  });

  it.each(['json', 'csv'] as const)(
    'export as %s then import into an empty data directory gives the same database',
    async (format) => {
      const source = await build();
      await navi(source);
      await ok(source, 'save_team', { name: 'Team, "Quoted"\nName', tag: 'TQ' });
      await ok(source, 'save_player', {
        name: '小明',
        realName: '王小明',
        country: 'CN',
        steamid: '76561198000000001',
      });
      const data = (await ok(source, 'export_teams', { format })).result.data as string;
      const target = await build();
      const counts = (await ok(target, 'import_teams', { format, data })).result;
      expect(counts).toEqual({
        teams: { added: 2, changed: 0, unchanged: 0 },
        players: { added: 4, changed: 0, unchanged: 0 },
      });
      for (const path of ['/api/teams', '/api/players']) {
        expect((await get(target, path)).body).toEqual((await get(source, path)).body);
      }
      // The same import again changes nothing.
      expect((await ok(target, 'import_teams', { format, data })).result).toEqual({
        teams: { added: 0, changed: 0, unchanged: 2 },
        players: { added: 0, changed: 0, unchanged: 4 },
      });
    },
  );
});
