/**
 * The rosters of a match from its source (issue 34, docs/teams-and-players.md, "Rosters from a match
 * page"): a FACEIT match object's factions (nickname, game id = SteamID64, avatar) and an HLTV match
 * page's lineups box (nickname, real name, flag, photo). The same sources, client and budget as the
 * veto import; nothing is saved here.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { load } from 'cheerio';
import { ServiceError } from '../protocol/errors.ts';
import { STEAMID64_PATTERN } from '../protocol/teams.ts';
import { createImportBudget, createSourceClient } from './fetch-source.ts';
import { faceitDataApiKey, type ImportSources, trimTrailingSlashes } from './import-sources.ts';
import { resolveImportTarget } from './import-target.ts';
import { IMPORT_TIMEOUT_MS } from './match-importer.ts';
import { httpUrl } from './team-of.ts';

export interface ImportedPlayer {
  name: string;
  steamid: string | null;
  realName: string;
  country: string | null;
  photo: string | null;
}

export interface ImportedRoster {
  name: string;
  logo: string | null;
  country: string | null;
  players: ImportedPlayer[];
}

export interface ImportedRosters {
  provider: 'faceit' | 'hltv';
  matchId: string;
  teams: ImportedRoster[];
}

const upstream = (message: string) => new ServiceError('upstream_error', message);
const STEAMID64 = new RegExp(STEAMID64_PATTERN);

const Maybe = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));
/** A FACEIT roster entry: the Data API's snake case, or the internal match v2's camel case. */
const FaceitMember = Type.Object({
  nickname: Type.String(),
  avatar: Maybe(Type.String()),
  game_player_id: Maybe(Type.String()),
  gameId: Maybe(Type.String()),
});
const FaceitFaction = Type.Object({
  name: Type.String(),
  avatar: Maybe(Type.String()),
  roster: Maybe(Type.Array(FaceitMember)),
});
const FaceitTeams = Type.Object({ faction1: FaceitFaction, faction2: FaceitFaction });

/** The factions of a FACEIT match object (either endpoint's `teams`): two rosters, players by game id. */
export function faceitRosters(teams: unknown): ImportedRoster[] {
  if (!Value.Check(FaceitTeams, teams)) {
    const first = Value.Errors(FaceitTeams, teams).First();
    throw upstream(
      `the FACEIT match teams do not have the expected shape (${first?.path ?? '/'}: ${first?.message ?? ''})`,
    );
  }
  const roster = (faction: Static<typeof FaceitFaction>): ImportedRoster => ({
    name: faction.name.trim(),
    logo: httpUrl(faction.avatar) ?? null,
    country: null,
    players: (faction.roster ?? []).map((member) => {
      const id = member.game_player_id ?? member.gameId ?? '';
      return {
        name: member.nickname.trim(),
        steamid: STEAMID64.test(id) ? id : null,
        realName: '',
        country: null,
        photo: httpUrl(member.avatar) ?? null,
      };
    }),
  });
  return [roster(teams.faction1), roster(teams.faction2)];
}

/** A flag's image (`/img/static/flags/30x20/UA.gif`) as its ISO code; EU, WORLD and the like are none. */
function countryOfFlag(src: string | undefined): string | null {
  const code = /flags\/\d+x\d+\/([A-Za-z]{2})\.(?:gif|png|svg)/.exec(src ?? '')?.[1];
  return code === undefined || code.toUpperCase() === 'EU' ? null : code.toUpperCase();
}

/** "Andrii 'npl' Kukharskyi" → "Andrii Kukharskyi": HLTV's photo title, the nickname quoted inside. */
function realNameOf(title: string | undefined, nickname: string): string {
  if (!title) return '';
  return title
    .replace(`'${nickname}'`, ' ')
    .replace(/'[^']*'/, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * An HLTV match page's teams (the teams box: name, logo, the flag beside each) and their lineups
 * (the lineups box: per team a row of photos, then a row of flags and nicknames, in the same order).
 * A page without a lineups box gives the teams without players.
 */
export function parseHltvRosters(html: string, matchId: string, pageUrl: string): ImportedRoster[] {
  const $ = load(html);
  const box = $('div.teamsBox').first();
  const boxTeams = box.find('div.team').toArray();
  if (boxTeams.length !== 2) {
    throw upstream(`the HLTV page of match ${matchId} has no teams box with two teams (div.teamsBox)`);
  }
  const teams: ImportedRoster[] = boxTeams.map((element, i) => {
    const team = $(element);
    const logos = team.find('img.logo');
    const logo = logos.not('.night-only').first().attr('src') ?? logos.first().attr('src');
    // The big flag of each team sits beside the box, marked team1 and team2.
    const flag = $(`img.team${i + 1}`)
      .filter((_, img) => /flags\//.test($(img).attr('src') ?? ''))
      .first();
    return {
      name: team.find('.teamName').first().text().replace(/\s+/g, ' ').trim(),
      logo: httpUrl(logo, pageUrl) ?? null,
      country: countryOfFlag(flag.attr('src')),
      players: [],
    };
  });
  if (teams.some((team) => team.name === ''))
    throw upstream(`a team of the HLTV page of match ${matchId} has no name`);
  $('div.lineups div.lineup').each((_, element) => {
    const lineup = $(element);
    const name = lineup.find('.box-headline a.text-ellipsis').first().text().replace(/\s+/g, ' ').trim();
    const team = teams.find((entry) => entry.name.toLowerCase() === name.toLowerCase());
    if (!team) return;
    const photos = lineup.find('img.player-photo').toArray();
    lineup.find('div.flagAlign').each((index, cell) => {
      const nickname = $(cell).find('.text-ellipsis').first().text().replace(/\s+/g, ' ').trim();
      if (nickname === '') return;
      const photo = photos[index] ? $(photos[index]) : null;
      team.players.push({
        name: nickname,
        steamid: null,
        realName: realNameOf(photo?.attr('title'), nickname),
        country: countryOfFlag($(cell).find('img.flag').attr('src')),
        photo: httpUrl(photo?.attr('src'), pageUrl) ?? null,
      });
    });
  });
  return teams;
}

export interface RosterReaderOptions {
  sources: () => ImportSources;
  /** The whole read, every request included: the veto import's budget (the spec's 20 s) by default. */
  timeoutMs?: number;
}

/** The rosters of the match a payload names (as import_match_veto names one). */
export async function readRosters(
  payload: { url?: string; platformMatchId?: string },
  options: RosterReaderOptions,
): Promise<ImportedRosters> {
  const target = resolveImportTarget(payload);
  const given = options.sources();
  const sources: ImportSources = {
    ...given,
    faceitUrl: trimTrailingSlashes(given.faceitUrl),
    faceitDataApiUrl: trimTrailingSlashes(given.faceitDataApiUrl),
    hltvUrl: trimTrailingSlashes(given.hltvUrl),
  };
  const budget = createImportBudget('the roster import', options.timeoutMs ?? IMPORT_TIMEOUT_MS);
  const client = createSourceClient({ signal: budget.signal });
  try {
    if (target.provider === 'hltv') {
      const url = `${sources.hltvUrl}${target.path}`;
      const html = await client.html({
        source: 'HLTV',
        what: 'match page',
        url,
        notFound: 'the match does not exist there or is not public',
      });
      return {
        provider: 'hltv',
        matchId: target.matchId,
        teams: parseHltvRosters(html, target.matchId, url),
      };
    }
    const id = encodeURIComponent(target.matchId);
    const apiKey = faceitDataApiKey(sources);
    const body = apiKey
      ? await client.json({
          source: 'the FACEIT Data API',
          what: 'match',
          url: `${sources.faceitDataApiUrl}/matches/${id}`,
          notFound: 'the match does not exist there or is not public',
          headers: { Authorization: `Bearer ${apiKey}` },
        })
      : await client.json({
          source: 'FACEIT',
          what: 'match',
          url: `${sources.faceitUrl}/api/match/v2/match/${id}`,
          notFound: 'the match does not exist there or is not public',
        });
    const teams = apiKey
      ? (body as { teams?: unknown } | null)?.teams
      : (body as { payload?: { teams?: unknown } } | null)?.payload?.teams;
    return { provider: 'faceit', matchId: target.matchId, teams: faceitRosters(teams) };
  } finally {
    budget.dispose();
  }
}
