/**
 * The show page: ready buttons for panels, the veto reveal, scenes, the replay, the veto with its
 * remaining maps, sides, colour presets, per-player stats by slot, map scores, the live game and the
 * observer. Every button's colour comes from a feedback, and every button that sends a command
 * flashes when the server refuses it.
 */
import type {
  CompanionButtonPresetDefinition,
  CompanionPresetDefinitions,
  CompanionPresetFeedback,
} from '@companion-module/base';
import { CATALOGUE, optionsFor } from './catalogue.ts';
import { nameFace } from './face-text.ts';
import { COLORS, MAIN_WINDOW_CLOSED_STYLE } from './feedbacks.ts';
import type { ColorPreset } from './server-messages.ts';
import { OBSERVER_MODES, PANELS, SCENES, SERIES_MAPS, SLOTS } from './vocabulary.ts';

const VETO_MAP_BUTTONS = 7;

interface ButtonSpec {
  category: string;
  name: string;
  text: string;
  /**
   * The text's size in px, chosen per face so that every word fits on a line (face-text.ts): never
   * "auto", which cuts words. A face with a variable is sized for the longest value it usually
   * shows (test/preset-faces.test.ts names them).
   */
  size: number;
  /** The command and the options that differ from its defaults; none for a display button. */
  command?: { id: string; options?: Record<string, string | number | boolean> };
  /** Boolean feedbacks with their style; value (advanced) feedbacks without one. */
  feedbacks?: CompanionPresetFeedback[];
  bgcolor?: number;
}

const lit = (feedbackId: string, bgcolor: number, options: Record<string, string | number> = {}) => ({
  feedbackId,
  options,
  style: { bgcolor, color: COLORS.white },
});

const SCENE_FACES: Record<string, { text: string; size: number }> = {
  versus: { text: 'VERSUS', size: 14 },
  talents: { text: 'TALENTS', size: 13 },
  sponsors: { text: 'SPONSORS', size: 11 },
  mapRecap: { text: 'MAP\\nRECAP', size: 18 },
};

const value = (feedbackId: string, options: Record<string, string | number> = {}) => ({
  feedbackId,
  options,
});

/**
 * The page, in the order Companion lists it (and the screenshot draws it). `colorPresets` are the
 * presets the overlay reported: their buttons appear once it has.
 */
export function buttonSpecs(label: string, colorPresets: readonly ColorPreset[] = []): ButtonSpec[] {
  const v = (id: string) => `$(${label}:${id})`;
  return [
    // Panels
    ...PANELS.map((panel) => ({
      category: 'Panels',
      name: `Toggle ${panel}`,
      text: panel === 'scoreboard' ? 'SCORE\\nBOARD' : panel.toUpperCase(),
      size: 18,
      command: { id: `toggle_${panel}` },
      feedbacks: [lit('panel_visible', COLORS.green, { panel })],
    })),
    {
      category: 'Panels',
      name: 'Toggle overlay window',
      text: 'OVERLAY\\nWINDOW',
      size: 13,
      command: { id: 'toggle_overlay' },
      feedbacks: [lit('overlay_open', COLORS.green)],
    },
    // Veto reveal
    ...(
      [
        ['next', 'REVEAL\\nNEXT'],
        ['prev', 'REVEAL\\nPREV'],
        ['all', 'REVEAL\\nALL'],
        ['reset', 'REVEAL\\nRESET'],
      ] as const
    ).map(([mode, text]) => ({
      category: 'Veto reveal',
      name: `Reveal ${mode}`,
      text: `${text}\\n${v('veto_revealed')}/${v('veto_total')}`,
      size: 14,
      command: { id: 'veto_reveal', options: { mode } },
      feedbacks: [lit('panel_visible', COLORS.blue, { panel: 'veto' })],
    })),
    // Scenes
    ...SCENES.map((scene) => ({
      category: 'Scenes',
      name: `Show ${scene}`,
      ...(SCENE_FACES[scene] ?? nameFace(scene)),
      command: { id: 'show_sen_scene', options: { scene } },
      feedbacks: [lit('scene_shown', COLORS.amber, { scene })],
    })),
    {
      category: 'Scenes',
      name: 'Hide scene',
      text: 'HIDE\\nSCENE',
      size: 18,
      command: { id: 'hide_sen_scene' },
      feedbacks: [lit('scene_shown', COLORS.red, { scene: 'any' })],
    },
    // Replay
    {
      category: 'Replay',
      name: 'Save replay',
      text: 'SAVE\\nREPLAY',
      size: 14,
      command: { id: 'save_replay' },
      feedbacks: [lit('obs_connected', COLORS.grey), lit('replay_buffer_active', COLORS.red)],
    },
    {
      category: 'Replay',
      name: 'OBS status',
      text: 'OBS',
      size: 24,
      feedbacks: [lit('obs_connected', COLORS.green)],
    },
    // Veto
    {
      category: 'Veto',
      name: 'Next step',
      // "Vitality to pick": the team's name on a line of its own, at a size for a long one.
      text: v('veto_next'),
      size: 12,
      feedbacks: [
        lit('veto_next_step', COLORS.blue, { team: 'A', step: 'any' }),
        lit('veto_next_step', COLORS.orange, { team: 'B', step: 'any' }),
      ],
    },
    ...Array.from({ length: VETO_MAP_BUTTONS }, (_, index) => {
      const position = index + 1;
      return {
        category: 'Veto',
        name: `Remaining map ${position}`,
        text: v(`veto_remaining_${position}`),
        size: 14,
        command: { id: 'veto_select', options: { map: v(`veto_remaining_${position}`) } },
        feedbacks: [
          lit('veto_next_step', COLORS.red, { team: 'any', step: 'ban' }),
          lit('veto_next_step', COLORS.green, { team: 'any', step: 'pick' }),
          { ...lit('veto_map_available', COLORS.black, { position }), isInverted: true },
        ],
      };
    }),
    {
      category: 'Veto',
      name: 'Undo',
      text: 'VETO\\nUNDO',
      size: 14,
      command: { id: 'veto_undo' },
      feedbacks: [lit('veto_next_step', COLORS.grey, { team: 'any', step: 'any' })],
    },
    {
      category: 'Veto',
      name: 'Cancel',
      text: 'VETO\\nCANCEL',
      size: 14,
      command: { id: 'veto_cancel' },
      feedbacks: [lit('veto_next_step', COLORS.grey, { team: 'any', step: 'any' })],
    },
    // Sides
    {
      category: 'Sides',
      name: 'Swap sides',
      // Team A's side under the words; the colour says it too.
      text: `SWAP\\nSIDES\\nA ${v('team_a_side')}`,
      size: 14,
      command: { id: 'swap_sides' },
      // Team A's colour says which side it plays: blue on CT, orange on T.
      feedbacks: [
        lit('team_side', COLORS.blue, { team: 'A', side: 'CT' }),
        lit('team_side', COLORS.orange, { team: 'A', side: 'T' }),
      ],
    },
    // Colours
    ...colorPresets.map((preset) => ({
      category: 'Colours',
      name: `Colour ${preset.id}`,
      // The server names it, any length: sized by its longest word (face-text.ts).
      ...nameFace(preset.name || preset.id),
      command: { id: 'set_color_preset', options: { presetId: preset.id } },
      feedbacks: [lit('color_preset_active', COLORS.green, { presetId: preset.id })],
    })),
    // Player stats
    ...SLOTS.map((slot) => ({
      category: 'Player stats',
      name: `Stats slot ${slot}`,
      text: `STATS ${slot}\\n${v(`slot_${slot}_name`)}`,
      size: 13,
      command: { id: 'show_player_stats', options: { slot: String(slot) } },
      feedbacks: [lit('stats_player_shown', COLORS.green, { slot: String(slot) })],
    })),
    // Map scores: the live map's score into the series (the game group's variables in the options)
    ...Array.from({ length: SERIES_MAPS }, (_, index) => ({
      category: 'Map scores',
      name: `Map ${index + 1} live score`,
      text: `MAP ${index + 1}\\n${v(`map_${index + 1}_score`)}\\n← ${v('score_a')}-${v('score_b')}`,
      size: 14,
      command: {
        id: 'set_map_result',
        options: { map: String(index + 1), scoreA: v('score_a'), scoreB: v('score_b') },
      },
      feedbacks: [lit('map_finished', COLORS.purple, { map: index + 1 })],
    })),
    // Live game: value feedbacks write the number on the face
    {
      category: 'Live game',
      name: 'Round clock',
      // The value feedback writes the clock ("1:55") over it, at the same size.
      text: 'ROUND',
      size: 18,
      feedbacks: [value('round_time', { warnBelow: 10 })],
    },
    ...(['A', 'B'] as const).map((team) => ({
      category: 'Live game',
      name: `Live score ${team}`,
      text: '-',
      size: 24,
      feedbacks: [value('team_score', { team })],
    })),
    ...SLOTS.map((slot) => ({
      category: 'Live game',
      name: `Money slot ${slot}`,
      // Then "$16000" from the value feedback: six figures fit at 18.
      text: `$ ${slot}`,
      size: 18,
      feedbacks: [value('player_money', { slot: String(slot), warnBelow: 2000 })],
    })),
    // Observer
    ...OBSERVER_MODES.map((mode) => ({
      category: 'Observer',
      name: `Observer ${mode}`,
      text: `OBSERVER\\n${mode.toUpperCase()}`,
      size: 11,
      command: { id: 'set_smart_observer', options: { enabled: 'true', mode } },
      feedbacks: [lit('observer_mode', COLORS.green, { mode })],
    })),
    {
      category: 'Observer',
      name: 'Observer off',
      text: 'OBSERVER\\nOFF',
      size: 11,
      command: { id: 'set_smart_observer', options: { enabled: 'false' } },
      feedbacks: [{ ...lit('observer_enabled', COLORS.red), isInverted: true }],
    },
    {
      category: 'Observer',
      name: 'Observer link',
      // The state is the colour: "disconnected" would fit only at 10 px.
      text: 'GAME\\nLINK',
      size: 18,
      feedbacks: [
        lit('observer_link', COLORS.green, { state: 'connected' }),
        lit('observer_link', COLORS.amber, { state: 'connecting' }),
        lit('observer_link', COLORS.red, { state: 'disconnected' }),
      ],
    },
    {
      category: 'Observer',
      name: 'Suggested player',
      text: `SUGGEST\\n${v('observer_suggestion')}`,
      size: 13,
      feedbacks: [lit('observer_mode', COLORS.purple, { mode: 'suggest' })],
    },
    {
      category: 'Observer',
      name: 'Observed player',
      text: `ON AIR\\n${v('observed_name')}`,
      size: 13,
      feedbacks: [lit('connected', COLORS.idle)],
    },
    // Match
    {
      category: 'Match',
      name: 'Team A',
      // The tag, or the team's name when it has none ("Vitality"): sized for the name.
      text: `${v('team_a_short')}\\n${v('series_score_a')}`,
      size: 12,
      // In the team's colour while connected; grey when the score may be stale.
      feedbacks: [lit('connected', COLORS.blue)],
    },
    {
      category: 'Match',
      name: 'Team B',
      text: `${v('team_b_short')}\\n${v('series_score_b')}`,
      size: 12,
      feedbacks: [lit('connected', COLORS.orange)],
    },
    ...Array.from({ length: 5 }, (_, index) => ({
      category: 'Match',
      name: `Map ${index + 1}`,
      text: `MAP ${index + 1}\\n${v(`map_${index + 1}_name`)}\\n${v(`map_${index + 1}_score`)}`,
      size: 14,
      feedbacks: [lit('map_finished', COLORS.purple, { map: index + 1 })],
    })),
    {
      category: 'Match',
      name: 'Connection',
      // "unreachable", the longest status word, fits at 11.
      text: `HUD\\n${v('connection_status')}`,
      size: 11,
      bgcolor: COLORS.red,
      feedbacks: [lit('connected', COLORS.green)],
    },
  ];
}

/** The commands that answer 503 while the main window is closed (the catalogue's needsMainWindow). */
const NEEDS_MAIN_WINDOW = new Set(CATALOGUE.filter((command) => command.needsMainWindow).map((c) => c.id));

export function presetDefinitions(
  label: string,
  colorPresets: readonly ColorPreset[] = [],
): CompanionPresetDefinitions {
  const presets: CompanionPresetDefinitions = {};
  buttonSpecs(label, colorPresets).forEach((spec) => {
    const down = spec.command
      ? [{ actionId: spec.command.id, options: optionsFor(spec.command.id, spec.command.options) }]
      : [];
    const preset: CompanionButtonPresetDefinition = {
      type: 'button',
      category: spec.category,
      name: spec.name,
      style: {
        text: spec.text,
        size: spec.size,
        color: COLORS.white,
        bgcolor: spec.bgcolor ?? COLORS.idle,
      },
      steps: [{ down, up: [] }],
      feedbacks: [
        ...(spec.feedbacks ?? []),
        // A command that answers 503 while the main window is closed says so on the face.
        ...(spec.command && NEEDS_MAIN_WINDOW.has(spec.command.id)
          ? [{ feedbackId: 'main_window_closed', options: {}, style: { ...MAIN_WINDOW_CLOSED_STYLE } }]
          : []),
        ...(spec.command
          ? [
              {
                feedbackId: 'command_refused',
                options: {},
                style: { bgcolor: COLORS.refused, color: COLORS.white },
              },
            ]
          : []),
      ],
    };
    // Ids by name, not position: a desk's saved reference stays right when colour presets come and go.
    presets[spec.name.toLowerCase().replace(/[^a-z0-9]+/g, '_')] = preset;
  });
  return presets;
}
