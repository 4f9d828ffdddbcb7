import { describe, expect, it, onTestFinished } from 'vitest';
import { explainSteps } from '../../machines/veto-rules.ts';
import { faceitVetoSteps, readFaceitHistory } from '../../src/import/faceit.ts';
import { DEFAULT_IMPORT_SOURCES } from '../../src/import/import-sources.ts';
import { createMatchImporter } from '../../src/import/match-importer.ts';
import {
  asMatchV2,
  type DataApiMatch,
  dataApiPath,
  history,
  historyPath,
  matchV2Path,
  type Vote,
} from './faceit-builders.ts';
import {
  currentSourceServer,
  failureOf,
  fixtureJson,
  importerFor,
  json,
  type Route,
  type SourceServer,
  startSourceServer,
} from './source-server.ts';

/**
 * The match objects are the real Data API v4 fixtures. The democracy histories that go with them
 * are written here in the fixture history's shape, because the fixture history belongs to another
 * match (see SOURCES.md); like real rooms, they record the left-over map as an automatic "pick"
 * in the last round, or leave it out.
 */

const FINISHED_EU = fixtureJson<DataApiMatch>(
  'faceit_data-v4-match_FINISHED_bo3_eu__eggosystem__validMatchDetailsMatchDemoReady.json',
);
const FINISHED_NA = fixtureJson<DataApiMatch>(
  'faceit_data-v4-match_FINISHED_bo3_na__eggosystem__validMatchDetailsMatchStatusFinished.json',
);
const READY_NA = fixtureJson<DataApiMatch>(
  'faceit_data-v4-match_READY_bo3_na__eggosystem__validMatchDetailsMatchStatusReady.json',
);
const SCHEDULED = fixtureJson<DataApiMatch>(
  'faceit_data-v4-match_SCHEDULED_no-voting__eggosystem__validMatchDetailsMatchCreated.json',
);
const HISTORY_FIXTURE = fixtureJson('faceit_democracy-v1-history__eggosystem__match-team-map-veto-test.json');
const HISTORY_FIXTURE_ID = '1-ff5e99c3-0765-4173-ba2a-398987b1b3ef';

const importer = (routes: Record<string, Route>, withKey: boolean) => importerFor(routes, { withKey });

/** The EU bo3's vote as FACEIT records it: the left-over map as an automatic last pick. */
const EU_VOTES: Vote[] = [
  ['de_dust2', 'drop', 'faction1'],
  ['de_nuke', 'drop', 'faction2'],
  ['de_inferno', 'pick', 'faction1'],
  ['de_ancient', 'pick', 'faction2'],
  ['de_overpass', 'drop', 'faction1'],
  ['de_train', 'drop', 'faction2'],
  ['de_mirage', 'pick', 'faction1'],
];

describe('FACEIT import with a Data API key', () => {
  it('imports the finished EU bo3 SKYFURY vs Nuclear TigeRES; the automatic last pick becomes the decider', async () => {
    const id = FINISHED_EU.match_id;
    const votes = EU_VOTES;
    const { importMatch } = await importer(
      { [dataApiPath(id)]: json(FINISHED_EU), [historyPath(id)]: json(history(id, votes)) },
      true,
    );
    const veto = await importMatch({ url: `https://www.faceit.com/en/cs2/room/${id}/scoreboard` });
    expect(veto).toEqual({
      provider: 'faceit',
      matchId: id,
      teamA: {
        name: 'SKYFURY',
        logo: 'https://distribution.faceit-cdn.net/images/6d64c744-7377-4022-a478-edef98402281.jpg',
      },
      teamB: {
        name: 'Nuclear TigeRES',
        logo: 'https://distribution.faceit-cdn.net/images/9fcf1838-545b-4b60-9ac8-f194b75480de.jpeg',
      },
      boFormat: 'bo3',
      steps: [
        { type: 'ban', team: 'A', map: 'de_dust2' },
        { type: 'ban', team: 'B', map: 'de_nuke' },
        { type: 'pick', team: 'A', map: 'de_inferno' },
        { type: 'pick', team: 'B', map: 'de_ancient' },
        { type: 'ban', team: 'A', map: 'de_overpass' },
        { type: 'ban', team: 'B', map: 'de_train' },
        { type: 'decider', map: 'de_mirage' },
      ],
      matchTime: '2025-07-26T15:00:00.000Z',
    });
    // The Data API answered teams, format and status: the internal match endpoint was not asked.
    expect(currentSourceServer()?.requests.map((request) => request.path)).toEqual([
      dataApiPath(id),
      historyPath(id),
    ]);
    expect(currentSourceServer()?.requests[0]?.headers.authorization).toBe('Bearer test-key');
    expect(currentSourceServer()?.requests[1]?.headers.authorization).toBeUndefined();
    expect(currentSourceServer()?.requests[0]?.headers['user-agent']).toMatch(
      /^hud-automation\/\d+\.\d+\.\d+\S* \(\+local CS2 broadcast automation\)$/,
    );
  });

  it('imports the READY match as soon as its vote is over, keeping de_train from the 2024 pool', async () => {
    const id = READY_NA.match_id;
    const votes: Vote[] = [
      ['de_mirage', 'drop', 'faction1'],
      ['de_nuke', 'drop', 'faction2'],
      ['de_dust2', 'pick', 'faction1'],
      ['de_ancient', 'pick', 'faction2'],
      ['de_overpass', 'drop', 'faction1'],
      ['de_inferno', 'drop', 'faction2'],
      ['de_train', 'pick', 'faction1'],
    ];
    const { importMatch } = await importer(
      { [dataApiPath(id)]: json(READY_NA), [historyPath(id)]: json(history(id, votes)) },
      true,
    );
    const veto = await importMatch({ platformMatchId: id });
    expect(veto.teamA.name).toBe('regain');
    expect(veto.teamB.name).toBe('Zomblers');
    expect(veto.steps).toEqual([
      { type: 'ban', team: 'A', map: 'de_mirage' },
      { type: 'ban', team: 'B', map: 'de_nuke' },
      { type: 'pick', team: 'A', map: 'de_dust2' },
      { type: 'pick', team: 'B', map: 'de_ancient' },
      { type: 'ban', team: 'A', map: 'de_overpass' },
      { type: 'ban', team: 'B', map: 'de_inferno' },
      { type: 'decider', map: 'de_train' },
    ]);
    // A READY match has neither scheduled_at nor started_at.
    expect(veto).not.toHaveProperty('matchTime');
  });

  it('answers 409 for the SCHEDULED match without loading the veto history', async () => {
    const id = SCHEDULED.match_id;
    const { importMatch } = await importer({ [dataApiPath(id)]: json(SCHEDULED) }, true);
    const error = await failureOf(importMatch({ platformMatchId: id }));
    expect(error.code).toBe('conflict');
    expect(error.status).toBe(409);
    expect(error.message).toBe(`the FACEIT match ${id} is SCHEDULED: its veto is not available yet`);
    expect(currentSourceServer()?.count('/api/democracy')).toBe(0);
  });

  it('answers 409 while the room is voting and when a ready room has no map vote yet', async () => {
    const id = READY_NA.match_id;
    const voting = { ...READY_NA, status: 'VOTING' };
    const noVote = { ...READY_NA, voting: undefined };
    const first = await importer({ [dataApiPath(id)]: json(voting) }, true);
    expect(await failureOf(first.importMatch({ platformMatchId: id }))).toMatchObject({ code: 'conflict' });
    const second = await importer({ [dataApiPath(id)]: json(noVote) }, true);
    const error = await failureOf(second.importMatch({ platformMatchId: id }));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('has no finished map vote yet (READY)');
  });
});

describe('FACEIT import without a key (internal match v2)', () => {
  it('imports the finished NA match with faction1 as team A although the fixture lists faction2 first', async () => {
    const id = FINISHED_NA.match_id;
    // This history leaves the left-over map out: the decider comes from the match's map list.
    const votes: Vote[] = [
      ['de_nuke', 'drop', 'faction2'],
      ['de_ancient', 'drop', 'faction1'],
      ['de_train', 'pick', 'faction2'],
      ['de_mirage', 'pick', 'faction1'],
      ['de_dust2', 'drop', 'faction2'],
      ['de_inferno', 'drop', 'faction1'],
    ];
    const { importMatch } = await importer(
      { [matchV2Path(id)]: json(asMatchV2(FINISHED_NA)), [historyPath(id)]: json(history(id, votes)) },
      false,
    );
    const veto = await importMatch({ url: `https://www.faceit.com/cs2/room/${id}` });
    expect(veto.teamA).toEqual({
      name: 'JERSA ESPORTS',
      logo: 'https://distribution.faceit-cdn.net/images/6caffc2a-38bb-4437-9c28-4f5152aa3916.jpg',
    });
    expect(veto.teamB.name).toBe('begom');
    expect(veto.boFormat).toBe('bo3');
    expect(veto.steps).toEqual([
      { type: 'ban', team: 'B', map: 'de_nuke' },
      { type: 'ban', team: 'A', map: 'de_ancient' },
      { type: 'pick', team: 'B', map: 'de_train' },
      { type: 'pick', team: 'A', map: 'de_mirage' },
      { type: 'ban', team: 'B', map: 'de_dust2' },
      { type: 'ban', team: 'A', map: 'de_inferno' },
      { type: 'decider', map: 'de_overpass' },
    ]);
    expect(veto.matchTime).toBe('2025-07-25T23:00:00.000Z');
    expect(currentSourceServer()?.count('/data/v4')).toBe(0);
    expect(currentSourceServer()?.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('answers 409 for the SCHEDULED match through the internal endpoint too', async () => {
    const id = SCHEDULED.match_id;
    const { importMatch } = await importer({ [matchV2Path(id)]: json(asMatchV2(SCHEDULED)) }, false);
    expect(await failureOf(importMatch({ platformMatchId: id }))).toMatchObject({
      code: 'conflict',
      status: 409,
    });
  });

  it('answers 502 when the match object is not the expected shape', async () => {
    const id = FINISHED_NA.match_id;
    const { importMatch } = await importer(
      { [matchV2Path(id)]: json({ code: 'OPERATION-OK', result: 'OK' }) },
      false,
    );
    const error = await failureOf(importMatch({ platformMatchId: id }));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain('the FACEIT match does not have the expected shape (/payload');
  });
});

describe('FACEIT_API_KEY goes only where the operator confirmed (issue 37)', () => {
  const id = FINISHED_EU.match_id;
  // The vote without the automatic last pick: either is a veto the import takes.
  const votes = EU_VOTES.slice(0, -1);
  /** An importer with the key whose Data API is a local server, its host confirmed or not. */
  async function keyedImporter(keyHost: (source: SourceServer) => string | undefined) {
    const source = await startSourceServer({
      [dataApiPath(id)]: json(FINISHED_EU),
      [historyPath(id)]: json(history(id, votes)),
    });
    onTestFinished(() => source.close());
    const faceitKeyHost = keyHost(source);
    const importer = createMatchImporter({
      sources: {
        ...DEFAULT_IMPORT_SOURCES,
        faceitUrl: source.url,
        faceitDataApiUrl: `${source.url}/data/v4`,
        faceitApiKey: 'test-key',
        ...(faceitKeyHost === undefined ? {} : { faceitKeyHost }),
      },
    });
    return { importer, source };
  }

  it('refuses the import with a Data API base on a host nobody confirmed, and sends nothing', async () => {
    const { importer, source } = await keyedImporter(() => undefined);
    const error = await failureOf(importer.importMatch({ platformMatchId: id }));
    expect(error).toMatchObject({ code: 'unavailable', status: 503 });
    expect(error.message).toBe(
      `the FACEIT Data API is not asked: FACEIT_API_KEY is only sent to https://open.faceit.com or a host the operator confirmed, and ${source.url} is not confirmed: if that host is yours, set the setting sources.faceitKeyHost (POST /internal/settings, POST /api/panel/settings) or HUD_FACEIT_KEY_HOST to "${new URL(source.url).host}"`,
    );
    expect(source.requests).toEqual([]);
  });

  it('sends the key to the host the operator confirmed', async () => {
    const { importer, source } = await keyedImporter((server) => new URL(server.url).host);
    expect((await importer.importMatch({ platformMatchId: id })).boFormat).toBe('bo3');
    expect(source.requests[0]).toMatchObject({
      path: dataApiPath(id),
      headers: { authorization: 'Bearer test-key' },
    });
  });
});

describe('FACEIT veto histories', () => {
  it('reads the fixture history in round order, faction1 = A, faction2 = B', () => {
    const entities = readFaceitHistory(HISTORY_FIXTURE, HISTORY_FIXTURE_ID);
    // The map the match plays third is the decider, even where this hand-made history marks it dropped.
    const steps = faceitVetoSteps(entities, ['de_inferno', 'de_vertigo', 'de_nuke']);
    expect(steps).toEqual([
      { type: 'ban', team: 'B', map: 'de_mirage' },
      { type: 'ban', team: 'A', map: 'de_anubis' },
      { type: 'ban', team: 'B', map: 'de_dust2' },
      { type: 'ban', team: 'A', map: 'de_ancient' },
      { type: 'pick', team: 'B', map: 'de_inferno' },
      { type: 'pick', team: 'A', map: 'de_vertigo' },
      { type: 'decider', map: 'de_nuke' },
    ]);
    // Four bans before the picks is not a bo3 order the service accepts.
    expect(explainSteps('bo3', steps)).toContain('step 3 must be pick, got ban');
  });

  it('refuses the fixture history with 502 and says which rule it breaks', async () => {
    const match = {
      ...READY_NA,
      match_id: HISTORY_FIXTURE_ID,
      voting: {
        voted_entity_types: ['map'],
        map: { entities: [], pick: ['de_inferno', 'de_vertigo', 'de_nuke'] },
      },
    };
    const { importMatch } = await importer(
      {
        [dataApiPath(HISTORY_FIXTURE_ID)]: json(match),
        [historyPath(HISTORY_FIXTURE_ID)]: json(HISTORY_FIXTURE),
      },
      true,
    );
    const error = await failureOf(importMatch({ platformMatchId: HISTORY_FIXTURE_ID }));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toMatch(
      /^the source's veto does not follow the rules: steps\[2\]: .*step 3 must be pick, got ban/,
    );
  });

  it('refuses a history that belongs to another match', async () => {
    const id = FINISHED_EU.match_id;
    const { importMatch } = await importer(
      { [dataApiPath(id)]: json(FINISHED_EU), [historyPath(id)]: json(HISTORY_FIXTURE) },
      true,
    );
    const error = await failureOf(importMatch({ platformMatchId: id }));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain(`veto history of another match (${HISTORY_FIXTURE_ID}`);
  });

  it('refuses a history whose picks are not the maps the match plays, in its order', () => {
    const entities = readFaceitHistory(HISTORY_FIXTURE, HISTORY_FIXTURE_ID);
    expect(() => faceitVetoSteps(entities, ['de_vertigo', 'de_inferno', 'de_nuke'])).toThrow(
      'the FACEIT veto history (picks: de_inferno, de_vertigo) does not match the series maps of the match (de_vertigo, de_inferno, de_nuke)',
    );
    // A decider the history drops in an early round is a contradiction, not a decider.
    expect(() => faceitVetoSteps(entities, ['de_inferno', 'de_vertigo', 'de_mirage'])).toThrow(
      'the FACEIT veto history has de_mirage in round 1, yet the match plays it as the decider',
    );
  });

  it('answers 502 when FACEIT has no history for a finished match', async () => {
    const id = FINISHED_EU.match_id;
    const { importMatch } = await importer({ [dataApiPath(id)]: json(FINISHED_EU) }, true);
    const error = await failureOf(importMatch({ platformMatchId: id }));
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain('FACEIT answered 404 Not Found to the veto history request');
  });
});
