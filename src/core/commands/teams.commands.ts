import { Value } from '@sinclair/typebox/value';
import { invalidPayload } from '../../protocol/errors.ts';
import { TeamsDocumentSchema } from '../../protocol/teams.ts';
import { teamsFromCsv, teamsToCsv } from '../teams-csv.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';

const saveTeam = defineCommand('save_team', {
  run: async ({ teams }, save) => ({ team: await teams.saveTeam(save) }),
});

const removeTeam = defineCommand('remove_team', {
  run: async ({ teams }, { team }) => ({ removed: await teams.removeTeam(team) }),
});

const savePlayer = defineCommand('save_player', {
  run: async ({ teams }, save) => ({ player: await teams.savePlayer(save) }),
});

const removePlayer = defineCommand('remove_player', {
  run: async ({ teams }, { player }) => ({ removed: await teams.removePlayer(player) }),
});

/** The import's text as a document of format 1, every record checked; refused in words, nothing changed. */
function documentOf(format: 'json' | 'csv', data: string) {
  let document: unknown;
  if (format === 'csv') document = teamsFromCsv(data);
  else {
    try {
      document = JSON.parse(data);
    } catch (error) {
      throw invalidPayload(`data is not JSON: ${(error as Error).message}`);
    }
  }
  if (!Value.Check(TeamsDocumentSchema, document)) {
    const first = Value.Errors(TeamsDocumentSchema, document).First();
    throw invalidPayload(
      `data is not a teams document of format 1: ${first ? `${first.path || '/'} ${first.message}` : 'not valid'}`,
    );
  }
  return document;
}

const importTeams = defineCommand('import_teams', {
  run: ({ teams }, { format, data }) => teams.importDocument(documentOf(format, data)),
});

const readRosters = defineCommand('read_rosters', {
  run: ({ teams }, source) => teams.readRosters(source),
});

const saveRosters = defineCommand('save_rosters', {
  run: ({ teams }, { confirm, ...source }) => teams.saveRosters(source, confirm ?? []),
});

const exportTeams = defineCommand('export_teams', {
  run: ({ teams }, { format }) => {
    const document = teams.document();
    return {
      format,
      data: format === 'csv' ? teamsToCsv(document) : `${JSON.stringify(document, null, 1)}\n`,
    };
  },
});

export const teamsCommands: AnyCommand[] = [
  saveTeam,
  removeTeam,
  savePlayer,
  removePlayer,
  importTeams,
  readRosters,
  saveRosters,
  exportTeams,
];
