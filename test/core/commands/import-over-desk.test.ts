/**
 * Issue 33, "Imports that respect the desk", over HTTP with the HLTV stand-in: an import of the
 * teams already on the match keeps the operator's A/B order, names, tags and logos; importing the
 * same series again keeps finished results; an import that replaces results says so in its result,
 * and with apply false says what it would change without changing anything.
 */
import { describe, expect, it } from 'vitest';
import { get, ok } from '../../helpers/build.ts';
import { FURIA_NAVI, hltvUrl, serviceWithHltv, VITALITY_FAZE } from '../../helpers/hltv-stand-in.ts';

// The desk typed NaVi as team A (left, as on the stage) and FURIA by another name with its tag; the
// HLTV page lists FURIA first.
const DESK = {
  teamA: { name: 'Natus Vincere', tag: 'NAVI', logo: 'https://example.com/navi.png' },
  teamB: { name: 'Furia Esports', tag: 'FURIA' },
};

describe('an import over the desk (docs/import.md, "An import over the match")', () => {
  it('keeps the desk’s order, names, tags and logos, turns the veto round, and keeps finished results on a re-import', async () => {
    const server = await serviceWithHltv([FURIA_NAVI]);
    await ok(server, 'set_teams', DESK);

    const first = await ok(server, 'import_match_veto', { url: hltvUrl(FURIA_NAVI) });
    expect(first.result.changes).toMatchObject({
      teamA: DESK.teamA,
      teamB: DESK.teamB,
      teamsKept: true,
      swapped: true,
      lostResults: [],
    });
    let { match } = (await get(server, '/api/match')).body;
    expect(match.teamA).toEqual(DESK.teamA);
    expect(match.teamB).toEqual(DESK.teamB);
    // On the page Natus Vincere (second) banned Overpass and picked Mirage: on the desk that is team A.
    expect(match.veto.steps.slice(0, 3)).toEqual([
      { type: 'ban', team: 'A', map: 'de_overpass' },
      { type: 'ban', team: 'B', map: 'de_ancient' },
      { type: 'pick', team: 'A', map: 'de_mirage' },
    ]);
    expect(match.maps[0]).toMatchObject({ map: 'de_mirage', pickedBy: 'Natus Vincere', pickedSide: 'A' });

    await ok(server, 'set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true });
    await ok(server, 'set_map_result', { map: 2, scoreA: 11, scoreB: 13, finished: true });
    const played = (await get(server, '/api/match')).body.match;

    // The same address again (a second press, or the series re-read mid-match): nothing is lost.
    const again = await ok(server, 'import_match_veto', { url: hltvUrl(FURIA_NAVI) });
    expect(again.result.changes.lostResults).toEqual([]);
    expect(again.result.changes.maps.map((entry: { keepsResult: boolean }) => entry.keepsResult)).toEqual([
      true,
      true,
      false,
    ]);
    ({ match } = (await get(server, '/api/match')).body);
    expect(match).toEqual(played);
    expect(match.seriesScore).toEqual({ a: 1, b: 1 });
  });

  it('another series: apply false previews the results it would replace and changes nothing; applied, the result names them', async () => {
    const server = await serviceWithHltv([FURIA_NAVI, VITALITY_FAZE]);
    await ok(server, 'set_teams', DESK);
    await ok(server, 'import_match_veto', { url: hltvUrl(FURIA_NAVI) });
    await ok(server, 'set_map_result', { map: 1, scoreA: 13, scoreB: 9, finished: true });
    await ok(server, 'set_map_result', { map: 2, scoreA: 11, scoreB: 13, finished: true });
    const before = await get(server, '/api/match');
    const revision = (await get(server, '/api/state')).body.state.revision;

    // A wrong address pasted: the preview says what would go.
    const preview = await ok(server, 'import_match_veto', { url: hltvUrl(VITALITY_FAZE), apply: false });
    const lost = [
      { number: 1, map: 'de_mirage', label: 'Mirage', scoreA: 13, scoreB: 9, finished: true },
      { number: 2, map: 'de_inferno', label: 'Inferno', scoreA: 11, scoreB: 13, finished: true },
    ];
    expect(preview.result).toMatchObject({ applied: false });
    expect(preview.result.changes).toMatchObject({
      teamA: { name: 'Vitality' },
      teamB: { name: 'FaZe' },
      teamsKept: false,
      swapped: false,
      lostResults: lost,
    });
    expect(preview.result.changes.maps).toHaveLength(5);
    expect((await get(server, '/api/match')).body).toEqual(before.body);
    expect((await get(server, '/api/state')).body.state.revision).toBe(revision);

    // Applied anyway (the spec's apply): the answer says which results it replaced.
    const applied = await ok(server, 'import_match_veto', { url: hltvUrl(VITALITY_FAZE) });
    expect(applied.result.changes.lostResults).toEqual(lost);
    const { match } = (await get(server, '/api/match')).body;
    expect(match.teamA).toMatchObject({ name: 'Vitality' });
    expect(match.seriesScore).toEqual({ a: 0, b: 0 });
  });
});
