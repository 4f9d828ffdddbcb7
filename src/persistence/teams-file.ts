/**
 * The database of teams and players on disk: `teams.json` in the data directory, its own file
 * beside the saved state (docs/teams-and-players.md, "On disk"). Written whole through atomic-file.ts
 * at each change, before the change is answered: acknowledged means saved, and a kill -9 finds the
 * old file or the new one. A damaged file costs only itself: the saved state never reads it, and
 * within it a record that cannot be read costs that record.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { emptyTeamsDocument } from '../core/teams-database.ts';
import type { PlayerRecord, TeamRecord, TeamsDocument } from '../protocol/teams.ts';
import {
  PlayerRecordSchema,
  TEAMS_FORMAT,
  TEAMS_FORMAT_VERSION,
  TeamRecordSchema,
} from '../protocol/teams.ts';
import type { AsideWords } from './aside.ts';
import { asideName, moveAside, syncedCopy } from './aside.ts';
import { writeFileAtomic } from './atomic-file.ts';
import { OWNER_ONLY, TEAMS_FILE } from './data-dir.ts';
import { describeFsError } from './errno-words.ts';

export const teamsFileOf = (dataDir: string) => join(dataDir, TEAMS_FILE);

/** The teams file moved or copied aside (aside.ts): the database starts empty without it. */
const TEAMS_ASIDE: AsideWords = {
  what: 'teams and players',
  instead: 'starting with none',
  notMoved: 'the next save replaces it',
};

/** Writes the whole database (owner-only, atomic and synced). */
export const writeTeamsFile = (dataDir: string, document: TeamsDocument): Promise<void> =>
  writeFileAtomic(teamsFileOf(dataDir), `${JSON.stringify(document, null, 1)}\n`, { mode: OWNER_ONLY });

/**
 * Reads the database as the last write left it. None yet: empty. Not JSON, or another format or
 * version: moved aside (`teams.json.corrupt-<time>`), empty, a warning. Records that cannot be read
 * (a hand edit): left out one by one, the file as it was copied aside (`teams.json.as-found-<time>`),
 * a warning naming each; the rest is kept.
 */
export async function loadTeamsFile(dataDir: string, log: Logger): Promise<TeamsDocument> {
  const file = teamsFileOf(dataDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyTeamsDocument();
    return aside(file, 'unreadable', describeFsError(error), log);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return aside(file, 'corrupt', `not JSON: ${(error as Error).message}`, log);
  }
  const doc = raw as Partial<Record<keyof TeamsDocument, unknown>> | null;
  if (doc === null || typeof doc !== 'object' || doc.format !== TEAMS_FORMAT) {
    return aside(file, 'corrupt', `not a ${TEAMS_FORMAT} document`, log);
  }
  if (doc.version !== TEAMS_FORMAT_VERSION) {
    return aside(
      file,
      'corrupt',
      `format version ${String(doc.version)}, this server reads ${TEAMS_FORMAT_VERSION}`,
      log,
    );
  }
  const { document, lost } = readRecords(doc.teams, doc.players);
  if (lost.length > 0) {
    const copy = asideName(file, 'as-found');
    const kept = await syncedCopy(file, copy, log, TEAMS_ASIDE.what);
    log.warn(
      { file, lost, ...(kept ? { copy } : {}) },
      `teams and players ${file}: left out what cannot be read (${lost.join('; ')}); the rest is kept${kept ? ` (the file as it was: ${copy})` : ''}`,
    );
  }
  return document;
}

/** The records that read, each checked alone; a player naming a team that is not there keeps no team. */
export function readRecords(
  teamsIn: unknown,
  playersIn: unknown,
): { document: TeamsDocument; lost: string[] } {
  const lost: string[] = [];
  const teams: TeamRecord[] = [];
  const players: PlayerRecord[] = [];
  const ids = new Set<string>();
  const steamids = new Set<string>();
  for (const [i, team] of (Array.isArray(teamsIn) ? teamsIn : []).entries()) {
    if (!Value.Check(TeamRecordSchema, team)) lost.push(`teams[${i}]: ${firstError(TeamRecordSchema, team)}`);
    else if (ids.has(team.id)) lost.push(`teams[${i}]: id ${team.id} twice`);
    else {
      ids.add(team.id);
      teams.push(team);
    }
  }
  if (!Array.isArray(teamsIn)) lost.push('teams: not a list');
  for (const [i, player] of (Array.isArray(playersIn) ? playersIn : []).entries()) {
    if (!Value.Check(PlayerRecordSchema, player))
      lost.push(`players[${i}]: ${firstError(PlayerRecordSchema, player)}`);
    else if (ids.has(player.id)) lost.push(`players[${i}]: id ${player.id} twice`);
    else if (player.steamid !== null && steamids.has(player.steamid)) {
      lost.push(`players[${i}]: SteamID64 ${player.steamid} twice`);
    } else {
      ids.add(player.id);
      if (player.steamid !== null) steamids.add(player.steamid);
      const team =
        player.team !== null && !teams.some((entry) => entry.id === player.team) ? null : player.team;
      players.push({ ...player, team });
    }
  }
  if (!Array.isArray(playersIn)) lost.push('players: not a list');
  return {
    document: { format: TEAMS_FORMAT, version: TEAMS_FORMAT_VERSION, teams, players },
    lost,
  };
}

function firstError(schema: typeof TeamRecordSchema | typeof PlayerRecordSchema, value: unknown): string {
  const first = Value.Errors(schema, value).First();
  return first ? `${first.path || '/'} ${first.message}` : 'not valid';
}

/** Moves the unusable file aside (or says it could not be): the database starts empty. */
async function aside(file: string, reason: string, detail: string, log: Logger): Promise<TeamsDocument> {
  await moveAside(file, reason, log, detail, TEAMS_ASIDE);
  return emptyTeamsDocument();
}
