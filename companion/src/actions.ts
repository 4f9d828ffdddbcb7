/**
 * One action per command of the catalogue, its options derived from the payload schema
 * (schema-options.ts). The action id is the command name, so saved buttons keep working across
 * releases; a command that changes shape gets an upgrade script (upgrades.ts).
 */
import type { CompanionActionDefinitions, CompanionOptionValues } from '@companion-module/base';
import { COMMAND_FORMS, type CommandForm } from './catalogue.ts';
import { payloadOf } from './schema-options.ts';

export interface CommandRunner {
  /** Sends the command and reports the outcome (log, button flash); never throws. */
  run(commandId: string, payload: Record<string, unknown> | undefined, controlId: string): Promise<void>;
  /** Bad options on a button: logged, and the button flashes. */
  reject(commandId: string, message: string, controlId: string): void;
}

/** Ids of the text options, whose `$(…)` variables Companion resolves before sending. */
function textOptionIds(form: CommandForm): string[] {
  return form.fields.flatMap((field) =>
    field.inputs.filter((input) => input.type === 'textinput').map((input) => input.id),
  );
}

export async function resolveOptions(
  form: CommandForm,
  options: CompanionOptionValues,
  parse: (text: string) => Promise<string>,
): Promise<CompanionOptionValues> {
  const resolved = { ...options };
  for (const id of textOptionIds(form)) {
    const value = resolved[id];
    if (typeof value === 'string' && value.includes('$(')) resolved[id] = await parse(value);
  }
  return resolved;
}

export function actionDefinitions(runner: CommandRunner): CompanionActionDefinitions {
  const definitions: CompanionActionDefinitions = {};
  for (const [id, form] of COMMAND_FORMS) {
    const { command, fields } = form;
    definitions[id] = {
      name: id,
      description: `${command.description}${command.needsMainWindow ? ' (needs the main window)' : ''}`,
      options: fields.flatMap((field) => field.inputs),
      callback: async (action, context) => {
        let payload: Record<string, unknown> | undefined;
        try {
          const options = await resolveOptions(form, action.options, (text) =>
            context.parseVariablesInString(text),
          );
          payload = payloadOf(command.payload, fields, options);
        } catch (error) {
          runner.reject(id, (error as Error).message, action.controlId);
          return;
        }
        await runner.run(id, payload, action.controlId);
      },
    };
  }
  return definitions;
}
