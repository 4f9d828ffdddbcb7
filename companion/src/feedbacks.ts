/**
 * Boolean feedbacks: what the server says, on the button's face. Each reads the snapshot the
 * WebSocket keeps current; `command_refused` flashes a button whose command the server refused.
 */
import { type CompanionFeedbackDefinitions, combineRgb } from '@companion-module/base';
import { type GameView, observerOf } from './hud-state.ts';
import type { Snapshot } from './server-messages.ts';
import { clockWord, liveScore, playerInSlot } from './variables.ts';
import { OBSERVER_MODES, PANELS, POOL_SIZE, SCENES, SERIES_MAPS, SLOTS } from './vocabulary.ts';

export const COLORS = {
  white: combineRgb(255, 255, 255),
  black: combineRgb(0, 0, 0),
  idle: combineRgb(38, 38, 38),
  green: combineRgb(0, 150, 60),
  red: combineRgb(200, 0, 0),
  amber: combineRgb(230, 150, 0),
  blue: combineRgb(0, 90, 200),
  orange: combineRgb(225, 100, 0),
  purple: combineRgb(120, 60, 180),
  grey: combineRgb(90, 90, 90),
  refused: combineRgb(255, 0, 60),
} as const;

/**
 * A button whose command needs the main window, while it is closed: its face says why it does
 * nothing (the command would answer 503), in grey.
 */
export const MAIN_WINDOW_CLOSED_STYLE = {
  text: 'MAIN\\nWINDOW\\nCLOSED',
  size: 14,
  bgcolor: COLORS.grey,
  color: COLORS.white,
} as const;

export const OBSERVER_LINK_STATES = ['connected', 'connecting', 'disconnected', 'off'] as const;

/** What a feedback reads besides the snapshot. */
export interface FeedbackSources {
  snapshot(): Snapshot | undefined;
  /** The live game (the value feedbacks draw its numbers). */
  game(): GameView;
  connected(): boolean;
  /** Whether the button's command was refused and its flash is in the "on" phase now. */
  refusedFlash(controlId: string): boolean;
}

const choices = (values: readonly (string | number)[]) =>
  values.map((value) => ({ id: String(value), label: String(value) }));

const slotOption = {
  type: 'dropdown' as const,
  id: 'slot',
  label: 'HUD slot',
  choices: choices(SLOTS),
  default: '1',
};

export function feedbackDefinitions(sources: FeedbackSources): CompanionFeedbackDefinitions {
  const read = <T>(pick: (snapshot: Snapshot) => T, fallback: T): T => {
    const snapshot = sources.snapshot();
    return snapshot ? pick(snapshot) : fallback;
  };
  const on = (bgcolor: number) => ({ bgcolor, color: COLORS.white });
  return {
    panel_visible: {
      type: 'boolean',
      name: 'Panel visible',
      description: 'The HUD panel is shown',
      defaultStyle: on(COLORS.green),
      options: [
        { type: 'dropdown', id: 'panel', label: 'Panel', choices: choices(PANELS), default: 'scoreboard' },
      ],
      callback: ({ options }) =>
        read((s) => s.state[`${options.panel}Visible` as 'scoreboardVisible'] === true, false),
    },
    overlay_open: {
      type: 'boolean',
      name: 'Overlay window open',
      description: 'The HUD overlay window is open',
      defaultStyle: on(COLORS.green),
      options: [],
      callback: () => read((s) => s.state.hudWindowOpen === true, false),
    },
    scene_shown: {
      type: 'boolean',
      name: 'Scene shown',
      description: 'The scene window shows this scene (any: a scene is shown)',
      defaultStyle: on(COLORS.amber),
      options: [
        {
          type: 'dropdown',
          id: 'scene',
          label: 'Scene',
          choices: choices(['any', ...SCENES]),
          default: 'any',
        },
      ],
      callback: ({ options }) =>
        read((s) => {
          const shown = s.state.senScene ?? null;
          return options.scene === 'any' ? shown !== null : shown === options.scene;
        }, false),
    },
    obs_connected: {
      type: 'boolean',
      name: 'OBS connected',
      description: 'hud-automation is connected to OBS',
      defaultStyle: on(COLORS.green),
      options: [],
      callback: () => read((s) => s.state.obs?.connection === 'connected', false),
    },
    replay_buffer_active: {
      type: 'boolean',
      name: 'Replay buffer active',
      description: "OBS's replay buffer is running (save_replay works)",
      defaultStyle: on(COLORS.red),
      options: [],
      callback: () => read((s) => s.state.obs?.replayBufferActive === true, false),
    },
    veto_next_step: {
      type: 'boolean',
      name: 'Veto: next step',
      description: 'A veto session waits for this team to ban or pick',
      defaultStyle: on(COLORS.blue),
      options: [
        { type: 'dropdown', id: 'team', label: 'Team', choices: choices(['A', 'B', 'any']), default: 'A' },
        {
          type: 'dropdown',
          id: 'step',
          label: 'Step',
          choices: choices(['ban', 'pick', 'any']),
          default: 'any',
        },
      ],
      callback: ({ options }) =>
        read((s) => {
          const next = s.veto.active && !s.veto.complete ? s.veto.nextStep : null;
          if (!next) return false;
          return (
            (options.team === 'any' || next.team === options.team) &&
            (options.step === 'any' || next.type === options.step)
          );
        }, false),
    },
    veto_map_available: {
      type: 'boolean',
      name: 'Veto: remaining map',
      description: 'A running veto has a remaining map at this position (the order of veto_remaining_N)',
      defaultStyle: on(COLORS.grey),
      options: [{ type: 'number', id: 'position', label: 'Position', min: 1, max: POOL_SIZE, default: 1 }],
      callback: ({ options }) =>
        read(
          (s) =>
            s.veto.active &&
            !s.veto.complete &&
            (s.veto.remainingMaps?.length ?? 0) >= Number(options.position),
          false,
        ),
    },
    map_finished: {
      type: 'boolean',
      name: 'Series map finished',
      description: 'The map at this position of the series is finished',
      defaultStyle: on(COLORS.purple),
      options: [{ type: 'number', id: 'map', label: 'Map (1 to 5)', min: 1, max: SERIES_MAPS, default: 1 }],
      callback: ({ options }) =>
        read((s) => s.match.maps.some((map) => map.number === Number(options.map) && map.finished), false),
    },
    observer_enabled: {
      type: 'boolean',
      name: 'Observer on',
      description: 'The smart observer is enabled',
      defaultStyle: on(COLORS.green),
      options: [],
      callback: () => read((s) => observerOf(s).enabled === true, false),
    },
    observer_mode: {
      type: 'boolean',
      name: 'Observer mode',
      description: 'The smart observer is enabled in this mode',
      defaultStyle: on(COLORS.green),
      options: [
        {
          type: 'dropdown',
          id: 'mode',
          label: 'Mode',
          choices: choices(OBSERVER_MODES),
          default: OBSERVER_MODES[0] ?? 'auto',
        },
      ],
      callback: ({ options }) =>
        read((s) => {
          const observer = observerOf(s);
          return observer.enabled === true && observer.mode === options.mode;
        }, false),
    },
    observer_link: {
      type: 'boolean',
      name: 'Observer link',
      description:
        "The observer's link to the game is in this state (false until the server reports the link)",
      defaultStyle: on(COLORS.green),
      options: [
        {
          type: 'dropdown',
          id: 'state',
          label: 'State',
          choices: choices(OBSERVER_LINK_STATES),
          default: 'connected',
        },
      ],
      callback: ({ options }) => read((s) => s.observer?.link?.connection === options.state, false),
    },
    color_preset_active: {
      type: 'boolean',
      name: 'Colour preset applied',
      description: 'This colour preset is the one applied to the overlay',
      defaultStyle: on(COLORS.green),
      options: [{ type: 'textinput', id: 'presetId', label: 'Preset id', default: '' }],
      callback: ({ options }) => read((s) => s.activePresetId === String(options.presetId), false),
    },
    stats_player_shown: {
      type: 'boolean',
      name: 'Stats panel shows this slot',
      description: "The stats panel is shown with this slot's player (show_player_stats)",
      defaultStyle: on(COLORS.green),
      options: [slotOption],
      callback: ({ options }) =>
        read(
          (s) => s.state.statsVisible === true && s.statsPlayer?.player?.slot === Number(options.slot),
          false,
        ),
    },
    team_side: {
      type: 'boolean',
      name: 'Team plays a side',
      description: 'The team plays this side now (swap_sides flips it)',
      defaultStyle: on(COLORS.blue),
      options: [
        { type: 'dropdown', id: 'team', label: 'Team', choices: choices(['A', 'B']), default: 'A' },
        { type: 'dropdown', id: 'side', label: 'Side', choices: choices(['CT', 'T']), default: 'CT' },
      ],
      callback: ({ options }) =>
        read((s) => s.state.sides?.[options.team === 'B' ? 'teamB' : 'teamA'] === options.side, false),
    },
    // Value feedbacks: the number is the state, so it is the button's text; the colour warns.
    round_time: {
      type: 'advanced',
      name: 'Round clock (value)',
      description: 'Shows the round clock (m:ss) as the text; red from the given second down',
      options: [
        { type: 'number', id: 'warnBelow', label: 'Red at or under (s)', min: 0, max: 180, default: 10 },
      ],
      callback: ({ options }) => {
        const clock = sources.game().round?.clock;
        if (typeof clock !== 'number') return {};
        const warn = Math.ceil(clock) <= Number(options.warnBelow);
        return { text: clockWord(clock), ...(warn ? on(COLORS.red) : {}) };
      },
    },
    player_money: {
      type: 'advanced',
      name: "Player's money (value)",
      description: 'Shows the money of the player in this slot as the text; red under the given amount',
      options: [
        slotOption,
        { type: 'number', id: 'warnBelow', label: 'Red under ($)', min: 0, max: 16000, default: 2000 },
      ],
      callback: ({ options }) => {
        const money = playerInSlot(sources.game(), Number(options.slot))?.money;
        if (typeof money !== 'number') return {};
        return { text: `$${money}`, ...(money < Number(options.warnBelow) ? on(COLORS.red) : {}) };
      },
    },
    team_score: {
      type: 'advanced',
      name: 'Live map score (value)',
      description: "Shows the team's rounds won on the live map as the text; green while it leads",
      options: [{ type: 'dropdown', id: 'team', label: 'Team', choices: choices(['A', 'B']), default: 'A' }],
      callback: ({ options }) => {
        const score = liveScore(sources.snapshot(), sources.game());
        if (!score) return {};
        const [own, other] = options.team === 'B' ? [score.b, score.a] : [score.a, score.b];
        return { text: String(own), ...(own > other ? on(COLORS.green) : {}) };
      },
    },
    main_window_closed: {
      type: 'boolean',
      name: 'Main window closed',
      description:
        'The operator app (the main window) is closed: veto, match and observer commands answer 503 until it is open and signed in; the button says so on its face',
      defaultStyle: { ...MAIN_WINDOW_CLOSED_STYLE },
      options: [],
      callback: () => read((s) => s.state.mainWindowOpen === false, false),
    },
    connected: {
      type: 'boolean',
      name: 'Connected to hud-automation',
      description: 'The module is connected and up to date',
      defaultStyle: on(COLORS.green),
      options: [],
      callback: () => sources.connected(),
    },
    command_refused: {
      type: 'boolean',
      name: 'Command refused (flash)',
      description: "Flashes for 2 s when the server refused this button's command (the log says why)",
      defaultStyle: { bgcolor: COLORS.refused, color: COLORS.white },
      options: [],
      callback: ({ controlId }) => sources.refusedFlash(controlId),
    },
  };
}
