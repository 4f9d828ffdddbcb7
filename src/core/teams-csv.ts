/**
 * The database as CSV, format 1 (docs/teams-and-players.md, "CSV"): a first line naming the format,
 * a header, then one row per team and one per player, a team before its players. Read and written
 * with csv-parse and csv-stringify, so quotes, commas and line breaks in names round-trip.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { invalidPayload } from '../protocol/errors.ts';
import type { PlayerRecord, TeamRecord, TeamsDocument } from '../protocol/teams.ts';
import { PLAYER_ROLES, TEAMS_FORMAT, TEAMS_FORMAT_VERSION } from '../protocol/teams.ts';

export const CSV_FIRST_LINE = `# ${TEAMS_FORMAT} ${TEAMS_FORMAT_VERSION}`;
export const CSV_COLUMNS = [
  'kind',
  'id',
  'name',
  'tag',
  'real_name',
  'steamid',
  'country',
  'image',
  'team',
  'role',
] as const;
type Row = Record<(typeof CSV_COLUMNS)[number], string>;

export function teamsToCsv(document: TeamsDocument): string {
  const rows: string[][] = [];
  const placed = new Set<string>();
  const playerRow = (player: PlayerRecord) => {
    placed.add(player.id);
    rows.push([
      'player',
      player.id,
      player.name,
      '',
      player.realName,
      player.steamid ?? '',
      player.country ?? '',
      player.photo ?? '',
      player.team ?? '',
      player.role,
    ]);
  };
  for (const team of document.teams) {
    rows.push([
      'team',
      team.id,
      team.name,
      team.tag ?? '',
      '',
      '',
      team.country ?? '',
      team.logo ?? '',
      '',
      '',
    ]);
    for (const player of document.players) if (player.team === team.id) playerRow(player);
  }
  for (const player of document.players) if (!placed.has(player.id)) playerRow(player);
  return `${CSV_FIRST_LINE}\n${stringify(rows, { header: true, columns: [...CSV_COLUMNS] })}`;
}

/**
 * A CSV of format 1 as a document (its records still to be checked as any import's). A row's team
 * is a team row's id or name in the same file; an id left blank is given one.
 */
export function teamsFromCsv(text: string): TeamsDocument {
  const [first, ...rest] = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (first?.trim() !== CSV_FIRST_LINE) {
    throw invalidPayload(`the CSV's first line must be "${CSV_FIRST_LINE}" (the format and its version)`);
  }
  let rows: Row[];
  try {
    rows = parse(rest.join('\n'), { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw invalidPayload(`the CSV cannot be read: ${(error as Error).message}`);
  }
  const header = rows.length > 0 ? Object.keys(rows[0] as Row) : [];
  const missing = CSV_COLUMNS.filter((column) => rows.length > 0 && !header.includes(column));
  if (missing.length > 0) throw invalidPayload(`the CSV's header lacks ${missing.join(', ')}`);
  const teams: TeamRecord[] = [];
  const players: PlayerRecord[] = [];
  const blank = (value: string | undefined) => (value === undefined || value === '' ? null : value);
  for (const [i, row] of rows.entries()) {
    const line = `CSV row ${i + 1}`;
    if (row.kind === 'team') {
      teams.push({
        id: row.id || `t-csv${i + 1}`,
        name: row.name,
        tag: blank(row.tag),
        logo: blank(row.image),
        country: blank(row.country),
      });
    } else if (row.kind === 'player') {
      const teamRef = blank(row.team);
      const team =
        teamRef === null ? null : teams.find((entry) => entry.id === teamRef || entry.name === teamRef);
      if (teamRef !== null && !team)
        throw invalidPayload(`${line}: team "${teamRef}" has no team row above it`);
      const role = row.role || 'player';
      if (!(PLAYER_ROLES as readonly string[]).includes(role)) {
        throw invalidPayload(`${line}: role is player or coach, not "${role}"`);
      }
      players.push({
        id: row.id || `p-csv${i + 1}`,
        steamid: blank(row.steamid),
        name: row.name,
        realName: row.real_name ?? '',
        country: blank(row.country),
        photo: blank(row.image),
        team: team?.id ?? null,
        role: role as PlayerRecord['role'],
      });
    } else {
      throw invalidPayload(`${line}: kind is team or player, not "${row.kind}"`);
    }
  }
  return { format: TEAMS_FORMAT, version: TEAMS_FORMAT_VERSION, teams, players };
}
