/**
 * Rosters from the FACEIT and HLTV stand-ins (issue 34) over the real HTTP server: read_rosters
 * offers them (changing nothing), save_rosters saves them (players by SteamID64, or by name once
 * confirmed), and a second save of the same rosters changes nothing. The FACEIT stand-in serves the
 * Data API fixture (its factions' rosters); the HLTV one the B8 vs Falcons page with its lineups box
 * (test/fixtures/SOURCES.md). Photos and logos are on the internet hosts the sources name, which the
 * test's machine cannot reach: each save says so and keeps the players without them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, ok } from '../helpers/build.ts';
import { dataApiPath } from './faceit-builders.ts';
import { fixtureJson, fixtureText, html, json, startSourceServer } from './source-server.ts';

const FACEIT_MATCH = 'faceit_data-v4-match_FINISHED_bo3_eu__eggosystem__validMatchDetailsMatchDemoReady.json';
const FACEIT_ID = '1-ffb4225f-ff51-42ed-acb5-af6714175934';
const HLTV_FILE = 'hltv_match_2388098_b8-vs-falcons_bo1__qa-hltv-parser__teamsbox-and-lineups.html';
const HLTV_PATH = '/matches/2388098/b8-vs-falcons-starladder-budapest-major-2025';
const HLTV_URL = `https://www.hltv.org${HLTV_PATH}`;

const sources: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const source of sources.splice(0)) await source.close();
});

async function withSources(): Promise<RunningServer> {
  const source = await startSourceServer({
    [dataApiPath(FACEIT_ID)]: json(fixtureJson(FACEIT_MATCH)),
    [HLTV_PATH]: html(fixtureText(HLTV_FILE)),
  });
  sources.push(source);
  return build({
    faceitApiKey: 'test-key',
    logoTimeoutMs: 2_000,
    overrides: {
      sources: {
        faceitDataApiUrl: `${source.url}/data/v4`,
        faceitKeyHost: new URL(source.url).host,
        hltvUrl: source.url,
      },
    },
  });
}

const database = async (server: RunningServer) => ({
  teams: (await get(server, '/api/teams')).body.teams,
  players: (await get(server, '/api/players')).body.players,
});

describe('rosters from a match page', () => {
  it('a FACEIT room: nicknames and SteamID64s saved; the same rosters again change nothing', async () => {
    const server = await withSources();
    // Saved before under an on-air name of the operator's: matched by SteamID64, the name kept.
    await ok(server, 'save_player', { steamid: '76561198312729649', name: 'Токсик', country: 'PL' });
    const offer = (await ok(server, 'read_rosters', { platformMatchId: FACEIT_ID })).result;
    expect(offer.provider).toBe('faceit');
    expect(offer.teams.map((team: { name: string }) => team.name)).toEqual(['SKYFURY', 'Nuclear TigeRES']);
    expect(offer.teams[0].players[0]).toMatchObject({
      name: '7oX1C',
      steamid: '76561198312729649',
      saved: { name: 'Токсик', by: 'steamid' },
    });
    expect(offer.teams[0].players[0].photo).toMatch(/^https:\/\/distribution\.faceit-cdn\.net\//);
    expect(offer.teams[1].players).toHaveLength(6);
    // Reading changes nothing.
    expect((await database(server)).teams).toEqual([]);

    const saved = (await ok(server, 'save_rosters', { platformMatchId: FACEIT_ID })).result;
    expect(saved.teams).toEqual({ added: 2, changed: 0, unchanged: 0 });
    expect(saved.players).toEqual({ added: 10, changed: 1, unchanged: 0 });
    expect(saved.unconfirmed).toEqual([]);
    // The avatars' host is out of reach here: said, and the players saved without a photo.
    expect(saved.imagesFailed.length).toBeGreaterThan(0);
    const after = await database(server);
    expect(
      after.teams.map((team: { name: string; lineup: string[] }) => [team.name, team.lineup.length]),
    ).toEqual([
      ['SKYFURY', 5],
      ['Nuclear TigeRES', 6],
    ]);
    const toxic = after.players.find((player: { steamid: string }) => player.steamid === '76561198312729649');
    expect(toxic).toMatchObject({ name: 'Токсик', country: 'PL', team: after.teams[0].id });

    const again = (
      await ok(server, 'save_rosters', { url: `https://www.faceit.com/en/cs2/room/${FACEIT_ID}` })
    ).result;
    expect(again.teams).toEqual({ added: 0, changed: 0, unchanged: 2 });
    expect(again.players).toEqual({ added: 0, changed: 0, unchanged: 11 });
    expect(await database(server)).toEqual(after);
  });

  it('an HLTV page: lineups with flags and real names; a match by name needs the operator', async () => {
    const server = await withSources();
    const b8 = (await ok(server, 'save_team', { name: 'B8', tag: 'B8' })).result.team;
    // Saved before without a team: a match by name alone, for the operator to confirm.
    const npl = (await ok(server, 'save_player', { name: 'npl' })).result.player;
    const offer = (await ok(server, 'read_rosters', { url: HLTV_URL })).result;
    expect(offer.provider).toBe('hltv');
    expect(
      offer.teams.map((team: { name: string; country: string | null }) => [team.name, team.country]),
    ).toEqual([
      ['B8', 'UA'],
      ['Falcons', null],
    ]);
    expect(offer.teams[0].saved).toEqual({ id: b8.id, name: 'B8' });
    expect(offer.teams[0].players.map((player: { name: string }) => player.name)).toEqual([
      'npl',
      'esenthial',
      'kensizor',
      'headtr1ck',
      'alex666',
    ]);
    expect(offer.teams[0].players[0]).toMatchObject({
      name: 'npl',
      steamid: null,
      realName: 'Andrii Kukharskyi',
      country: 'UA',
      saved: { id: npl.id, by: 'name' },
    });
    expect(offer.teams[1].players[0]).toMatchObject({
      name: 'NiKo',
      realName: 'Nikola Kovač',
      country: 'BA',
    });

    // Not confirmed: npl is left out, the others saved.
    const first = (await ok(server, 'save_rosters', { url: HLTV_URL })).result;
    expect(first.unconfirmed).toEqual(['npl']);
    expect(first.players.added).toBe(9);
    expect((await database(server)).players.find((p: { id: string }) => p.id === npl.id)).toMatchObject({
      realName: '',
      country: null,
    });
    // The nine saved now match by name within their team: sure, no confirmation asked again.
    const offered = (await ok(server, 'read_rosters', { url: HLTV_URL })).result;
    expect(offered.teams[1].players[0].saved).toMatchObject({ name: 'NiKo', by: 'team' });
    // Confirmed: npl takes what he lacked, under his saved name.
    const second = (await ok(server, 'save_rosters', { url: HLTV_URL, confirm: ['NPL'] })).result;
    expect(second.unconfirmed).toEqual([]);
    expect(second.players).toEqual({ added: 0, changed: 1, unchanged: 9 });
    expect((await database(server)).players.find((p: { id: string }) => p.id === npl.id)).toMatchObject({
      name: 'npl',
      realName: 'Andrii Kukharskyi',
      country: 'UA',
    });
    const before = await database(server);
    const third = (await ok(server, 'save_rosters', { url: HLTV_URL, confirm: ['npl'] })).result;
    expect(third.teams).toEqual({ added: 0, changed: 0, unchanged: 2 });
    expect(third.players).toEqual({ added: 0, changed: 0, unchanged: 10 });
    expect(await database(server)).toEqual(before);
  });

  it('a source that is not a match is refused in words and changes nothing', async () => {
    const server = await withSources();
    const answer = await command(server, 'save_rosters', { url: 'https://example.com/x' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/FACEIT room|HLTV match/);
    expect((await database(server)).teams).toEqual([]);
  });
});
