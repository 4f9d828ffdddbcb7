/**
 * The command catalogue the module is built from: `GET /api/actions` of the server as built, kept in
 * src/generated/catalogue.json by scripts/generate-catalogue.ts. Built in, never fetched at run
 * time, so action ids are the same on every machine and across releases.
 */
import catalogueFile from './generated/catalogue.json' with { type: 'json' };
import { defaultOptions, fieldsOf, type JsonSchema, type PayloadField } from './schema-options.ts';

export interface CatalogueCommand {
  id: string;
  description: string;
  needsMainWindow: boolean;
  payload: JsonSchema | null;
}

export interface CommandForm {
  command: CatalogueCommand;
  fields: PayloadField[];
}

export const CATALOGUE: readonly CatalogueCommand[] = catalogueFile.actions as CatalogueCommand[];
export const CATALOGUE_SOURCE = catalogueFile.generatedFrom;

/** Every command with the option fields its payload schema maps to. */
export function commandForms(catalogue: readonly CatalogueCommand[] = CATALOGUE): Map<string, CommandForm> {
  return new Map(
    catalogue.map((command) => [
      command.id,
      { command, fields: command.payload === null ? [] : fieldsOf(command.payload) },
    ]),
  );
}

export const COMMAND_FORMS = commandForms();

/**
 * The options of a button running `commandId`: the defaults, with `overrides` on top. A key the
 * command has no option for throws, so a preset cannot drift from the catalogue.
 */
export function optionsFor(
  commandId: string,
  overrides: Record<string, string | number | boolean> = {},
): Record<string, string | number | boolean | string[]> {
  const form = COMMAND_FORMS.get(commandId);
  if (!form) throw new Error(`${commandId} is not a command of the catalogue`);
  const known = new Set(form.fields.flatMap((field) => field.inputs.map((input) => input.id)));
  for (const key of Object.keys(overrides)) {
    if (!known.has(key)) throw new Error(`${commandId} has no option ${key}`);
  }
  return { ...(defaultOptions(form.fields) as Record<string, string | number | boolean>), ...overrides };
}
