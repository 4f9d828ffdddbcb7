import type { TSchema } from '@sinclair/typebox';
import { isMainWindowReady } from '../../machines/host.machine.ts';
import type { Check } from '../protocol/compiled-check.ts';
import { invalidPayload, ServiceError, unavailable } from '../protocol/errors.ts';
import type { Caller } from './caller.ts';
import { PUBLIC_CALLERS } from './caller.ts';
import { coerceStrings, isPlainObject } from './coerce.ts';
import type { CommandContext } from './commands/command.ts';
import type { CommandRegistry } from './commands/registry.ts';
import { explainPayload } from './payload-errors.ts';
import type { HudState } from './views.ts';

export interface CommandAnswer {
  ok: true;
  state: Partial<HudState> & { revision: number };
  result: object;
}

/** The write that makes the current state durable, or null when it already is. */
export interface SaveBarrier {
  durable(): Promise<void> | null;
}

/** The payload as the command's type: strings become numbers and booleans where the schema says so. */
export function checkPayload(id: string, check: Check<TSchema> | null, raw: unknown): unknown {
  // No body, or {}: `null` is a JSON value that is not an object, refused as `[]` or `"x"` are.
  const empty = raw === undefined || (isPlainObject(raw) && Object.keys(raw).length === 0);
  if (!check) {
    if (!empty) throw invalidPayload(`${id} takes no payload: send no body or {}`);
    return undefined;
  }
  if (!isPlainObject(raw)) throw invalidPayload(`${id}: the payload must be a JSON object`);
  // Most payloads come typed: the walk of the schema and the copy only for one that does not pass.
  if (check.Check(raw)) return raw;
  const value = coerceStrings(check.Schema(), raw);
  if (check.Check(value)) return value;
  throw invalidPayload(`${id}: ${explainPayload(check, value)}`);
}

/** Runs one command of a catalogue for a caller: what the transports are given. */
export type Dispatch = (action: string, payload: unknown, caller: Caller) => Promise<CommandAnswer>;

/** What every command runs against: the actors, the hub, the live game data, the settings. */
export type CommandDeps = Omit<CommandContext, 'requestId'>;

/** A catalogue of commands and where a caller finds its list, for the 404 of an unknown one. */
export interface Catalogue {
  registry: CommandRegistry;
  listed: string;
}

/**
 * The one path of every command, whatever the transport: look up, check the caller, validate,
 * check the main window, run against the actors as one revision, save, answer.
 */
export class Dispatcher {
  #commands = 0;

  constructor(
    private readonly deps: CommandDeps,
    private readonly store: SaveBarrier,
  ) {}

  /** Runs `action` of `catalogue` for `caller`: refused in the error envelope, or answered once saved. */
  async dispatch(catalogue: Catalogue, action: string, raw: unknown, caller: Caller): Promise<CommandAnswer> {
    const entry = catalogue.registry.get(action);
    if (!entry) throw new ServiceError('unknown_action', `unknown action "${action}": ${catalogue.listed}`);
    const { command, check } = entry;
    const callers = command.callers ?? PUBLIC_CALLERS;
    if (!callers.roles.has(caller.role)) throw new ServiceError('forbidden', callers.refusal(caller.role));
    const payload = checkPayload(command.id, check, raw);
    if (command.needsMainWindow) this.#requireMainWindow(command.id);

    // Tells one command's outcome apart from another's (an import's result): unique in this process.
    this.#commands++;
    const { deps } = this;
    const { hub } = deps;
    // A literal of a fixed shape, not a spread of deps: it is made for every command.
    const context: CommandContext = {
      hud: deps.hud,
      hub,
      notices: deps.notices,
      game: deps.game,
      stats: deps.stats,
      settings: deps.settings,
      recordings: deps.recordings,
      teams: deps.teams,
      requestId: `command-${this.#commands}`,
    };
    let result = hub.batch(() => command.run(context, payload));
    if (result instanceof Promise) {
      result = await result;
      hub.flush();
    }
    // The answer tells the state this command produced, even if a timer changes it while the write goes out.
    const hud = hub.hudState();
    const state: CommandAnswer['state'] = { revision: hud.revision };
    for (const key of command.stateKeys) {
      if (hud[key] !== undefined) Object.assign(state, { [key]: hud[key] });
    }
    // Also when this command changed nothing: the state it reports may still be on its way to disk
    // (a retry of a change whose write is in flight). A failed write rejects with storage_failed.
    const durable = this.store.durable();
    if (durable) await durable;
    return { ok: true, state, result };
  }

  #requireMainWindow(id: string): void {
    const host = this.deps.hud.snapshot('host').context;
    if (isMainWindowReady(host)) return;
    throw unavailable(
      host.mainWindowOpen
        ? `${id} needs the main window signed in: sign in in the operator app (the address hud-automation printed at start)`
        : `${id} needs the main window: open the operator app (the address hud-automation printed at start) and sign in, or start hud-automation with --headless when no operator app runs around it`,
    );
  }
}
