/**
 * Variables: the match and the show in words and numbers, for button text and for other modules.
 * `variableValues` is pure; the instance sends only the values that changed.
 */
import type { CompanionVariableDefinition } from '@companion-module/base';
import type { VariableGroup } from './config.ts';
import { type GameView, observerOf } from './hud-state.ts';
import type { LivePlayer, Snapshot, Team } from './server-messages.ts';
import { PANELS, POOL_SIZE, SERIES_MAPS, SLOTS } from './vocabulary.ts';

export type VariableValues = Record<string, string | number>;

const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

/** Which opt-in groups a connection publishes (config.ts). */
export type VariableGroups = Record<VariableGroup, boolean>;

const PLAYER_FIGURES = ['side', 'health', 'money', 'kills', 'deaths', 'adr'] as const;

export function variableDefinitions(groups: VariableGroups): CompanionVariableDefinition[] {
  return [
    ...coreDefinitions(),
    ...(groups.variablesGame ? gameDefinitions() : []),
    ...(groups.variablesPlayers ? playerDefinitions() : []),
  ];
}

function gameDefinitions(): CompanionVariableDefinition[] {
  return [
    { variableId: 'live_map', name: 'Game: map being played (dust2)' },
    { variableId: 'live_phase', name: 'Game: map phase (warmup, live, intermission, gameover)' },
    { variableId: 'live_round', name: 'Game: round number (1 for the first round)' },
    { variableId: 'round_phase', name: 'Game: round phase (freezetime, live, over)' },
    { variableId: 'round_clock', name: 'Game: round clock, m:ss' },
    { variableId: 'round_seconds', name: 'Game: round clock in whole seconds' },
    { variableId: 'score_ct', name: 'Game: rounds won by CT on this map' },
    { variableId: 'score_t', name: 'Game: rounds won by T on this map' },
    { variableId: 'score_a', name: 'Game: rounds won by team A on this map (by its side)' },
    { variableId: 'score_b', name: 'Game: rounds won by team B on this map (by its side)' },
    { variableId: 'bomb_state', name: 'Game: the bomb (carried, dropped, planted, defused, exploded)' },
    { variableId: 'bomb_seconds', name: 'Game: seconds until the planted bomb explodes' },
  ];
}

function playerDefinitions(): CompanionVariableDefinition[] {
  return SLOTS.flatMap((slot) =>
    PLAYER_FIGURES.map((figure) => ({
      variableId: `slot_${slot}_${figure}`,
      name: `Slot ${slot}: ${figure === 'adr' ? 'ADR' : figure}`,
    })),
  );
}

function coreDefinitions(): CompanionVariableDefinition[] {
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
    {
      variableId: 'observer_strategy',
      name: 'Smart observer: how cuts reach the game (name, name_lock, lock, csgo; none when none worked; empty until reported)',
    },
    {
      variableId: 'observer_camera',
      name: 'Smart observer: whether the camera followed the last cut (pending, following, ignored, moved_away; empty before a cut)',
    },
    { variableId: 'observed_name', name: 'Observed player in the game' },
    { variableId: 'observed_slot', name: 'HUD slot of the observed player' },
    ...PANELS.map((panel) => ({ variableId: `${panel}_visible`, name: `Panel ${panel}: on or off` })),
    { variableId: 'overlay_open', name: 'Overlay window: on or off' },
    { variableId: 'obs_connection', name: 'OBS: connected, connecting, disconnected' },
    { variableId: 'replay_buffer', name: "OBS's replay buffer: on or off" },
    { variableId: 'team_a_side', name: 'Side team A plays now (CT or T)' },
    { variableId: 'team_b_side', name: 'Side team B plays now (CT or T)' },
    { variableId: 'game_receiving', name: 'Game data arriving: on or off' },
    { variableId: 'color_preset', name: 'Colour preset applied: its id (empty when none)' },
    { variableId: 'color_preset_name', name: 'Colour preset applied: its name' },
    { variableId: 'stats_player_slot', name: 'Stats panel: slot of the player it shows (empty when none)' },
    ...SLOTS.map((slot) => ({ variableId: `slot_${slot}_name`, name: `Slot ${slot}: player name (roster)` })),
  ];
}

const onOff = (value: boolean | undefined) => (value === true ? 'on' : 'off');

/** m:ss of a clock in seconds, rounded up as the game's clock shows it ("1:55", "0:09"). */
export function clockWord(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** The live player in a HUD slot, if the game sends one. */
export function playerInSlot(game: GameView, slot: number): LivePlayer | undefined {
  for (const player of game.players.values()) if (player.slot === slot) return player;
  return undefined;
}

/** Rounds won on this map by team A and B, by the side each plays now. */
export function liveScore(
  snapshot: Snapshot | undefined,
  game: GameView,
): { a: number; b: number } | undefined {
  const map = game.map;
  if (!map || typeof map.ctScore !== 'number' || typeof map.tScore !== 'number') return undefined;
  const aIsT = snapshot?.state.sides?.teamA === 'T';
  return aIsT ? { a: map.tScore, b: map.ctScore } : { a: map.ctScore, b: map.tScore };
}

function gameValues(snapshot: Snapshot | undefined, game: GameView): VariableValues {
  const clock = game.round?.clock;
  const score = liveScore(snapshot, game);
  const bombSeconds = game.bomb?.countdown;
  return {
    live_map: mapWord(game.map?.name ?? ''),
    live_phase: game.map?.phase ?? '',
    live_round: typeof game.map?.round === 'number' ? game.map.round + 1 : '',
    round_phase: game.round?.phase ?? '',
    round_clock: typeof clock === 'number' ? clockWord(clock) : '',
    round_seconds: typeof clock === 'number' ? Math.max(0, Math.ceil(clock)) : '',
    score_ct: game.map?.ctScore ?? '',
    score_t: game.map?.tScore ?? '',
    score_a: score?.a ?? '',
    score_b: score?.b ?? '',
    bomb_state: game.bomb?.state ?? '',
    bomb_seconds: typeof bombSeconds === 'number' ? Math.max(0, Math.ceil(bombSeconds)) : '',
  };
}

function playerValues(game: GameView): VariableValues {
  const values: VariableValues = {};
  for (const slot of SLOTS) {
    const player = playerInSlot(game, slot);
    for (const figure of PLAYER_FIGURES) {
      const value = player?.[figure];
      values[`slot_${slot}_${figure}`] =
        value === null || value === undefined ? '' : figure === 'adr' ? Math.round(Number(value)) : value;
    }
  }
  return values;
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
  groups: VariableGroups,
): VariableValues {
  const values: VariableValues = { connection_status: connectionStatus };
  if (groups.variablesGame) Object.assign(values, gameValues(snapshot, game));
  if (groups.variablesPlayers) Object.assign(values, playerValues(game));
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
    // undefined: the server does not report it; null: every strategy failed.
    observer_strategy:
      snapshot.observer?.camera?.strategy === undefined ? '' : (snapshot.observer.camera.strategy ?? 'none'),
    observer_camera: snapshot.observer?.cameraFollows ?? '',
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
  for (const panel of PANELS)
    values[`${panel}_visible`] = onOff(state[`${panel}Visible` as 'scoreboardVisible']);
  const preset = snapshot.presets?.find((entry) => entry.id === snapshot.activePresetId);
  Object.assign(values, {
    overlay_open: onOff(state.hudWindowOpen),
    obs_connection: state.obs?.connection ?? '',
    replay_buffer: onOff(state.obs?.replayBufferActive),
    team_a_side: state.sides?.teamA ?? '',
    team_b_side: state.sides?.teamB ?? '',
    game_receiving: onOff(state.gameReceiving),
    color_preset: snapshot.activePresetId ?? '',
    color_preset_name: preset?.name ?? snapshot.activePresetId ?? '',
    stats_player_slot:
      state.statsVisible === true && snapshot.statsPlayer?.player ? snapshot.statsPlayer.player.slot : '',
  });
  for (const slot of SLOTS) {
    values[`slot_${slot}_name`] = state.roster?.find((entry) => entry.slot === slot)?.name ?? '';
  }
  return values;
}

/** The entries of `next` that differ from `previous`. */
export function changedValues(previous: VariableValues, next: VariableValues): VariableValues {
  const changed: VariableValues = {};
  for (const [id, value] of Object.entries(next)) if (previous[id] !== value) changed[id] = value;
  return changed;
}
