/**
 * A payload's first problem in plain words, naming the field: "teamA.name: at most 64 characters",
 * "unknown field boFromat; did you mean boFormat?". Never the schema library's own wording.
 */
import type { TSchema } from '@sinclair/typebox';
import type { ValueError } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/errors';
import leven from 'leven';
import type { Check } from '../protocol/compiled-check.ts';

type Schema = TSchema & { [key: string]: unknown };

/** What a schema accepts, in words: "one of bo1, bo3, bo5", "a whole number", "A, B or null". */
export function expectedOf(schema: Schema): string {
  if ('const' in schema) return String(schema.const);
  const members = schema.anyOf as Schema[] | undefined;
  if (members) {
    const flat = members.flatMap((member) => (member.anyOf ? (member.anyOf as Schema[]) : [member]));
    const words = flat.map(expectedOf);
    if (flat.every((member) => 'const' in member)) return `one of ${words.join(', ')}`;
    return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? 'a value');
  }
  switch (schema.type) {
    case 'string':
      return schema.format === 'url' ? 'an http, https or data URL' : 'text';
    case 'integer':
      return 'a whole number';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    case 'array':
      return 'a list';
    case 'null':
      return 'null';
    default:
      return 'a valid value';
  }
}

/** The field a path names, as a person writes it: teamA.name, steps[0].map. */
export function fieldOf(path: string): string {
  return path
    .split('/')
    .slice(1)
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

/** The closest known name to a mistyped one, if it is close enough to be a typo. */
function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const distance = leven(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Errors that say the value is of another kind than a union member wants, not how it is wrong. */
const KIND_ERRORS: ReadonlySet<ValueErrorType> = new Set([
  ValueErrorType.Integer,
  ValueErrorType.Number,
  ValueErrorType.String,
  ValueErrorType.Boolean,
  ValueErrorType.Null,
  ValueErrorType.Object,
  ValueErrorType.Array,
  ValueErrorType.Literal,
  ValueErrorType.Union,
]);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One problem in plain words, with the field it is about. */
export function explainError(error: ValueError): string {
  const schema = error.schema as Schema;
  const field = fieldOf(error.path);
  const at = (text: string) => (field ? `${field}: ${text}` : text);
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties: {
      const name = error.path.split('/').at(-1) ?? '';
      const parent = fieldOf(error.path.split('/').slice(0, -1).join('/'));
      const known = Object.keys((schema.properties as object | undefined) ?? {});
      const guess = closest(name, known);
      const where = parent ? ` in ${parent}` : '';
      if (guess) return `unknown field ${name}${where}; did you mean ${guess}?`;
      return `unknown field ${name}${where}; known fields: ${known.join(', ')}`;
    }
    case ValueErrorType.ObjectRequiredProperty:
      return `${field} is required`;
    case ValueErrorType.ObjectMinProperties:
      return at(
        `send at least one of ${Object.keys((schema.properties as object | undefined) ?? {}).join(', ')}`,
      );
    case ValueErrorType.StringMaxLength:
      return at(`at most ${plural(schema.maxLength as number, 'character')}`);
    case ValueErrorType.StringMinLength:
      return at(
        schema.minLength === 1
          ? 'must not be empty'
          : `at least ${plural(schema.minLength as number, 'character')}`,
      );
    case ValueErrorType.StringPattern:
      return at(schema.pattern === '\\S' ? 'must not be blank' : 'does not have the expected form');
    case ValueErrorType.StringFormat:
      return at(`must be ${expectedOf(schema)}`);
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return at(`at most ${schema.maximum}`);
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return at(`at least ${schema.minimum}`);
    case ValueErrorType.ArrayMaxItems:
      return at(`at most ${plural(schema.maxItems as number, 'item')}`);
    case ValueErrorType.ArrayMinItems:
      return at(`at least ${plural(schema.minItems as number, 'item')}`);
    case ValueErrorType.Union: {
      // The member of the value's own kind says more: map 6 is "at most 5", not "a whole number or text".
      const near = error.errors
        .map((member) => member.First())
        .filter((inner): inner is ValueError => inner !== undefined && !KIND_ERRORS.has(inner.type));
      if (near.length === 1 && near[0]) return explainError(near[0]);
      return at(`must be ${expectedOf(schema)}`);
    }
    default:
      return at(`must be ${expectedOf(schema)}`);
  }
}

/**
 * The problem to tell first: an unknown field before anything else (a misspelt name is also why
 * the right one is missing), then the first one found.
 */
export function explainPayload(check: Check<TSchema>, value: unknown): string {
  let first: ValueError | undefined;
  for (const error of check.Errors(value)) {
    if (error.type === ValueErrorType.ObjectAdditionalProperties) return explainError(error);
    first ??= error;
  }
  return first ? explainError(first) : 'is not valid';
}
