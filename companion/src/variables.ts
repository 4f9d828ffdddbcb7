/**
 * Variables: the match and the show in words and numbers, for button text and for other modules.
 * `variableValues` is pure; the instance sends only the values that changed.
 */
import type { CompanionVariableDefinition } from '@companion-module/base';
import { type GameView, observerOf } from './hud-state.ts';
import type { Snapshot, Team } from './server-messages.ts';
import { POOL_SIZE, SERIES_MAPS } from './vocabulary.ts';

export type VariableValues = Record<string, string | number>;

const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

export function variableDefinitions(): CompanionVariableDefinition[] {
  return [
    {
      variableId: 'connection_status',
      name: 'Connection: connecting, ok, bad token, unreachable, wrong service, refused, bad config',
    },
    { variableId: 'revision', name: 'Revision of the state shown' },
    { variableId: 'event_name', name: 'Event name' },
    { variableId: 'bo_format', name: 'Series format (bo1, bo3, bo5)' },
    { variableId: 'team_a_name', name: 'Team A name' },
    { variableId: 'team_b_name', name: 'Team B name' },
    { variableId: 'team_a_short', name: 'Team A short tag (the name when none is set)' },
    { variableId: 'team_b_short', name: 'Team B short tag (the name when none is set)' },
    { variableId: 'series_score_a', name: 'Maps won by team A' },
    { variableId: 'series_score_b', name: 'Maps won by team B' },
    { variableId: 'series_score', name: 'Series score, e.g. 1-0' },
    ...range(SERIES_MAPS).flatMap((n) => [
      { variableId: `map_${n}_name`, name: `Series map ${n}: name` },
      { variableId: `map_${n}_score_a`, name: `Series map ${n}: team A score` },
      { variableId: `map_${n}_score_b`, name: `Series map ${n}: team B score` },
      { variableId: `map_${n}_score`, name: `Series map ${n}: score, e.g. 13-9` },
      { variableId: `map_${n}_winner`, name: `Series map ${n}: winner (empty until finished)` },
    ]),
    { variableId: 'veto_next', name: 'Veto: the next step in words, e.g. "FaZe to ban"' },
    { variableId: 'veto_next_team', name: 'Veto: team of the next step (A or B)' },
    { variableId: 'veto_next_type', name: 'Veto: type of the next step (ban or pick)' },
    { variableId: 'veto_remaining', name: 'Veto: remaining maps, comma separated' },
    { variableId: 'veto_remaining_count', name: 'Veto: number of remaining maps' },
    ...range(POOL_SIZE).map((n) => ({ variableId: `veto_remaining_${n}`, name: `Veto: remaining map ${n}` })),
    { variableId: 'veto_revealed', name: 'Veto panel: steps revealed' },
    { variableId: 'veto_total', name: 'Veto panel: steps in the veto' },
    { variableId: 'scene', name: 'Scene shown (empty when none)' },
    { variableId: 'observer_enabled', name: 'Smart observer: on or off' },
    { variableId: 'observer_mode', name: 'Smart observer: mode (auto, suggest)' },
    {
      variableId: 'observer_link',
      name: 'Smart observer: link to the game (empty until the server reports it)',
    },
    {
      variableId: 'observer_suggestion',
      name: 'Smart observer: suggested player (empty until the server reports it)',
    },
    { variableId: 'observer_suggestion_slot', name: 'Smart observer: slot of the suggested player' },
    { variableId: 'observed_name', name: 'Observed player in the game' },
    { variableId: 'observed_slot', name: 'HUD slot of the observed player' },
  ];
}

/** "de_dust2" as a button says it: "dust2" (veto_select takes it with or without de_). */
export function mapWord(name: string): string {
  return name.replace(/^de_/, '');
}

function teamWord(team: Team | null | undefined, fallback: string): string {
  return team?.name ?? fallback;
}

function vetoNext(snapshot: Snapshot): string {
  const veto = snapshot.veto;
  if (!veto.active) return '';
  if (veto.complete || !veto.nextStep) return 'veto complete';
  const team = veto.nextStep.team === 'B' ? teamWord(veto.teamB, 'Team B') : teamWord(veto.teamA, 'Team A');
  return `${team} to ${veto.nextStep.type}`;
}

export function variableValues(
  snapshot: Snapshot | undefined,
  game: GameView,
  connectionStatus: string,
): VariableValues {
  const values: VariableValues = { connection_status: connectionStatus };
  if (!snapshot) return values;
  const { match, veto, state } = snapshot;
  const remaining = veto.active && !veto.complete ? (veto.remainingMaps ?? []) : [];
  const observer = observerOf(snapshot);
  const observedFromRoster =
    game.observedSlot === null
      ? undefined
      : state.roster?.find((entry) => entry.slot === game.observedSlot)?.name;
  Object.assign(values, {
    revision: snapshot.revision,
    event_name: match.eventName,
    bo_format: match.boFormat ?? '',
    team_a_name: teamWord(match.teamA, 'Team A'),
    team_b_name: teamWord(match.teamB, 'Team B'),
    team_a_short: match.teamA?.tag ?? teamWord(match.teamA, 'Team A'),
    team_b_short: match.teamB?.tag ?? teamWord(match.teamB, 'Team B'),
    series_score_a: match.seriesScore.a,
    series_score_b: match.seriesScore.b,
    series_score: `${match.seriesScore.a}-${match.seriesScore.b}`,
    veto_next: vetoNext(snapshot),
    veto_next_team: (remaining.length > 0 && veto.nextStep?.team) || '',
    veto_next_type: (remaining.length > 0 && veto.nextStep?.type) || '',
    veto_remaining: remaining.map(mapWord).join(', '),
    veto_remaining_count: remaining.length,
    veto_revealed: snapshot.reveal.revealed,
    veto_total: snapshot.reveal.total,
    scene: state.senScene ?? '',
    observer_enabled: observer.enabled ? 'on' : 'off',
    observer_mode: observer.mode,
    observer_link: snapshot.observer?.link?.connection ?? '',
    observer_suggestion: snapshot.observer?.suggestion?.name ?? '',
    observer_suggestion_slot: snapshot.observer?.suggestion?.slot ?? '',
    observed_name:
      (game.observedSteamid !== null ? game.names.get(game.observedSteamid) : undefined) ??
      observedFromRoster ??
      '',
    observed_slot: game.observedSlot ?? '',
  });
  for (const n of range(SERIES_MAPS)) {
    const map = match.maps.find((entry) => entry.number === n);
    values[`map_${n}_name`] = map?.label ?? '';
    values[`map_${n}_score_a`] = map ? map.scoreA : '';
    values[`map_${n}_score_b`] = map ? map.scoreB : '';
    values[`map_${n}_score`] = map ? `${map.scoreA}-${map.scoreB}` : '';
    values[`map_${n}_winner`] = map?.winner ?? '';
  }
  for (const n of range(POOL_SIZE)) values[`veto_remaining_${n}`] = mapWord(remaining[n - 1] ?? '');
  return values;
}

/** The entries of `next` that differ from `previous`. */
export function changedValues(previous: VariableValues, next: VariableValues): VariableValues {
  const changed: VariableValues = {};
  for (const [id, value] of Object.entries(next)) if (previous[id] !== value) changed[id] = value;
  return changed;
}
