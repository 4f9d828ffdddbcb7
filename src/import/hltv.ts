import { type CheerioAPI, load } from 'cheerio';
import { normalizeMapName } from '../../machines/map-names.ts';
import type { BoFormat, Side, Team, VetoStep } from '../../machines/veto-rules.ts';
import { ServiceError } from '../protocol/errors.ts';
import type { SourceClient } from './fetch-source.ts';
import type { ImportSources } from './import-sources.ts';
import type { ImportedVeto } from './imported-veto.ts';
import { httpUrl, teamOf } from './team-of.ts';

/**
 * HLTV match pages: teams (and logos) from `div.teamsBox`, the format from the first
 * `div.veto-box` ("Best of 3 (LAN)"), the veto from the second one, one line per step:
 * "1. FaZe removed Train", "3. Vitality picked Nuke", "7. Mirage was left over".
 */

const BO_FORMATS: Record<string, BoFormat> = { '1': 'bo1', '3': 'bo3', '5': 'bo5' };

const upstream = (message: string) => new ServiceError('upstream_error', message);

/** A cheerio selection (cheerio does not re-export its node types). */
type Selection = ReturnType<CheerioAPI>;

export async function importHltvMatch(
  target: { matchId: string; path: string },
  context: { client: SourceClient; sources: ImportSources },
): Promise<ImportedVeto> {
  const url = `${context.sources.hltvUrl}${target.path}`;
  const html = await context.client.html({
    source: 'HLTV',
    what: 'match page',
    url,
    notFound: 'the match does not exist there or is not public',
  });
  return parseHltvMatchPage(html, target.matchId, url);
}

/** The veto of an HLTV match page; 409 while the page has no veto yet, 502 when it is not a readable match page. */
export function parseHltvMatchPage(html: string, matchId: string, pageUrl: string): ImportedVeto {
  const $ = load(html);
  const box = $('div.teamsBox').first();
  if (box.length === 0) {
    throw upstream(
      `the HLTV page of match ${matchId} has no teams box (div.teamsBox): not a match page, or HLTV changed its layout`,
    );
  }
  const vetoBoxes = $('div.veto-box');
  const lines = vetoBoxes.length < 2 ? [] : vetoLines($, vetoBoxes.eq(1));
  // Before the teams read: an upcoming match may still show "TBD" twice, which is no reason for a 502.
  if (lines.length === 0) {
    throw new ServiceError('conflict', `HLTV has not published the veto of match ${matchId} yet`);
  }
  const [teamA, teamB] = readTeams($, box, pageUrl);
  const veto: ImportedVeto = {
    provider: 'hltv',
    matchId,
    teamA,
    teamB,
    boFormat: boFormatOf(vetoBoxes.eq(0).text(), matchId),
    steps: stepsOf(lines, teamA.name, teamB.name, matchId),
  };
  const matchTime = matchTimeOf(box);
  if (matchTime !== undefined) veto.matchTime = matchTime;
  return veto;
}

function readTeams($: CheerioAPI, box: Selection, pageUrl: string): [Team, Team] {
  const teams = box.find('div.team').toArray();
  const [first, second] = teams;
  if (teams.length !== 2 || first === undefined || second === undefined) {
    throw upstream(`the HLTV teams box holds ${teams.length} teams instead of 2`);
  }
  const read = (element: typeof first, label: string): Team => {
    const team = $(element);
    // HLTV prints a day and a night variant of some logos; the day one suits a broadcast overlay.
    const logos = team.find('img.logo');
    const logo = logos.not('.night-only').first().attr('src') ?? logos.first().attr('src');
    return teamOf(team.find('.teamName').first().text(), httpUrl(logo, pageUrl), label);
  };
  const teamA = read(first, 'the first team of the HLTV page');
  const teamB = read(second, 'the second team of the HLTV page');
  if (teamA.name.toLowerCase() === teamB.name.toLowerCase()) {
    throw upstream(`both teams of the HLTV page are called ${teamA.name}, so the veto cannot be attributed`);
  }
  return [teamA, teamB];
}

/** The text of each innermost line of the veto box: "1. FaZe removed Train". */
function vetoLines($: CheerioAPI, vetoBox: Selection): string[] {
  return vetoBox
    .find('div')
    .filter((_, element) => $(element).children('div').length === 0)
    .map((_, element) => $(element).text().replace(/\s+/g, ' ').trim())
    .get()
    .filter((line) => /^\d+\.\s/.test(line));
}

function boFormatOf(formatText: string, matchId: string): BoFormat {
  const bestOf = /best of (\d+)/i.exec(formatText)?.[1];
  if (bestOf === undefined)
    throw upstream(`the HLTV page of match ${matchId} does not say the format ("Best of ...")`);
  const format = BO_FORMATS[bestOf];
  if (format === undefined)
    throw upstream(`the HLTV match ${matchId} is a best of ${bestOf}; the service imports bo1, bo3 and bo5`);
  return format;
}

/**
 * Steps in the order the page numbers them. Team names are matched longest first, so a team
 * called "Vitality" never claims a line of "Vitality.Bee".
 */
function stepsOf(lines: readonly string[], nameA: string, nameB: string, matchId: string): VetoStep[] {
  const names: [string, Side][] = [
    [nameA, 'A'],
    [nameB, 'B'],
  ];
  names.sort((x, y) => y[0].length - x[0].length);
  const steps: VetoStep[] = [];
  for (const [index, line] of lines.entries()) {
    const numbered = /^(\d+)\.\s+(.+)$/.exec(line);
    const number = Number(numbered?.[1]);
    const text = numbered?.[2] ?? '';
    if (number !== index + 1) {
      throw upstream(`the HLTV veto of match ${matchId} is not numbered 1, 2, 3...: "${line}"`);
    }
    const leftOver = /^(.+?) was left over$/i.exec(text);
    if (leftOver?.[1] !== undefined) {
      if (index !== lines.length - 1)
        throw upstream(`the HLTV veto of match ${matchId} has steps after the left-over map`);
      steps.push({ type: 'decider', map: hltvMap(leftOver[1], line) });
      continue;
    }
    const step = teamStep(text, names);
    if (step === null) {
      throw upstream(
        `the HLTV veto line "${line}" names neither ${nameA} nor ${nameB}, or is not a ban or a pick`,
      );
    }
    steps.push({ type: step.type, team: step.team, map: hltvMap(step.map, line) });
  }
  if (steps.at(-1)?.type !== 'decider') {
    throw new ServiceError(
      'conflict',
      `HLTV shows only part of the veto of match ${matchId} so far (no map left over yet)`,
    );
  }
  return steps;
}

function teamStep(
  text: string,
  names: readonly [string, Side][],
): { type: 'ban' | 'pick'; team: Side; map: string } | null {
  const lower = text.toLowerCase();
  for (const [name, team] of names) {
    if (!lower.startsWith(`${name.toLowerCase()} `)) continue;
    const action = /^(removed|picked)\s+(.+)$/i.exec(text.slice(name.length + 1));
    if (action?.[1] === undefined || action[2] === undefined) continue;
    return { type: action[1].toLowerCase() === 'removed' ? 'ban' : 'pick', team, map: action[2] };
  }
  return null;
}

function hltvMap(name: string, line: string): string {
  const map = normalizeMapName(name);
  if (map === null) throw upstream(`the HLTV veto line "${line}" names a map the service cannot read`);
  return map;
}

/** The scheduled start HLTV prints (milliseconds in data-unix), as ISO 8601. */
function matchTimeOf(box: Selection): string | undefined {
  const unix = Number(box.find('div.time[data-unix]').first().attr('data-unix'));
  if (!Number.isFinite(unix) || unix <= 0) return undefined;
  return new Date(unix).toISOString();
}
