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

/**
 * Panels with a visibility flag in the HUD state (`<panel>Visible`): the nouns of the catalogue's
 * toggle_* commands, so a panel the server adds has its feedback too. The overlay window's flag is
 * hudWindowOpen (a feedback of its own).
 */
export const PANELS = [...COMMAND_FORMS.keys()].flatMap((id) => {
  const noun = /^toggle_(\w+)$/.exec(id)?.[1];
  return noun && noun !== 'overlay' ? [noun] : [];
});
export type Panel = string;

/** Positions of a best-of-five series; the veto pool holds up to 16 maps. */
export const SERIES_MAPS = 5;
export const POOL_SIZE = 16;

/** HUD slots in the order the HUD draws them: 1 to 9, then 0 for the tenth player. */
export const SLOTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0] as const;
