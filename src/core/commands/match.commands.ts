import { Type } from '@sinclair/typebox';
import { mapLabel, normalizeMapName } from '../../../machines/map-names.ts';
import { explainMapResult } from '../../../machines/match.machine.ts';
import { MatchSummarySchema } from '../../protocol/answers.ts';
import { conflict, invalidPayload } from '../../protocol/errors.ts';
import {
  BoFormatSchema,
  MapNameSchema,
  strict,
  TeamFormatSchema,
  TeamSchema,
} from '../../protocol/schemas.ts';
import { matchSummaryOf } from '../views.ts';
import type { AnyCommand, CommandContext } from './command.ts';
import { defineCommand } from './command.ts';

const summaryOf = ({ hub }: CommandContext) => matchSummaryOf(hub.snapshots());

/** The series index of a map given as its number (1 to 5, also as text) or as a map name in the series. */
function seriesIndex({ hud }: CommandContext, ref: number | string): number {
  const maps = hud.snapshot('match').context.maps;
  const inSeries = () =>
    maps.length > 0 ? maps.map((entry, i) => `${i + 1}. ${mapLabel(entry.map)}`).join(', ') : 'none yet';
  const asNumber = typeof ref === 'number' ? ref : /^\s*\d+\s*$/.test(ref) ? Number(ref) : null;
  if (asNumber !== null) {
    if (!Number.isInteger(asNumber) || asNumber < 1 || asNumber > 5) {
      throw invalidPayload(`map: the series number is 1 to 5, got ${ref}`);
    }
    if (asNumber > maps.length) {
      throw conflict(
        `map ${asNumber} of the series is empty (series maps: ${inSeries()}); set the veto first`,
      );
    }
    return asNumber - 1;
  }
  const name = normalizeMapName(String(ref));
  if (!name) throw invalidPayload(`map: "${ref}" is neither a series number (1 to 5) nor a map name`);
  const index = maps.findIndex((entry) => entry.map === name);
  if (index < 0)
    throw conflict(`${name} is not in the series (series maps: ${inSeries()}); set the veto first`);
  return index;
}

const getMatch = defineCommand({
  id: 'get_match',
  description: 'The match: event, formats, teams, series maps with scores, series score and veto.',
  payload: null,
  needsMainWindow: true,
  stateKeys: [],
  result: MatchSummarySchema,
  run: summaryOf,
});

const setTeams = defineCommand({
  id: 'set_teams',
  description:
    'Sets team A and team B (renaming them everywhere: map results, picks, veto, versus scene); boFormat sets the series length.',
  payload: Type.Object(
    { teamA: TeamSchema, teamB: TeamSchema, boFormat: Type.Optional(BoFormatSchema) },
    strict,
  ),
  needsMainWindow: true,
  stateKeys: [],
  result: MatchSummarySchema,
  run: (context, { teamA, teamB, boFormat }) => {
    context.hud.send('match', { type: 'match.teams.set', teamA, teamB, ...(boFormat ? { boFormat } : {}) });
    return summaryOf(context);
  },
});

const setMapResult = defineCommand({
  id: 'set_map_result',
  description:
    'Sets the score of a series map (its number 1 to 5 or its name); finished true marks it played and sets the winner, omitted keeps the current value.',
  payload: Type.Object(
    {
      map: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), MapNameSchema], {
        description: 'Series number 1 to 5, or a map name that is in the series',
      }),
      scoreA: Type.Integer({ minimum: 0, maximum: 99 }),
      scoreB: Type.Integer({ minimum: 0, maximum: 99 }),
      finished: Type.Optional(Type.Boolean()),
    },
    strict,
  ),
  needsMainWindow: true,
  stateKeys: [],
  result: MatchSummarySchema,
  run: (context, { map, scoreA, scoreB, finished }) => {
    const index = seriesIndex(context, map);
    const result = { index, scoreA, scoreB, ...(finished !== undefined ? { finished } : {}) };
    const problem = explainMapResult(context.hud.snapshot('match').context, result);
    if (problem) throw invalidPayload(problem);
    context.hud.send('match', { type: 'match.mapResult.set', ...result });
    return summaryOf(context);
  },
});

const setEventName = defineCommand({
  id: 'set_event_name',
  description: 'Sets the event name shown on the HUD (at most 120 characters).',
  payload: Type.Object({ name: Type.String({ maxLength: 120 }) }, strict),
  needsMainWindow: true,
  stateKeys: [],
  result: MatchSummarySchema,
  run: (context, { name }) => {
    context.hud.send('match', { type: 'match.eventName.set', name });
    return summaryOf(context);
  },
});

const setTeamFormat = defineCommand({
  id: 'set_team_format',
  description: 'Sets the team size: auto, 1v1, 2v2, 3v3 or 5v5.',
  payload: Type.Object({ format: TeamFormatSchema }, strict),
  needsMainWindow: true,
  stateKeys: [],
  result: MatchSummarySchema,
  run: (context, { format }) => {
    context.hud.send('match', { type: 'match.teamFormat.set', format });
    return summaryOf(context);
  },
});

export const matchCommands: AnyCommand[] = [getMatch, setTeams, setMapResult, setEventName, setTeamFormat];
