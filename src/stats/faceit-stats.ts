import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { PlatformFigures } from '../../machines/panel.machine.ts';
import { conflict, ServiceError, unavailable } from '../protocol/errors.ts';
import { getJson, type PlatformAnswer, type PlatformRequest } from './platform-request.ts';

/**
 * platform_a: FACEIT's Data API v4 (docs.faceit.com/docs/data-api). The player is found by the
 * SteamID64 the game data gives, `GET /players?game=cs2&game_player_id=<steamid64>`, and his figures
 * come from that answer (skill level, Elo) and from `GET /players/{player_id}/stats/cs2` (the
 * lifetime block: K/D, win rate, matches, headshots, ADR, recent results). Both need the server-side
 * key as `Authorization: Bearer <key>`.
 */

export interface FaceitAccess {
  /** The Data API's base, `https://open.faceit.com/data/v4` unless HUD_FACEIT_DATA_API_URL says otherwise. */
  dataApiUrl: string;
  apiKey: string;
}

/** The player as the game data names him: the lookup's key and the name for messages. */
export interface LookedUpPlayer {
  steamid: string;
  name: string;
}

const Nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Figure = Nullable(Type.Union([Type.Number(), Type.String()]));

/** `GET /players`: only the fields read here; the API sends many more. */
const PlayerDetails = Type.Object({
  player_id: Type.String({ minLength: 1 }),
  nickname: Type.String(),
  games: Nullable(
    Type.Object({
      cs2: Nullable(Type.Object({ skill_level: Figure, faceit_elo: Figure })),
    }),
  ),
});

/** `GET /players/{player_id}/stats/cs2`: every lifetime value is a string, "Recent Results" a list. */
const PlayerStats = Type.Object({
  lifetime: Type.Record(Type.String(), Type.Unknown()),
});

export async function faceitFigures(
  player: LookedUpPlayer,
  access: FaceitAccess,
  signal: AbortSignal,
): Promise<PlatformFigures> {
  const who = `${player.name} (SteamID64 ${player.steamid})`;
  const request = (what: string, path: string): PlatformRequest => ({
    source: 'FACEIT',
    what,
    url: `${access.dataApiUrl}${path}`,
    headers: { Authorization: `Bearer ${access.apiKey}` },
  });

  const found = await getJson(
    request('player lookup', `/players?game=cs2&game_player_id=${encodeURIComponent(player.steamid)}`),
    signal,
  );
  if (found.status === 404) {
    throw conflict(`${who} has no FACEIT CS2 account: show the live stats instead`);
  }
  const details = answerOf(found, PlayerDetails, 'player lookup');
  const cs2 = details.games?.cs2;
  if (!cs2) throw conflict(`${who} has a FACEIT account (${details.nickname}) but no CS2 profile there`);

  const stats = await getJson(
    request('lifetime stats', `/players/${encodeURIComponent(details.player_id)}/stats/cs2`),
    signal,
  );
  // A player who has not played CS2 on FACEIT yet has a level and an Elo, and no lifetime stats.
  const lifetime = stats.status === 404 ? {} : answerOf(stats, PlayerStats, 'lifetime stats').lifetime;
  const number = (key: string) => numberOf(lifetime[key]);
  const level = integerOf(cs2.skill_level);
  return {
    nickname: details.nickname,
    level: level !== null && level >= 1 && level <= 10 ? level : null,
    elo: integerOf(cs2.faceit_elo),
    // "Average K/D Ratio" is the ratio; "K/D Ratio" in the lifetime block is a running sum.
    kd: number('Average K/D Ratio'),
    winRate: number('Win Rate %'),
    matches: integerOf(lifetime.Matches),
    headshots: number('Average Headshots %'),
    adr: number('ADR'),
    recent: recentOf(lifetime['Recent Results']),
  };
}

/** The checked body of a 2xx answer, or the refusal its status means. */
function answerOf<T extends TSchema>(answer: PlatformAnswer, schema: T, what: string): Static<T> {
  const { status, statusText } = answer;
  const said = `${status}${statusText ? ` ${statusText}` : ''}`;
  if (status === 401 || status === 403) {
    throw unavailable(
      `FACEIT refused the API key (${said} to the ${what}): check FACEIT_API_KEY, a server-side key of the FACEIT developer portal`,
    );
  }
  if (status === 429) {
    throw new ServiceError(
      'upstream_error',
      `FACEIT answered ${said} to the ${what}: too many requests with this key, try again in a minute`,
    );
  }
  if (status < 200 || status > 299) {
    throw new ServiceError('upstream_error', `FACEIT answered ${said} to the ${what}`);
  }
  if (!Value.Check(schema, answer.body)) {
    throw new ServiceError(
      'upstream_error',
      `FACEIT answered the ${what} with something that is not its answer`,
    );
  }
  return answer.body;
}

/** FACEIT sends its figures as strings ("1.45"); a blank or anything else that is no number is null. */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

function integerOf(value: unknown): number | null {
  const parsed = numberOf(value);
  return parsed === null ? null : Math.round(parsed);
}

/** "Recent Results": "1" a win, "0" a loss, newest last; the last five. */
function recentOf(value: unknown): boolean[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (result): result is string | number => result === '1' || result === '0' || result === 1 || result === 0,
    )
    .map((result) => String(result) === '1')
    .slice(-5);
}
