import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { normalizeMapName } from '../../machines/map-names.ts';
import type { BoFormat, Side, Team, VetoStep } from '../../machines/veto-rules.ts';
import { ServiceError } from '../protocol/errors.ts';
import type { SourceClient } from './fetch-source.ts';
import { faceitDataApiKey, type ImportSources } from './import-sources.ts';
import type { ImportedVeto } from './imported-veto.ts';
import { teamOf } from './team-of.ts';

/**
 * FACEIT: teams, format, status and the series maps come from the match object (the Data API
 * v4 when a key is configured, else the web site's internal match v2); who banned and picked what
 * comes from the democracy history, the same data the match room shows.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

const FaceitFaction = Type.Object({ name: Type.String(), avatar: Nullable(Type.String()) });
const FaceitTeams = Type.Object({ faction1: FaceitFaction, faction2: FaceitFaction });
const FaceitVoting = Type.Object({
  map: Nullable(
    Type.Object({
      /** The series maps in playing order; the last is the decider. */
      pick: Nullable(Type.Array(Type.String())),
    }),
  ),
});
const Timestamp = Nullable(Type.Union([Type.Number(), Type.String()]));

/** Data API v4 `GET /matches/{id}`: only the fields the import reads. */
const DataApiMatch = Type.Object({
  status: Type.String(),
  best_of: Nullable(Type.Number()),
  teams: Nullable(Type.Unknown()),
  voting: Nullable(FaceitVoting),
  scheduled_at: Timestamp,
  started_at: Timestamp,
});

/** Internal `GET /api/match/v2/match/{id}`: `{ code, result, payload }`, camelCase, format in matchCustom. */
const MatchV2 = Type.Object({
  payload: Type.Object({
    status: Nullable(Type.String()),
    state: Nullable(Type.String()),
    teams: Nullable(Type.Unknown()),
    voting: Nullable(FaceitVoting),
    bestOf: Nullable(Type.Number()),
    matchCustom: Nullable(
      Type.Object({
        overview: Nullable(
          Type.Object({ round: Nullable(Type.Object({ to_play: Nullable(Type.Number()) })) }),
        ),
      }),
    ),
    scheduledAt: Timestamp,
    startedAt: Timestamp,
  }),
});

const VoteEntity = Type.Object({
  guid: Type.String(),
  /** drop or pick; other values (an empty string on unfinished tickets) are not votes. */
  status: Type.String(),
  round: Type.Number(),
  selected_by: Nullable(Type.String()),
});

/** `GET /api/democracy/v1/match/{id}/history`. */
const DemocracyHistory = Type.Object({
  payload: Type.Object({
    match_id: Nullable(Type.String()),
    tickets: Type.Array(Type.Object({ entity_type: Type.String(), entities: Type.Array(VoteEntity) })),
  }),
});

export type FaceitVoteEntity = Static<typeof VoteEntity>;

/** The match object reduced to what the import needs, whichever endpoint supplied it. */
export interface FaceitMatchInfo {
  status: string;
  /** Unchecked until the veto is known to be available: a scheduled match may not have both teams yet. */
  teams: unknown;
  bestOf: number | null;
  seriesMaps: string[] | null;
  matchTime?: string;
}

// Before and during the map vote: the veto is not there yet, asking again later helps.
const BEFORE_VETO = new Set(['CREATED', 'SCHEDULED', 'CHECK_IN', 'CAPTAIN_PICK', 'SUBSTITUTION', 'VOTING']);
const ENDED = new Set(['CANCELLED', 'ABORTED']);
const BO_FORMATS: Record<number, BoFormat> = { 1: 'bo1', 3: 'bo3', 5: 'bo5' };

const upstream = (message: string) => new ServiceError('upstream_error', message);

const MATCH_NOT_FOUND = 'the match does not exist there or is not public';

export async function importFaceitMatch(
  matchId: string,
  context: { client: SourceClient; sources: ImportSources },
): Promise<ImportedVeto> {
  const { client, sources } = context;
  const id = encodeURIComponent(matchId);
  // With a key, the Data API, unless its base is no place for the key: then the import says why.
  const apiKey = faceitDataApiKey(sources);
  const info = apiKey
    ? faceitMatchFromDataApi(
        await client.json({
          source: 'the FACEIT Data API',
          what: 'match',
          url: `${sources.faceitDataApiUrl}/matches/${id}`,
          notFound: MATCH_NOT_FOUND,
          headers: { Authorization: `Bearer ${apiKey}` },
        }),
      )
    : faceitMatchFromMatchV2(
        await client.json({
          source: 'FACEIT',
          what: 'match',
          url: `${sources.faceitUrl}/api/match/v2/match/${id}`,
          notFound: MATCH_NOT_FOUND,
        }),
      );
  // Checked before the history is loaded: a room that is still voting costs one request, not two.
  const seriesMaps = availableSeriesMaps(matchId, info);
  const teams = readTeams(info.teams);
  const boFormat = boFormatOf(info, seriesMaps);
  const history = readFaceitHistory(
    await client.json({
      source: 'FACEIT',
      what: 'veto history',
      url: `${sources.faceitUrl}/api/democracy/v1/match/${id}/history`,
      notFound: MATCH_NOT_FOUND,
    }),
    matchId,
  );
  const veto: ImportedVeto = {
    provider: 'faceit',
    matchId,
    teamA: teams.teamA,
    teamB: teams.teamB,
    boFormat,
    steps: faceitVetoSteps(history, seriesMaps),
  };
  if (info.matchTime !== undefined) veto.matchTime = info.matchTime;
  return veto;
}

export function faceitMatchFromDataApi(body: unknown): FaceitMatchInfo {
  const match = checked(DataApiMatch, body, 'the FACEIT Data API match');
  const info: FaceitMatchInfo = {
    status: match.status.toUpperCase(),
    teams: match.teams,
    bestOf: match.best_of ?? null,
    seriesMaps: match.voting?.map?.pick ?? null,
  };
  const matchTime = isoTime(match.scheduled_at) ?? isoTime(match.started_at);
  if (matchTime !== undefined) info.matchTime = matchTime;
  return info;
}

export function faceitMatchFromMatchV2(body: unknown): FaceitMatchInfo {
  const match = checked(MatchV2, body, 'the FACEIT match').payload;
  const status = match.status ?? match.state;
  if (!status) throw upstream('the FACEIT match has no status');
  const info: FaceitMatchInfo = {
    status: status.toUpperCase(),
    teams: match.teams,
    bestOf: match.matchCustom?.overview?.round?.to_play ?? match.bestOf ?? null,
    seriesMaps: match.voting?.map?.pick ?? null,
  };
  const matchTime = isoTime(match.scheduledAt) ?? isoTime(match.startedAt);
  if (matchTime !== undefined) info.matchTime = matchTime;
  return info;
}

/** The map-vote entities of a history, checked to belong to the match asked for. */
export function readFaceitHistory(body: unknown, matchId: string): FaceitVoteEntity[] {
  const { payload } = checked(DemocracyHistory, body, 'the FACEIT veto history');
  if (payload.match_id && payload.match_id.toLowerCase() !== matchId) {
    throw upstream(
      `FACEIT answered with the veto history of another match (${payload.match_id}, asked for ${matchId})`,
    );
  }
  const maps = payload.tickets.find((ticket) => ticket.entity_type === 'map');
  if (maps === undefined || maps.entities.length === 0) {
    throw upstream(
      `the FACEIT veto history of ${matchId} has no map vote (the organiser may have set the maps)`,
    );
  }
  return maps.entities;
}

/**
 * The veto as a person reading the room writes it down: the history's votes in round order
 * (drop = ban, pick = pick, faction1 = team A, faction2 = team B), then the decider. The decider
 * is the last series map FACEIT lists (voting.map.pick). FACEIT records that left-over map as an
 * automatic "pick" in the last round, credited to a faction that never chose it, so its entry
 * becomes the decider without a team; when the history leaves it out, it is added at the end.
 */
export function faceitVetoSteps(
  entities: readonly FaceitVoteEntity[],
  seriesMaps: readonly string[],
): VetoStep[] {
  const series = seriesMaps.map((guid) => faceitMap(guid));
  const decider = series.at(-1);
  if (decider === undefined) throw upstream('the FACEIT match lists no maps for the series');
  const votes = entities
    .filter((entity) => entity.status === 'drop' || entity.status === 'pick')
    .sort((a, b) => a.round - b.round);
  const steps: VetoStep[] = [];
  for (const [index, entity] of votes.entries()) {
    const map = faceitMap(entity.guid);
    if (map === decider) {
      if (index !== votes.length - 1) {
        throw upstream(
          `the FACEIT veto history has ${map} in round ${entity.round}, yet the match plays it as the decider`,
        );
      }
      continue;
    }
    const type = entity.status === 'drop' ? 'ban' : 'pick';
    steps.push({ type, team: sideOf(entity, map), map });
  }
  steps.push({ type: 'decider', map: decider });
  const picks = steps.filter((step) => step.type === 'pick').map((step) => step.map);
  const listed = series.slice(0, -1);
  if (picks.join() !== listed.join()) {
    throw upstream(
      `the FACEIT veto history (picks: ${picks.join(', ') || 'none'}) does not match the series maps of the match (${series.join(', ')})`,
    );
  }
  return steps;
}

/** The series maps once the veto is over; a 409 while it is not. */
function availableSeriesMaps(matchId: string, info: FaceitMatchInfo): string[] {
  if (BEFORE_VETO.has(info.status)) {
    throw new ServiceError(
      'conflict',
      `the FACEIT match ${matchId} is ${info.status}: its veto is not available yet`,
    );
  }
  const maps = info.seriesMaps ?? [];
  if (maps.length === 0) {
    if (ENDED.has(info.status)) {
      throw new ServiceError(
        'conflict',
        `the FACEIT match ${matchId} was ${info.status} before its map vote`,
      );
    }
    throw new ServiceError(
      'conflict',
      `the FACEIT match ${matchId} has no finished map vote yet (${info.status})`,
    );
  }
  if (info.bestOf !== null && maps.length < info.bestOf) {
    throw new ServiceError(
      'conflict',
      `the FACEIT match ${matchId} has ${maps.length} of its ${info.bestOf} maps so far: the veto is still running`,
    );
  }
  return maps;
}

function readTeams(teams: unknown): { teamA: Team; teamB: Team } {
  const checkedTeams = checked(FaceitTeams, teams, 'the FACEIT match teams');
  return {
    teamA: teamOf(checkedTeams.faction1.name, checkedTeams.faction1.avatar, 'FACEIT faction1'),
    teamB: teamOf(checkedTeams.faction2.name, checkedTeams.faction2.avatar, 'FACEIT faction2'),
  };
}

// FACEIT lists one series map per game to play, so the map list tells the format when no field does.
function boFormatOf(info: FaceitMatchInfo, seriesMaps: readonly string[]): BoFormat {
  const bestOf = info.bestOf ?? seriesMaps.length;
  const format = BO_FORMATS[bestOf];
  if (format === undefined) {
    throw upstream(`the FACEIT match is a best of ${bestOf}; the service imports bo1, bo3 and bo5`);
  }
  return format;
}

function sideOf(entity: FaceitVoteEntity, map: string): Side {
  if (entity.selected_by === 'faction1') return 'A';
  if (entity.selected_by === 'faction2') return 'B';
  const verb = entity.status === 'drop' ? 'banned' : 'picked';
  throw upstream(
    `the FACEIT veto history does not say which team ${verb} ${map} (selected_by "${entity.selected_by ?? ''}")`,
  );
}

function faceitMap(guid: string): string {
  const map = normalizeMapName(guid);
  if (map === null) throw upstream(`FACEIT names a map the service cannot read: "${guid}"`);
  return map;
}

/** The value typed by its schema, or a 502 naming the first field that is wrong. */
function checked<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value).First();
  const where = first ? ` (${first.path || '/'}: ${first.message})` : '';
  throw upstream(`${what} does not have the expected shape${where}`);
}

/** Data API times are Unix seconds; the internal API uses ISO strings (or milliseconds). */
function isoTime(value: number | string | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '' || value === 0) return undefined;
  const ms = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(value);
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
