/**
 * The names the buttons choose from, read from the catalogue's schemas (declared once, by the
 * server): scenes, observer modes, reveal modes. Panels are the nouns of the show_/hide_/toggle_
 * commands.
 */
import { COMMAND_FORMS } from './catalogue.ts';
import { enumValues, type JsonSchema } from './schema-options.ts';

function choicesOf(commandId: string, property: string): string[] {
  const schema = COMMAND_FORMS.get(commandId)?.command.payload?.properties?.[property] as
    | JsonSchema
    | undefined;
  const values = schema ? enumValues(schema) : undefined;
  if (!values) throw new Error(`the catalogue has no ${commandId}.${property} choices`);
  return values.map(String);
}

export const SCENES = choicesOf('show_sen_scene', 'scene');
export const OBSERVER_MODES = choicesOf('set_smart_observer', 'mode');
export const REVEAL_MODES = choicesOf('veto_reveal', 'mode');

/** Panels with a visibility flag in the HUD state (`<panel>Visible`). */
export const PANELS = ['scoreboard', 'veto', 'stats'] as const;
export type Panel = (typeof PANELS)[number];

/** Positions of a best-of-five series; the veto pool holds up to 16 maps. */
export const SERIES_MAPS = 5;
export const POOL_SIZE = 16;
