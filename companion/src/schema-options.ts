/**
 * From a command's payload JSON Schema (as `GET /api/actions` publishes it) to Companion options,
 * and from the options a button holds back to the payload.
 *
 * | schema                                           | option                                              |
 * |--------------------------------------------------|-----------------------------------------------------|
 * | string enum (`anyOf` of `const`, or `enum`)      | dropdown; optional ones add "(not sent)"            |
 * | enum or small integer range, or null             | dropdown with a "null" choice                       |
 * | boolean, required or with a default              | checkbox                                            |
 * | boolean, optional without default                | dropdown: (not sent), true, false                   |
 * | integer / number with minimum and maximum        | text, variables allowed, checked against the bounds;|
 * |                                                  | optional ones add a "send" checkbox                |
 * | string                                           | text (variables allowed); optional: blank = not sent|
 * | integer or string (`anyOf`)                      | text: digits are sent as a number                   |
 * | array of enum strings                            | multi-select                                        |
 * | array of strings                                 | text, comma separated                               |
 * | array of objects                                 | text holding a JSON array                           |
 * | object                                           | its properties, each an option `<parent>__<name>`   |
 *
 * Anything else throws when the actions are built, so a new kind of schema cannot slip through:
 * the catalogue test fails and the new shape gets its mapping here.
 */
import type {
  CompanionInputFieldCheckbox,
  CompanionInputFieldDropdown,
  CompanionInputFieldMultiDropdown,
  CompanionInputFieldTextInput,
  CompanionOptionValues,
  DropdownChoice,
  SomeCompanionActionInputField,
} from '@companion-module/base';

export interface JsonSchema {
  type?: string;
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  pattern?: string;
  default?: unknown;
  description?: string;
}

/** Bad input on a button: the message names the option and what it takes. */
export class PayloadInputError extends Error {}

export const NOT_SENT = '__not_sent__';
export const NULL_CHOICE = '__null__';
const NULLABLE_RANGE_LIMIT = 32;

export type FieldForm =
  | 'dropdown'
  | 'nullable-dropdown'
  | 'checkbox'
  | 'optional-boolean'
  | 'number'
  | 'text'
  | 'number-or-text'
  | 'multi-select'
  | 'text-list'
  | 'json';

/** One value of the payload, the Companion options it is edited with and how it is read back. */
export interface PayloadField {
  /** Where the value goes in the payload: `['teamA', 'name']`. */
  readonly path: readonly string[];
  readonly id: string;
  readonly form: FieldForm;
  readonly required: boolean;
  readonly schema: JsonSchema;
  /** The options this field owns: the value, and for an optional number its "send" checkbox. */
  readonly inputs: SomeCompanionActionInputField[];
  /** The value to send, or undefined to leave it out. Throws PayloadInputError on bad input. */
  read(options: CompanionOptionValues): unknown;
}

export function optionId(path: readonly string[]): string {
  return path.join('__');
}

export function sendOptionId(path: readonly string[]): string {
  return `${optionId(path)}__send`;
}

function labelOf(path: readonly string[], required: boolean): string {
  return `${path.join(' ')}${required ? '' : ' (optional)'}`;
}

/** The string or number constants of an enum schema (also nested `anyOf`), or undefined. */
export function enumValues(schema: JsonSchema): Array<string | number> | undefined {
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) {
    return schema.enum as string[];
  }
  if (!schema.anyOf) return undefined;
  const values: Array<string | number> = [];
  for (const branch of schema.anyOf) {
    if (typeof branch.const === 'string' || typeof branch.const === 'number') values.push(branch.const);
    else {
      const nested = enumValues(branch);
      if (!nested) return undefined;
      values.push(...nested);
    }
  }
  return values;
}

/** `anyOf: [X, { type: 'null' }]` gives X; anything else undefined. */
function nonNullBranch(schema: JsonSchema): JsonSchema | undefined {
  if (!schema.anyOf?.some((branch) => branch.type === 'null')) return undefined;
  const rest = schema.anyOf.filter((branch) => branch.type !== 'null');
  return rest.length === 1 ? rest[0] : { anyOf: rest };
}

function isBoundedNumber(schema: JsonSchema): boolean {
  return (
    (schema.type === 'integer' || schema.type === 'number') &&
    typeof schema.minimum === 'number' &&
    typeof schema.maximum === 'number'
  );
}

function tooltipOf(schema: JsonSchema): string | undefined {
  return schema.description;
}

function checkNumber(name: string, schema: JsonSchema, value: number): number {
  if (!Number.isFinite(value)) throw new PayloadInputError(`${name}: "${value}" is not a number`);
  if (schema.type === 'integer' && !Number.isInteger(value)) {
    throw new PayloadInputError(`${name}: ${value} is not a whole number`);
  }
  if (schema.minimum !== undefined && value < schema.minimum) {
    throw new PayloadInputError(`${name}: ${value} is below ${schema.minimum}`);
  }
  if (schema.maximum !== undefined && value > schema.maximum) {
    throw new PayloadInputError(`${name}: ${value} is above ${schema.maximum}`);
  }
  return value;
}

function checkText(name: string, schema: JsonSchema, value: string): string {
  if (schema.minLength !== undefined && value.length < schema.minLength) {
    throw new PayloadInputError(
      schema.minLength === 1 ? `${name} is empty` : `${name}: at least ${schema.minLength} characters`,
    );
  }
  if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    throw new PayloadInputError(`${name}: at most ${schema.maxLength} characters (${value.length} given)`);
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
    // The catalogue's one pattern today is \S: "not only spaces".
    throw new PayloadInputError(
      schema.pattern === '\\S'
        ? `${name} is blank`
        : `${name}: "${value}" does not match /${schema.pattern}/`,
    );
  }
  return value;
}

function missing(name: string): PayloadInputError {
  return new PayloadInputError(`${name} is required`);
}

function textOf(options: CompanionOptionValues, id: string): string {
  const value = options[id];
  return value === undefined || value === null ? '' : String(value);
}

function dropdownField(
  path: readonly string[],
  schema: JsonSchema,
  required: boolean,
  values: Array<string | number>,
  nullable: boolean,
): PayloadField {
  const id = optionId(path);
  const name = path.join('.');
  const choices: DropdownChoice[] = values.map((value) => ({ id: String(value), label: String(value) }));
  if (nullable) choices.unshift({ id: NULL_CHOICE, label: 'none (null)' });
  if (!required) choices.unshift({ id: NOT_SENT, label: '(not sent)' });
  const fallback = schema.default !== undefined ? String(schema.default) : (choices[0]?.id as string);
  const input: CompanionInputFieldDropdown = {
    type: 'dropdown',
    id,
    label: labelOf(path, required),
    tooltip: tooltipOf(schema),
    choices,
    default: fallback,
  };
  return {
    path,
    id,
    form: nullable ? 'nullable-dropdown' : 'dropdown',
    required,
    schema,
    inputs: [input],
    read(options) {
      const chosen = textOf(options, id);
      if (chosen === NOT_SENT || chosen === '') {
        if (required) throw missing(name);
        return undefined;
      }
      if (chosen === NULL_CHOICE && nullable) return null;
      const value = values.find((candidate) => String(candidate) === chosen);
      if (value === undefined) {
        throw new PayloadInputError(`${name}: "${chosen}" is not one of ${values.join(', ')}`);
      }
      return value;
    },
  };
}

function booleanField(path: readonly string[], schema: JsonSchema, required: boolean): PayloadField {
  const id = optionId(path);
  if (required || typeof schema.default === 'boolean') {
    const input: CompanionInputFieldCheckbox = {
      type: 'checkbox',
      id,
      label: labelOf(path, true),
      tooltip: tooltipOf(schema),
      default: schema.default === true,
    };
    return {
      path,
      id,
      form: 'checkbox',
      required,
      schema,
      inputs: [input],
      read: (options) => options[id] === true || options[id] === 'true',
    };
  }
  const field = dropdownField(path, schema, false, ['true', 'false'], false);
  return {
    ...field,
    form: 'optional-boolean',
    read(options) {
      const value = field.read(options);
      return value === undefined ? undefined : value === 'true';
    },
  };
}

function numberField(path: readonly string[], schema: JsonSchema, required: boolean): PayloadField {
  const id = optionId(path);
  const sendId = sendOptionId(path);
  const name = path.join('.');
  const alwaysSent = required || schema.default !== undefined;
  const min = schema.minimum as number;
  const max = schema.maximum as number;
  // A text input, not Companion's number input: a desk puts variables here ($(hud:score_a),
  // another module's counter), which a number input cannot hold. The bounds are checked on press.
  const input: CompanionInputFieldTextInput = {
    type: 'textinput',
    id,
    label: `${labelOf(path, true)} (${min} to ${max})`,
    tooltip: `${tooltipOf(schema) ?? ''} ${min} to ${max}; variables allowed.`.trim(),
    default: String(typeof schema.default === 'number' ? schema.default : min),
    useVariables: true,
    ...(alwaysSent ? {} : { isVisibleExpression: `$(options:${sendId})` }),
  };
  const inputs: SomeCompanionActionInputField[] = alwaysSent
    ? [input]
    : [{ type: 'checkbox', id: sendId, label: `send ${path.join(' ')}`, default: false }, input];
  return {
    path,
    id,
    form: 'number',
    required,
    schema,
    inputs,
    read(options) {
      if (!alwaysSent && !(options[sendId] === true || options[sendId] === 'true')) return undefined;
      const raw = options[id];
      const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
      if (text === '') {
        if (required) throw missing(name);
        return undefined;
      }
      if (!/^-?\d+(\.\d+)?$/.test(text)) throw new PayloadInputError(`${name}: "${text}" is not a number`);
      return checkNumber(name, schema, Number(text));
    },
  };
}

function textField(path: readonly string[], schema: JsonSchema, required: boolean): PayloadField {
  const id = optionId(path);
  const name = path.join('.');
  const input: CompanionInputFieldTextInput = {
    type: 'textinput',
    id,
    label: labelOf(path, required),
    tooltip: tooltipOf(schema),
    default: typeof schema.default === 'string' ? schema.default : '',
    useVariables: true,
  };
  return {
    path,
    id,
    form: 'text',
    required,
    schema,
    inputs: [input],
    read(options) {
      const value = textOf(options, id);
      if (value === '' && !required) return undefined;
      return checkText(name, schema, value);
    },
  };
}

/** `anyOf: [integer range, string]` (a series number or a map name): digits go as a number. */
function numberOrTextField(
  path: readonly string[],
  schema: JsonSchema,
  required: boolean,
  numeric: JsonSchema,
  text: JsonSchema,
): PayloadField {
  const field = textField(path, text, required);
  return {
    ...field,
    form: 'number-or-text',
    schema,
    inputs: [{ ...(field.inputs[0] as CompanionInputFieldTextInput), tooltip: tooltipOf(schema) }],
    read(options) {
      const value = textOf(options, field.id).trim();
      if (value === '') {
        if (required) throw missing(path.join('.'));
        return undefined;
      }
      return /^-?\d+$/.test(value)
        ? checkNumber(path.join('.'), numeric, Number(value))
        : field.read(options);
    },
  };
}

function listField(path: readonly string[], schema: JsonSchema, required: boolean): PayloadField {
  const id = optionId(path);
  const name = path.join('.');
  const items = schema.items as JsonSchema;
  const checkCount = (list: unknown[]) => {
    if (schema.minItems !== undefined && list.length < schema.minItems) {
      throw new PayloadInputError(`${name}: at least ${schema.minItems} entries`);
    }
    if (schema.maxItems !== undefined && list.length > schema.maxItems) {
      throw new PayloadInputError(`${name}: at most ${schema.maxItems} entries (${list.length} given)`);
    }
    return list;
  };
  const values = enumValues(items);
  if (values) {
    const input: CompanionInputFieldMultiDropdown = {
      type: 'multidropdown',
      id,
      label: labelOf(path, required),
      tooltip: tooltipOf(schema),
      choices: values.map((value) => ({ id: String(value), label: String(value) })),
      default: [],
    };
    return {
      path,
      id,
      form: 'multi-select',
      required,
      schema,
      inputs: [input],
      read(options) {
        const chosen = (Array.isArray(options[id]) ? options[id] : []) as string[];
        if (chosen.length === 0 && !required) return undefined;
        return checkCount(chosen.map((choice) => values.find((value) => String(value) === choice) ?? choice));
      },
    };
  }
  const base: Omit<PayloadField, 'form' | 'inputs' | 'read'> = { path, id, required, schema };
  const textInput = (tooltip: string): CompanionInputFieldTextInput => ({
    type: 'textinput',
    id,
    label: labelOf(path, required),
    tooltip,
    default: '',
    useVariables: true,
  });
  if (items.type === 'string') {
    return {
      ...base,
      form: 'text-list',
      inputs: [textInput(`${tooltipOf(items) ?? ''} Comma separated.`.trim())],
      read(options) {
        const text = textOf(options, id).trim();
        if (text === '') {
          if (required) throw missing(name);
          return undefined;
        }
        const list = text.split(',').map((entry) => entry.trim());
        return checkCount(list.map((entry, index) => checkText(`${name}[${index + 1}]`, items, entry)));
      },
    };
  }
  if (items.type === 'object') {
    return {
      ...base,
      form: 'json',
      inputs: [textInput(`A JSON array, e.g. [{"type":"ban","team":"A","map":"nuke"}]`)],
      read(options) {
        const text = textOf(options, id).trim();
        if (text === '') {
          if (required) throw missing(name);
          return undefined;
        }
        let list: unknown;
        try {
          list = JSON.parse(text);
        } catch (error) {
          throw new PayloadInputError(`${name}: not JSON (${(error as Error).message})`);
        }
        if (!Array.isArray(list)) throw new PayloadInputError(`${name}: a JSON array is needed`);
        return checkCount(list);
      },
    };
  }
  throw new Error(`no Companion option for the list at ${name}: ${JSON.stringify(schema)}`);
}

/** The fields of a schema; throws for a schema no option can edit. */
export function fieldsOf(schema: JsonSchema, path: readonly string[] = [], required = true): PayloadField[] {
  const name = path.join('.') || '(payload)';
  if (schema.type === 'object' && schema.properties) {
    return Object.entries(schema.properties).flatMap(([key, child]) =>
      fieldsOf(child, [...path, key], required && (schema.required ?? []).includes(key)),
    );
  }
  const values = enumValues(schema);
  if (values) return [dropdownField(path, schema, required, values, false)];
  const inner = nonNullBranch(schema);
  if (inner) {
    const innerValues = enumValues(inner);
    if (innerValues) return [dropdownField(path, schema, required, innerValues, true)];
    if (
      inner.type === 'integer' &&
      isBoundedNumber(inner) &&
      (inner.maximum as number) - (inner.minimum as number) < NULLABLE_RANGE_LIMIT
    ) {
      const range: number[] = [];
      for (let n = inner.minimum as number; n <= (inner.maximum as number); n++) range.push(n);
      return [dropdownField(path, { ...schema, default: schema.default ?? null }, required, range, true)];
    }
  }
  if (schema.type === 'boolean') return [booleanField(path, schema, required)];
  if (isBoundedNumber(schema)) return [numberField(path, schema, required)];
  if (schema.type === 'string') return [textField(path, schema, required)];
  if (schema.type === 'array' && schema.items) return [listField(path, schema, required)];
  if (schema.anyOf?.length === 2) {
    const numeric = schema.anyOf.find(isBoundedNumber);
    const text = schema.anyOf.find((branch) => branch.type === 'string');
    if (numeric && text) return [numberOrTextField(path, schema, required, numeric, text)];
  }
  throw new Error(`no Companion option for the schema at ${name}: ${JSON.stringify(schema)}`);
}

/** The default options of a set of fields, as a new button gets them. */
export function defaultOptions(fields: readonly PayloadField[]): CompanionOptionValues {
  const options: CompanionOptionValues = {};
  for (const field of fields) {
    for (const input of field.inputs) {
      if ('default' in input && input.default !== undefined) {
        options[input.id] = input.default as CompanionOptionValues[string];
      }
    }
  }
  return options;
}

/** The payload the options make, or undefined for a command without payload. */
export function payloadOf(
  schema: JsonSchema | null,
  fields: readonly PayloadField[],
  options: CompanionOptionValues,
): Record<string, unknown> | undefined {
  if (schema === null) return undefined;
  const payload: Record<string, unknown> = {};
  for (const field of fields) {
    const value = field.read(options);
    if (value === undefined) continue;
    let target = payload;
    for (const key of field.path.slice(0, -1)) {
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    target[field.path[field.path.length - 1] as string] = value;
  }
  const minimum = schema.minProperties ?? 0;
  if (Object.keys(payload).length < minimum) {
    throw new PayloadInputError(
      `choose at least ${minimum} of ${Object.keys(schema.properties ?? {}).join(', ')} (all are "not sent")`,
    );
  }
  return payload;
}
