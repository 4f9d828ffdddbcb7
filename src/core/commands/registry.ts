import type { TSchema } from '@sinclair/typebox';
import type { ActionDescriptor } from '../../protocol/answers.ts';
import type { Check } from '../../protocol/compiled-check.ts';
import { compiledCheck } from '../../protocol/compiled-check.ts';
import type { AnyCommand } from './command.ts';
import { gameCommands } from './game.commands.ts';
import { historyCommands } from './history.commands.ts';
import { hudCommands } from './hud.commands.ts';
import { matchCommands } from './match.commands.ts';
import { observerCommands } from './observer.commands.ts';
import { productionCommands } from './production.commands.ts';
import { recorderCommands } from './recorder.commands.ts';
import { teamsCommands } from './teams.commands.ts';
import { vetoCommands } from './veto.commands.ts';

/** Every command of the service, in the order GET /api/actions lists them. */
export const COMMANDS: readonly AnyCommand[] = [
  ...hudCommands,
  ...vetoCommands,
  ...matchCommands,
  ...historyCommands,
  ...productionCommands,
  ...gameCommands,
  ...observerCommands,
  ...recorderCommands,
  ...teamsCommands,
];

export interface RegisteredCommand {
  command: AnyCommand;
  check: Check<TSchema> | null;
}

/** The commands by id with their compiled payload checks; the catalogue is generated from it. */
export class CommandRegistry {
  readonly #byId = new Map<string, RegisteredCommand>();
  readonly catalogue: readonly ActionDescriptor[];
  /** The schema of each command's result: its HTTP answer is serialised by it. */
  readonly results: ReadonlyMap<string, TSchema>;

  constructor(commands: readonly AnyCommand[] = COMMANDS) {
    for (const command of commands) {
      if (this.#byId.has(command.id)) throw new Error(`command ${command.id} is defined twice`);
      this.#byId.set(command.id, {
        command,
        check: command.payload ? compiledCheck(command.payload) : null,
      });
    }
    this.results = new Map(commands.map((command) => [command.id, command.result]));
    this.catalogue = commands.map(({ id, description, needsMainWindow, payload, result }) => ({
      id,
      description,
      needsMainWindow,
      payload,
      result,
    }));
  }

  get(id: string): RegisteredCommand | undefined {
    return this.#byId.get(id);
  }
}
