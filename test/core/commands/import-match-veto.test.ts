import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server.ts';
import { type BuildOptions, build, command, get, tempDir } from '../../helpers/build.ts';
import { withoutLogoFetch } from '../../helpers/logos.ts';
import {
  asMatchV2,
  type DataApiMatch,
  dataApiPath,
  history,
  historyPath,
  matchV2Path,
  type Vote,
} from '../../import/faceit-builders.ts';
import {
  fixtureJson,
  fixtureText,
  html,
  json,
  type Route,
  type SourceServer,
  startSourceServer,
  unusedPort,
} from '../../import/source-server.ts';

/**
 * import_match_veto end to end: a real service on 127.0.0.1 whose FACEIT and HLTV bases point at
 * local servers that answer with the real fixtures of test/fixtures.
 */

const API_KEY = 'test-key';

// ---------------------------------------------------------------------------------------------
// Sources

const openSources: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const source of openSources.splice(0)) await source.close();
});

async function sourceWith(routes: Record<string, Route>): Promise<SourceServer> {
  const source = await startSourceServer(routes);
  openSources.push(source);
  return source;
}

/** Every import base URL of the service pointed at one local server, its host confirmed for the FACEIT key. */
const sourcesAt = (base: string) => ({
  faceitUrl: base,
  faceitDataApiUrl: `${base}/data/v4`,
  hltvUrl: base,
  faceitKeyHost: new URL(base).host,
});

async function serviceWith(
  routes: Record<string, Route>,
  options: { apiKey?: boolean } & BuildOptions = {},
): Promise<{ server: RunningServer; source: SourceServer }> {
  const { apiKey = false, ...rest } = options;
  const source = await sourceWith(routes);
  const server = await build({
    // The fixtures' logos are on the real CDNs: their fetch would settle later, one revision more
    // (imported logos are fetched in test/app-server/team-logos.test.ts).
    machine: withoutLogoFetch,
    ...rest,
    overrides: { ...rest.overrides, sources: sourcesAt(source.url) },
    ...(apiKey ? { faceitApiKey: API_KEY } : {}),
  });
  return { server, source };
}

/**
 * An HTML source that holds every request open until the test releases it, so "an import is running"
 * is a fact the test waits for, not a sleep.
 */
async function startHeldSource(page: string) {
  let arrived = () => {};
  const requested = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? '/');
    arrived();
    void released.then(() =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const held = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    requested,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  openSources.push(held);
  return held;
}

// ---------------------------------------------------------------------------------------------
// What a client sees

async function observed(server: RunningServer) {
  const [state, match, veto] = await Promise.all([
    get(server, '/api/state'),
    get(server, '/api/match'),
    get(server, '/api/veto'),
  ]);
  return {
    revision: state.body.state.revision as number,
    state: state.body.state,
    match: match.body.match,
    veto: veto.body.veto,
  };
}

/** A series map as GET /api/match shows it right after a veto: nothing played yet. */
const seriesMap = (
  number: number,
  map: string,
  label: string,
  pickedBy: string,
  pickedSide: 'A' | 'B' | 'decider',
) => ({
  number,
  map,
  label,
  pickedBy,
  pickedSide,
  finished: false,
  scoreA: 0,
  scoreB: 0,
  winner: null,
  winnerSide: null,
  // An applied import waits to be revealed (issue 33): no map shows yet.
  revealed: false,
});

const ban = (team: 'A' | 'B', map: string) => ({ type: 'ban', team, map });
const pick = (team: 'A' | 'B', map: string) => ({ type: 'pick', team, map });
const decider = (map: string) => ({ type: 'decider', team: null, map });

/** A veto already on the match before an import, so "nothing changed" has something to keep. */
const EARLIER_VETO = {
  boFormat: 'bo1',
  teamA: { name: 'Home' },
  teamB: { name: 'Away' },
  steps: [
    { type: 'ban', team: 'A', map: 'anubis' },
    { type: 'ban', team: 'B', map: 'dust2' },
    { type: 'ban', team: 'A', map: 'inferno' },
    { type: 'ban', team: 'B', map: 'mirage' },
    { type: 'ban', team: 'A', map: 'nuke' },
    { type: 'ban', team: 'B', map: 'overpass' },
    { type: 'decider', map: 'ancient' },
  ],
};

async function withEarlierVeto(server: RunningServer) {
  expect((await command(server, 'veto_set', EARLIER_VETO)).status).toBe(200);
  return observed(server);
}

// ---------------------------------------------------------------------------------------------
// HLTV fixtures

const HLTV = [
  {
    name: 'bo1 B8 vs Falcons',
    file: 'hltv_match_2388098_b8-vs-falcons_bo1__qa-hltv-parser__teamsbox-and-maps.html',
    path: '/matches/2388098/b8-vs-falcons-starladder-budapest-major-2025',
    boFormat: 'bo1',
    teamA: 'B8',
    teamB: 'Falcons',
    matchTime: '2025-12-04T15:40:00.000Z',
    steps: [
      ban('A', 'de_nuke'),
      ban('A', 'de_dust2'),
      ban('B', 'de_overpass'),
      ban('B', 'de_mirage'),
      ban('B', 'de_inferno'),
      ban('A', 'de_train'),
      decider('de_ancient'),
    ],
    maps: [seriesMap(1, 'de_ancient', 'Ancient', 'decider', 'decider')],
  },
  {
    name: 'bo3 FURIA vs Natus Vincere',
    file: 'hltv_match_2388127_furia-vs-natus-vincere_bo3_quarterfinal__qa-hltv-parser__teamsbox-and-maps.html',
    path: '/matches/2388127/furia-vs-natus-vincere-starladder-budapest-major-2025',
    boFormat: 'bo3',
    teamA: 'FURIA',
    teamB: 'Natus Vincere',
    matchTime: '2025-12-12T19:00:00.000Z',
    steps: [
      ban('B', 'de_overpass'),
      ban('A', 'de_ancient'),
      pick('B', 'de_mirage'),
      pick('A', 'de_inferno'),
      ban('A', 'de_dust2'),
      ban('B', 'de_nuke'),
      decider('de_train'),
    ],
    maps: [
      seriesMap(1, 'de_mirage', 'Mirage', 'Natus Vincere', 'B'),
      seriesMap(2, 'de_inferno', 'Inferno', 'FURIA', 'A'),
      seriesMap(3, 'de_train', 'Train', 'decider', 'decider'),
    ],
  },
  {
    name: 'bo5 Vitality vs FaZe',
    file: 'hltv_match_2388130_vitality-vs-faze_bo5_grand-final__qa-hltv-parser__teamsbox-and-maps.html',
    path: '/matches/2388130/vitality-vs-faze-starladder-budapest-major-2025',
    boFormat: 'bo5',
    teamA: 'Vitality',
    teamB: 'FaZe',
    matchTime: '2025-12-14T17:00:00.000Z',
    steps: [
      ban('B', 'de_train'),
      ban('A', 'de_ancient'),
      pick('B', 'de_nuke'),
      pick('A', 'de_dust2'),
      pick('B', 'de_inferno'),
      pick('A', 'de_overpass'),
      decider('de_mirage'),
    ],
    maps: [
      seriesMap(1, 'de_nuke', 'Nuke', 'FaZe', 'B'),
      seriesMap(2, 'de_dust2', 'Dust II', 'Vitality', 'A'),
      seriesMap(3, 'de_inferno', 'Inferno', 'FaZe', 'B'),
      seriesMap(4, 'de_overpass', 'Overpass', 'Vitality', 'A'),
      seriesMap(5, 'de_mirage', 'Mirage', 'decider', 'decider'),
    ],
  },
] as const;

const [BO1, BO3, BO5] = HLTV;
const hltvUrl = (page: { path: string }) => `https://www.hltv.org${page.path}`;
const hltvRoute = (page: { path: string; file: string }) => ({ [page.path]: html(fixtureText(page.file)) });

// ---------------------------------------------------------------------------------------------
// FACEIT fixtures: the real Data API v4 match objects, with veto histories written in the
// democracy history's shape (the fixture history belongs to another match; see test/import/faceit.test.ts).

const FACEIT = {
  eu: {
    match: fixtureJson<DataApiMatch>(
      'faceit_data-v4-match_FINISHED_bo3_eu__eggosystem__validMatchDetailsMatchDemoReady.json',
    ),
    // Like real rooms, the left-over map is recorded as an automatic last "pick".
    votes: [
      ['de_dust2', 'drop', 'faction1'],
      ['de_nuke', 'drop', 'faction2'],
      ['de_inferno', 'pick', 'faction1'],
      ['de_ancient', 'pick', 'faction2'],
      ['de_overpass', 'drop', 'faction1'],
      ['de_train', 'drop', 'faction2'],
      ['de_mirage', 'pick', 'faction1'],
    ] as Vote[],
    teamA: 'SKYFURY',
    teamB: 'Nuclear TigeRES',
    matchTime: '2025-07-26T15:00:00.000Z',
    steps: [
      ban('A', 'de_dust2'),
      ban('B', 'de_nuke'),
      pick('A', 'de_inferno'),
      pick('B', 'de_ancient'),
      ban('A', 'de_overpass'),
      ban('B', 'de_train'),
      decider('de_mirage'),
    ],
    maps: [
      seriesMap(1, 'de_inferno', 'Inferno', 'SKYFURY', 'A'),
      seriesMap(2, 'de_ancient', 'Ancient', 'Nuclear TigeRES', 'B'),
      seriesMap(3, 'de_mirage', 'Mirage', 'decider', 'decider'),
    ],
  },
  na: {
    // faction2 is listed first in this fixture; team A is faction1 all the same.
    match: fixtureJson<DataApiMatch>(
      'faceit_data-v4-match_FINISHED_bo3_na__eggosystem__validMatchDetailsMatchStatusFinished.json',
    ),
    // This history leaves the left-over map out: the decider comes from the match's map list.
    votes: [
      ['de_nuke', 'drop', 'faction2'],
      ['de_ancient', 'drop', 'faction1'],
      ['de_train', 'pick', 'faction2'],
      ['de_mirage', 'pick', 'faction1'],
      ['de_dust2', 'drop', 'faction2'],
      ['de_inferno', 'drop', 'faction1'],
    ] as Vote[],
    teamA: 'JERSA ESPORTS',
    teamB: 'begom',
    matchTime: '2025-07-25T23:00:00.000Z',
    steps: [
      ban('B', 'de_nuke'),
      ban('A', 'de_ancient'),
      pick('B', 'de_train'),
      pick('A', 'de_mirage'),
      ban('B', 'de_dust2'),
      ban('A', 'de_inferno'),
      decider('de_overpass'),
    ],
    maps: [
      seriesMap(1, 'de_train', 'Train', 'begom', 'B'),
      seriesMap(2, 'de_mirage', 'Mirage', 'JERSA ESPORTS', 'A'),
      seriesMap(3, 'de_overpass', 'Overpass', 'decider', 'decider'),
    ],
  },
};

const SCHEDULED = fixtureJson<DataApiMatch>(
  'faceit_data-v4-match_SCHEDULED_no-voting__eggosystem__validMatchDetailsMatchCreated.json',
);

/** The routes a FACEIT room needs: the Data API match with a key, the internal match without one. */
function faceitRoutes(room: (typeof FACEIT)[keyof typeof FACEIT], withKey: boolean): Record<string, Route> {
  const id = room.match.match_id;
  return {
    [withKey ? dataApiPath(id) : matchV2Path(id)]: json(withKey ? room.match : asMatchV2(room.match)),
    [historyPath(id)]: json(history(id, room.votes)),
  };
}

// ---------------------------------------------------------------------------------------------

describe('import_match_veto from HLTV over the API', () => {
  for (const page of HLTV) {
    it(`imports and applies the ${page.name} page: teams, format, veto and series maps`, async () => {
      const { server, source } = await serviceWith(hltvRoute(page));
      const before = await observed(server);

      const answer = await command(server, 'import_match_veto', { url: hltvUrl(page) });

      expect(answer.status).toBe(200);
      // show is false and the panel was never reported: the answer carries no vetoVisible.
      expect(answer.body).toEqual({
        ok: true,
        state: { revision: before.revision + 1 },
        result: {
          provider: 'hltv',
          teamA: expect.objectContaining({
            name: page.teamA,
            logo: expect.stringMatching(/^https:\/\/img-cdn\.hltv\.org\//),
          }),
          teamB: expect.objectContaining({
            name: page.teamB,
            logo: expect.stringMatching(/^https:\/\/img-cdn\.hltv\.org\//),
          }),
          boFormat: page.boFormat,
          steps: page.steps,
          matchTime: page.matchTime,
          applied: true,
          shown: false,
          changes: expect.objectContaining({ teamsKept: false, lostResults: [] }),
        },
      });
      expect(source.requests.map((request) => request.path)).toEqual([page.path]);

      const after = await observed(server);
      expect(after.revision).toBe(before.revision + 1);
      expect(after.match).toMatchObject({
        boFormat: page.boFormat,
        teamA: answer.body.result.teamA,
        teamB: answer.body.result.teamB,
        maps: page.maps,
        seriesScore: { a: 0, b: 0 },
        veto: { steps: page.steps, revealed: 0 },
      });
      expect(after.veto).toEqual({ active: false });
    });
  }

  it('reads apply and show sent as text, as every boolean may be', async () => {
    const { server } = await serviceWith(hltvRoute(BO3));
    const answer = await command(server, 'import_match_veto', {
      url: hltvUrl(BO3),
      apply: 'false',
      show: 'true',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ applied: false, shown: true });
  });
});

describe('import_match_veto from FACEIT over the API', () => {
  const cases = [
    {
      how: 'a room URL with its language and a trailing page, with a Data API key',
      room: FACEIT.eu,
      withKey: true,
      payload: { url: `https://www.faceit.com/en/cs2/room/${FACEIT.eu.match.match_id}/scoreboard` },
    },
    {
      how: 'platformMatchId, with a Data API key',
      room: FACEIT.na,
      withKey: true,
      payload: { platformMatchId: FACEIT.na.match.match_id },
    },
    {
      how: 'a room URL without a key (internal match endpoint)',
      room: FACEIT.na,
      withKey: false,
      payload: { url: `https://faceit.com/cs2/room/${FACEIT.na.match.match_id}` },
    },
    {
      how: 'platformMatchId without a key (internal match endpoint)',
      room: FACEIT.eu,
      withKey: false,
      payload: { platformMatchId: FACEIT.eu.match.match_id },
    },
  ];

  for (const { how, room, withKey, payload } of cases) {
    it(`imports ${room.teamA} vs ${room.teamB} by ${how}`, async () => {
      const id = room.match.match_id;
      const { server, source } = await serviceWith(faceitRoutes(room, withKey), { apiKey: withKey });
      const before = await observed(server);

      const answer = await command(server, 'import_match_veto', payload);

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        ok: true,
        state: { revision: before.revision + 1 },
        result: {
          provider: 'faceit',
          teamA: { name: room.teamA, logo: room.match.teams.faction1?.avatar },
          teamB: { name: room.teamB, logo: room.match.teams.faction2?.avatar },
          boFormat: 'bo3',
          steps: room.steps,
          matchTime: room.matchTime,
          applied: true,
          shown: false,
          changes: expect.objectContaining({ teamsKept: false, lostResults: [] }),
        },
      });
      const requested = source.requests.map((request) => request.path);
      expect(requested).toEqual([withKey ? dataApiPath(id) : matchV2Path(id), historyPath(id)]);
      // The key goes to the Data API only; the internal endpoints are called without credentials.
      expect(source.requests[0]?.headers.authorization).toBe(withKey ? `Bearer ${API_KEY}` : undefined);
      expect(source.requests[1]?.headers.authorization).toBeUndefined();

      const after = await observed(server);
      expect(after.revision).toBe(before.revision + 1);
      expect(after.match).toMatchObject({
        boFormat: 'bo3',
        teamA: answer.body.result.teamA,
        teamB: answer.body.result.teamB,
        maps: room.maps,
        veto: { steps: room.steps },
      });
      expect(after.veto).toEqual({ active: false });
    });
  }
});

describe('an imported team within the limits of set_teams', () => {
  it('a name over 64 UTF-16 units is cut between characters, a logo address over 2048 left out; a restart keeps them', async () => {
    const room = FACEIT.eu;
    const name = `${'A'.repeat(60)}🔥🔥🔥`; // 63 characters, 66 UTF-16 units
    const logo = `https://cdn.example.org/${'l'.repeat(3000)}.png`;
    const match = structuredClone(room.match);
    if (!match.teams.faction1 || !match.teams.faction2) throw new Error('the fixture has both factions');
    match.teams.faction1.name = name;
    match.teams.faction1.avatar = logo;
    const dataDir = await tempDir();
    const { server } = await serviceWith(
      { ...faceitRoutes(room, true), [dataApiPath(match.match_id)]: json(match) },
      { apiKey: true, dataDir },
    );
    const answer = await command(server, 'import_match_veto', { platformMatchId: match.match_id });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result.teamA).toEqual({ name: `${'A'.repeat(60)}🔥🔥` });
    const before = await observed(server);
    await server.close();
    const again = await build({ dataDir, machine: withoutLogoFetch });
    expect((await observed(again)).match).toEqual(before.match);
  });
});

describe('apply, show and the revision', () => {
  it('apply false answers the veto and changes neither the match nor the revision', async () => {
    const { server } = await serviceWith(hltvRoute(BO5));
    const before = await withEarlierVeto(server);

    const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO5), apply: false });

    expect(answer.status).toBe(200);
    expect(answer.body.state).toEqual({ revision: before.revision });
    expect(answer.body.result).toMatchObject({
      provider: 'hltv',
      teamA: { name: 'Vitality' },
      teamB: { name: 'FaZe' },
      boFormat: 'bo5',
      steps: BO5.steps,
      applied: false,
      shown: false,
    });
    expect(await observed(server)).toEqual(before);
  });

  it('show true opens the veto panel, in the answer and in GET /api/state, in the same revision', async () => {
    const { server } = await serviceWith(hltvRoute(BO3));
    const before = await observed(server);
    expect(before.state).not.toHaveProperty('vetoVisible');

    const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO3), show: true });

    expect(answer.status).toBe(200);
    expect(answer.body.state).toEqual({ revision: before.revision + 1, vetoVisible: true });
    expect(answer.body.result).toMatchObject({ applied: true, shown: true });
    const after = await observed(server);
    expect(after.state).toMatchObject({ revision: before.revision + 1, vetoVisible: true });
    expect(after.match.maps).toEqual(BO3.maps);
  });

  it('show true with apply false opens the panel and leaves the match alone', async () => {
    const { server } = await serviceWith(hltvRoute(BO3));
    const before = await withEarlierVeto(server);

    const answer = await command(server, 'import_match_veto', {
      url: hltvUrl(BO3),
      apply: false,
      show: true,
    });

    expect(answer.body.state).toEqual({ revision: before.revision + 1, vetoVisible: true });
    expect(answer.body.result).toMatchObject({ applied: false, shown: true });
    const after = await observed(server);
    expect(after.match).toEqual(before.match);
    expect(after.state.vetoVisible).toBe(true);
  });

  it('one import is one revision, whatever it changes (veto, teams, format, maps, panel)', async () => {
    const { server } = await serviceWith(hltvRoute(BO5));
    const before = await withEarlierVeto(server);
    const revisions = new Set<number>();
    server.service.hub.emitter.on('event', ({ revision }) => revisions.add(revision));

    const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO5), show: true });

    expect(answer.body.state.revision).toBe(before.revision + 1);
    expect([...revisions]).toEqual([before.revision + 1]);
    expect((await observed(server)).revision).toBe(before.revision + 1);
  });
});

// Issue 19: an import kept the reveal count of the veto before it, and went on air with that many
// steps turned over.
describe('the reveal of an imported veto', () => {
  it('a new import in progressive reveal starts face down, its maps hidden; the same import again keeps its count', async () => {
    const { server } = await serviceWith({ ...hltvRoute(BO3), ...hltvRoute(BO5) });
    await withEarlierVeto(server);
    await command(server, 'veto_reveal', { instant: false, mode: 'all' });
    expect((await command(server, 'veto_reveal', { mode: 'prev' })).body.result).toMatchObject({
      revealed: 6,
    });

    expect((await command(server, 'import_match_veto', { url: hltvUrl(BO3) })).status).toBe(200);
    const imported = (await observed(server)).match;
    expect(imported.veto).toEqual({ steps: BO3.steps, revealed: 0 });
    expect(imported.maps.map((entry: { revealed: boolean }) => entry.revealed)).toEqual([
      false,
      false,
      false,
    ]);

    // Three steps (ban, ban, pick): the first pick's map shows, the rest stays hidden.
    for (let i = 0; i < 3; i++) await command(server, 'veto_reveal', { mode: 'next' });
    const three = (await observed(server)).match;
    expect(three.maps.map((entry: { revealed: boolean }) => entry.revealed)).toEqual([true, false, false]);
    // The same page imported again: nothing on air turns back over.
    expect((await command(server, 'import_match_veto', { url: hltvUrl(BO3) })).status).toBe(200);
    expect((await observed(server)).match.veto.revealed).toBe(3);
    // Another match: face down again, still step by step.
    const other = await command(server, 'import_match_veto', { url: hltvUrl(BO5) });
    expect(other.status).toBe(200);
    expect((await observed(server)).match.veto).toEqual({ steps: BO5.steps, revealed: 0 });
    expect((await command(server, 'veto_reveal', { mode: 'next' })).body.result).toEqual({
      revealed: 1,
      total: BO5.steps.length,
      instant: false,
    });
  });

  // Issue 33: an import right after set-up (instant, the default) put its maps on the top bar at once.
  it('in instant reveal an import waits too: step by step, nothing shown until revealed', async () => {
    const { server } = await serviceWith(hltvRoute(BO3));
    await withEarlierVeto(server);
    await command(server, 'veto_reveal', { instant: true });
    expect((await command(server, 'import_match_veto', { url: hltvUrl(BO3) })).status).toBe(200);
    const { match } = await observed(server);
    expect(match.veto.revealed).toBe(0);
    expect(match.maps.some((entry: { revealed: boolean }) => entry.revealed)).toBe(false);
    expect((await command(server, 'veto_reveal', { mode: 'next' })).body.result).toEqual({
      revealed: 1,
      total: BO3.steps.length,
      instant: false,
    });
  });
});

describe('a manual veto session', () => {
  async function withSession(server: RunningServer) {
    const started = await command(server, 'veto_start', {
      boFormat: 'bo3',
      teamA: { name: 'Home' },
      teamB: { name: 'Away' },
    });
    expect(started.status).toBe(200);
    expect((await command(server, 'veto_select', { map: 'mirage' })).status).toBe(200);
    const before = await observed(server);
    expect(before.veto).toMatchObject({ active: true, steps: [ban('A', 'de_mirage')] });
    return before;
  }

  it('is replaced by an applied import', async () => {
    const { server } = await serviceWith(hltvRoute(BO5));
    const before = await withSession(server);

    const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO5) });

    expect(answer.status).toBe(200);
    expect(answer.body.state.revision).toBe(before.revision + 1);
    const after = await observed(server);
    expect(after.veto).toEqual({ active: false });
    expect(after.match).toMatchObject({
      boFormat: 'bo5',
      teamA: { name: 'Vitality' },
      teamB: { name: 'FaZe' },
      maps: BO5.maps,
      veto: { steps: BO5.steps },
    });
    // The session is gone, not only hidden: there is nothing left to play.
    expect((await command(server, 'veto_select', { map: 'nuke' })).body).toMatchObject({
      ok: false,
      error: 'conflict',
    });
  });

  it('keeps running when the import only reads (apply false)', async () => {
    const { server } = await serviceWith(hltvRoute(BO5));
    const before = await withSession(server);

    const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO5), apply: false });

    expect(answer.status).toBe(200);
    expect(await observed(server)).toEqual(before);
  });
});

describe('import_match_veto failures', () => {
  it('answers 409 for a scheduled FACEIT match, and the same 409 within 5 s without asking FACEIT again', async () => {
    const id = SCHEDULED.match_id;
    const { server, source } = await serviceWith({ [dataApiPath(id)]: json(SCHEDULED) }, { apiKey: true });
    const before = await withEarlierVeto(server);

    const first = await command(server, 'import_match_veto', { platformMatchId: id });
    expect(first).toEqual({
      status: 409,
      body: {
        ok: false,
        error: 'conflict',
        message: `the FACEIT match ${id} is SCHEDULED: its veto is not available yet`,
      },
    });
    expect(source.requests.map((request) => request.path)).toEqual([dataApiPath(id)]);

    // A client polling again (here by the room URL of the same match) gets the remembered answer.
    const again = await command(server, 'import_match_veto', {
      url: `https://www.faceit.com/en/cs2/room/${id}`,
    });
    expect(again).toEqual(first);
    expect(source.requests).toHaveLength(1);

    expect(await observed(server)).toEqual(before);
  });

  const upstreamFailures: Array<{ what: string; route: Route; message: RegExp }> = [
    {
      what: 'a Cloudflare challenge (cf-mitigated)',
      route: html('<html><head><title>Just a moment...</title></head><body></body></html>', 403, {
        'cf-mitigated': 'challenge',
      }),
      message:
        /^HLTV answered the match page request with a Cloudflare bot check \(cf-mitigated: challenge\)/,
    },
    {
      what: 'a "Just a moment..." page with status 200',
      route: html(
        '<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>',
      ),
      message: /"Just a moment\.\.\." challenge page/,
    },
    {
      what: 'a 500',
      route: html('<html><body>maintenance</body></html>', 500),
      message: /^HLTV answered 500 .*the site has a problem/,
    },
    {
      what: 'a page that is not a match page',
      route: html('<html><body><h1>News</h1></body></html>'),
      message: /no teams box/,
    },
  ];

  for (const { what, route, message } of upstreamFailures) {
    it(`answers 502 upstream_error for ${what} and changes nothing`, async () => {
      const { server, source } = await serviceWith({ [BO5.path]: route });
      const before = await withEarlierVeto(server);

      const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO5), show: true });

      expect(answer.status).toBe(502);
      expect(answer.body).toEqual({
        ok: false,
        error: 'upstream_error',
        message: expect.stringMatching(message),
      });
      expect(await observed(server)).toEqual(before);
      // Only conflicts are remembered: the next attempt asks the source again.
      expect((await command(server, 'import_match_veto', { url: hltvUrl(BO5) })).status).toBe(502);
      expect(source.count(BO5.path)).toBe(2);
    });
  }

  it('answers 502 when FACEIT answers something that is not JSON', async () => {
    const id = FACEIT.eu.match.match_id;
    const { server } = await serviceWith(
      { [dataApiPath(id)]: html('<html><body>hello</body></html>') },
      { apiKey: true },
    );
    const before = await withEarlierVeto(server);

    const answer = await command(server, 'import_match_veto', { platformMatchId: id });

    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ ok: false, error: 'upstream_error' });
    expect(answer.body.message).toContain('answered the match request with something that is not JSON');
    expect(await observed(server)).toEqual(before);
  });

  it('answers 502 when the source cannot be reached', async () => {
    const port = await unusedPort();
    const base = `http://127.0.0.1:${port}`;
    const server = await build({ overrides: { sources: sourcesAt(base) } });
    const before = await withEarlierVeto(server);

    const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO1) });

    expect(answer).toEqual({
      status: 502,
      body: {
        ok: false,
        error: 'upstream_error',
        message: `could not reach HLTV (127.0.0.1:${port}) for the match page: the connection was refused`,
      },
    });
    expect(await observed(server)).toEqual(before);
  });

  const invalidPayloads: Array<{ what: string; payload: unknown; message: RegExp }> = [
    {
      what: 'a URL of another site',
      payload: { url: 'https://example.com/matches/1/a-vs-b' },
      message: /is neither a FACEIT nor an HLTV address/,
    },
    { what: 'text that is not a URL', payload: { url: 'not a url' }, message: /is not a URL/ },
    {
      what: 'an HLTV URL without its slug',
      payload: { url: 'https://www.hltv.org/matches/2388130' },
      message: /is not an HLTV match page/,
    },
    {
      what: 'a room URL sent as platformMatchId',
      payload: { platformMatchId: `https://www.faceit.com/en/cs2/room/${FACEIT.eu.match.match_id}` },
      message: /is not a FACEIT match id/,
    },
    {
      what: 'both url and platformMatchId',
      payload: { url: hltvUrl(BO1), platformMatchId: FACEIT.eu.match.match_id },
      message: /^both url and platformMatchId were sent/,
    },
    {
      what: 'neither url nor platformMatchId',
      payload: { apply: true, show: true },
      message: /^neither url nor platformMatchId/,
    },
    { what: 'an empty payload', payload: {}, message: /^neither url nor platformMatchId/ },
    {
      what: 'an unknown field',
      payload: { url: hltvUrl(BO1), provider: 'hltv' },
      message: /unknown field provider; known fields: url, platformMatchId, apply, show$/,
    },
  ];

  for (const { what, payload, message } of invalidPayloads) {
    it(`answers 400 invalid_payload for ${what}, without asking any source`, async () => {
      const { server, source } = await serviceWith({ ...hltvRoute(BO1), ...faceitRoutes(FACEIT.eu, false) });
      const before = await withEarlierVeto(server);

      const answer = await command(server, 'import_match_veto', payload);

      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        ok: false,
        error: 'invalid_payload',
        message: expect.stringMatching(message),
      });
      expect(source.requests).toHaveLength(0);
      expect(await observed(server)).toEqual(before);
    });
  }

  // A blank field counts as not sent (docs/import.md), as a form with an empty field sends it.
  const emptyFields = [
    { field: 'platformMatchId', payload: { url: hltvUrl(BO1), platformMatchId: '' } },
    { field: 'url', payload: { url: '', platformMatchId: FACEIT.eu.match.match_id } },
  ];
  for (const { field, payload } of emptyFields) {
    it(`imports when ${field} is sent empty, as a form with an empty field does`, async () => {
      const { server } = await serviceWith({ ...hltvRoute(BO1), ...faceitRoutes(FACEIT.eu, false) });
      const answer = await command(server, 'import_match_veto', payload);
      expect(answer.body.message).toBeUndefined();
      expect(answer.status).toBe(200);
      expect(answer.body.result.applied).toBe(true);
    });
  }

  it('answers 409 to a second import while one runs, then the first one completes', async () => {
    const held = await startHeldSource(fixtureText(BO3.file));
    const server = await build({ overrides: { sources: sourcesAt(held.url) } });
    const before = await observed(server);

    const first = command(server, 'import_match_veto', { url: hltvUrl(BO3) });
    await held.requested;

    const second = await command(server, 'import_match_veto', { url: hltvUrl(BO5) });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      ok: false,
      error: 'conflict',
      message: `an import is already running (${hltvUrl(BO3)}): try again when it has finished`,
    });
    expect(held.paths).toEqual([BO3.path]);
    expect((await observed(server)).revision).toBe(before.revision);

    held.release();
    const done = await first;
    expect(done.status).toBe(200);
    expect(done.body.result).toMatchObject({ teamA: { name: 'FURIA' }, steps: BO3.steps, applied: true });
    expect((await observed(server)).match.maps).toEqual(BO3.maps);
    expect(held.paths).toEqual([BO3.path]);
  });

  it('answers 503 unavailable while the main window is closed, without asking any source', async () => {
    const { server, source } = await serviceWith(hltvRoute(BO1), { headless: false });
    const before = await observed(server);
    expect(before.state.mainWindowOpen).toBe(false);

    const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO1) });

    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ ok: false, error: 'unavailable' });
    expect(answer.body.message).toContain('import_match_veto needs the main window: open the operator app');
    expect(source.requests).toHaveLength(0);
    expect(await observed(server)).toEqual(before);
  });

  // The service's budget is 20 s; importTimeoutMs shortens it so the test does not wait for it.
  it('answers 504 upstream_timeout when a source never answers within the budget, changes nothing, and the next import runs', async () => {
    const { server, source } = await serviceWith(
      { [BO5.path]: 'hang', ...hltvRoute(BO3) },
      { importTimeoutMs: 300 },
    );
    const before = await withEarlierVeto(server);

    const answer = await command(server, 'import_match_veto', { url: hltvUrl(BO5), show: true });

    expect(answer).toEqual({
      status: 504,
      body: {
        ok: false,
        error: 'upstream_timeout',
        message: 'the import did not finish within 0.3 s: HLTV did not answer the match page request in time',
      },
    });
    expect(source.count(BO5.path)).toBe(1);
    expect(await observed(server)).toEqual(before);
    // The timed-out import is over: the next one is not refused as "already running".
    const next = await command(server, 'import_match_veto', { url: hltvUrl(BO3) });
    expect(next.status).toBe(200);
    expect((await observed(server)).match.maps).toEqual(BO3.maps);
  });

  it('counts the budget across requests: a FACEIT history that hangs after a quick match answers 504', async () => {
    const id = FACEIT.eu.match.match_id;
    const { server } = await serviceWith(
      { [dataApiPath(id)]: json(FACEIT.eu.match), [historyPath(id)]: 'hang' },
      { apiKey: true, importTimeoutMs: 300 },
    );
    const before = await observed(server);

    const answer = await command(server, 'import_match_veto', { platformMatchId: id });

    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ ok: false, error: 'upstream_timeout' });
    expect(answer.body.message).toContain('FACEIT did not answer the veto history request in time');
    expect(await observed(server)).toEqual(before);
  });
});
