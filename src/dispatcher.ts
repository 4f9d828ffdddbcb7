import { randomUUID } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { DefaultErrorFunction, SetErrorFunction, ValueErrorType } from '@sinclair/typebox/errors';
import { isMainWindowReady } from '../machines/host.machine.ts';
import { coerceStrings } from './coerce.ts';
import type { Caller } from './commands/command.ts';
import type { CommandRegistry } from './commands/registry.ts';
import { invalidPayload, ServiceError, unavailable } from './errors.ts';
import type { HudSystem } from './hud-system.ts';
import type { StateHub } from './state-hub.ts';
import type { HudState } from './views.ts';

SetErrorFunction((error) => {
  if (error.errorType === ValueErrorType.ObjectMinProperties) {
    const fields = Object.keys((error.schema as { properties?: object }).properties ?? {});
    return `send at least one of ${fields.join(', ')}`;
  }
  if (error.errorType === ValueErrorType.ObjectAdditionalProperties) return 'unknown field';
  if (error.errorType === ValueErrorType.ObjectRequiredProperty) return 'is required';
  if (error.errorType === ValueErrorType.Union && error.schema.anyOf?.every((s: TSchema) => 'const' in s)) {
    return `must be one of ${error.schema.anyOf.map((s: TSchema) => s.const).join(', ')}`;
  }
  return DefaultErrorFunction(error);
});

export interface CommandAnswer {
  ok: true;
  state: Partial<HudState> & { revision: number };
  result: object;
}

/** The write that makes the current state durable, or null when it already is. */
export interface SaveBarrier {
  durable(): Promise<void> | null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The payload as the command's type: strings become numbers and booleans where the schema says so. */
export function checkPayload(id: string, check: TypeCheck<TSchema> | null, raw: unknown): unknown {
  const empty = raw === undefined || raw === null || (isPlainObject(raw) && Object.keys(raw).length === 0);
  if (!check) {
    if (!empty) throw invalidPayload(`${id} takes no payload: send no body or {}`);
    return undefined;
  }
  if (!isPlainObject(raw)) throw invalidPayload(`${id}: the payload must be a JSON object`);
  const value = coerceStrings(check.Schema(), raw);
  if (check.Check(value)) return value;
  const error = check.Errors(value).First();
  const field = error?.path ? error.path.slice(1).replaceAll('/', '.') : 'payload';
  throw invalidPayload(`${id}: ${field}: ${error?.message ?? 'is not valid'}`);
}

/**
 * The one path of every command, whatever the transport: look up, validate, check the main
 * window, run against the actors as one revision, save, answer.
 */
export class Dispatcher {
  constructor(
    private readonly registry: CommandRegistry,
    private readonly hud: HudSystem,
    private readonly hub: StateHub,
    private readonly store: SaveBarrier,
  ) {}

  async dispatch(action: string, raw: unknown, caller: Caller): Promise<CommandAnswer> {
    const entry = this.registry.get(action);
    if (!entry)
      throw new ServiceError('unknown_action', `unknown action "${action}": GET /api/actions lists them`);
    const { command, check } = entry;
    const payload = checkPayload(command.id, check, raw);
    if (command.needsMainWindow) this.#requireMainWindow(command.id);

    const context = { hud: this.hud, hub: this.hub, caller, requestId: randomUUID() };
    let result = this.hub.batch(() => command.run(context, payload));
    if (result instanceof Promise) {
      result = await result;
      this.hub.flush();
    }
    // The answer tells the state this command produced, even if a timer changes it while the write goes out.
    const hud = this.hub.hudState();
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
    const host = this.hud.snapshot('host').context;
    if (isMainWindowReady(host)) return;
    throw unavailable(
      host.mainWindowOpen
        ? `${id} needs you signed in: sign in in the main application window`
        : `${id} needs the main application window: open it and sign in`,
    );
  }
}
