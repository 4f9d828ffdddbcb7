import { mapLabel, normalizeMapName } from '../../../machines/map-names.ts';
import { explainMapResult } from '../../../machines/match.machine.ts';
import { conflict, invalidPayload } from '../../protocol/errors.ts';
import { matchSummaryOf } from '../views.ts';
import type { AnyCommand, CommandContext } from './command.ts';
import { defineCommand } from './command.ts';
import { recorded } from './history.commands.ts';

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

const getMatch = defineCommand('get_match', {
  run: summaryOf,
});

const setTeams = defineCommand('set_teams', {
  run: (context, payload) => {
    // A saved team named by its name or tag brings its name, tag and logo (and so its lineup, which
    // the pages find by the name): docs/teams-and-players.md, "Setting up a match".
    const teamA = context.teams.teamForMatch(payload.teamA);
    const teamB = context.teams.teamForMatch(payload.teamB);
    const { boFormat } = payload;
    const label = `Teams: ${teamA.name} vs ${teamB.name}${boFormat ? ` (${boFormat})` : ''}`;
    recorded(context, label, () =>
      context.hud.send('match', { type: 'match.teams.set', teamA, teamB, ...(boFormat ? { boFormat } : {}) }),
    );
    return summaryOf(context);
  },
});

const setMapResult = defineCommand('set_map_result', {
  run: (context, { map, scoreA, scoreB, finished }) => {
    const index = seriesIndex(context, map);
    const result = { index, scoreA, scoreB, ...(finished !== undefined ? { finished } : {}) };
    const problem = explainMapResult(context.hud.snapshot('match').context, result);
    if (problem) throw invalidPayload(problem);
    const entry = context.hud.snapshot('match').context.maps[index];
    const label = `Map ${index + 1}${entry ? ` ${mapLabel(entry.map)}` : ''}: ${scoreA}–${scoreB}${result.finished ? ', finished' : ''}`;
    recorded(context, label, () => context.hud.send('match', { type: 'match.mapResult.set', ...result }));
    return summaryOf(context);
  },
});

const setEventName = defineCommand('set_event_name', {
  run: (context, { name }) => {
    recorded(context, name ? `Event name: ${name}` : 'Event name cleared', () =>
      context.hud.send('match', { type: 'match.eventName.set', name }),
    );
    return summaryOf(context);
  },
});

const setTeamFormat = defineCommand('set_team_format', {
  run: (context, { format }) => {
    recorded(context, `Team format: ${format}`, () =>
      context.hud.send('match', { type: 'match.teamFormat.set', format }),
    );
    return summaryOf(context);
  },
});

export const matchCommands: AnyCommand[] = [getMatch, setTeams, setMapResult, setEventName, setTeamFormat];
