import type { TSchema } from '@sinclair/typebox';

const NUMERIC = /^\s*-?\d+(\.\d+)?\s*$/;

/** A JSON object: not null, not an array. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Numbers and booleans sent as text ("3", "true") become numbers and booleans where the schema
 * wants them, as the spec allows. Nothing else is touched: not null, not 1.5 (TypeBox's own
 * Convert would truncate it to 1), not a string a union also accepts as text.
 */
export function coerceStrings(schema: TSchema, value: unknown): unknown {
  if (typeof value === 'string') {
    const types = schema.anyOf ? (schema.anyOf as TSchema[]).map((member) => member.type) : [schema.type];
    if (types.includes('string')) return value;
    if ((types.includes('integer') || types.includes('number')) && NUMERIC.test(value)) return Number(value);
    if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  }
  if (Array.isArray(value) && schema.type === 'array' && schema.items) {
    return value.map((item) => coerceStrings(schema.items as TSchema, item));
  }
  if (value && typeof value === 'object' && schema.type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, TSchema>;
    const extra =
      typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as TSchema) : null;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const inner = properties[key] ?? extra;
        return [key, inner ? coerceStrings(inner, item) : item];
      }),
    );
  }
  return value;
}
