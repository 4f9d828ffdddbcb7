/**
 * A schema's compiled TypeBox check, compiled when it is first used rather than when its module
 * loads: the service has about a hundred (a command's payload, a WebSocket message, an upload, a
 * part of the saved state), most are not needed before the first request, and compiling them all
 * at load was a twentieth of the start-up (docs/performance.md, "Start-up").
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/** What the service asks of a check: whether a value passes, why not, and the schema itself. */
export type Check<T extends TSchema> = Pick<TypeCheck<T>, 'Check' | 'Errors' | 'Schema'>;

export function compiledCheck<T extends TSchema>(schema: T): Check<T> {
  let compiled: TypeCheck<T> | null = null;
  const check = () => (compiled ??= TypeCompiler.Compile(schema));
  return {
    Check: (value: unknown): value is Static<T> => check().Check(value),
    Errors: (value: unknown) => check().Errors(value),
    Schema: () => schema,
  };
}
