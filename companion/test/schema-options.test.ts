import { describe, expect, it } from 'vitest';
import { COMMAND_FORMS } from '../src/catalogue.ts';
import {
  defaultOptions,
  fieldsOf,
  type JsonSchema,
  NOT_SENT,
  NULL_CHOICE,
  PayloadInputError,
  payloadOf,
} from '../src/schema-options.ts';

function form(id: string) {
  const found = COMMAND_FORMS.get(id);
  if (!found) throw new Error(`no ${id}`);
  return found;
}

function payload(id: string, options: Record<string, unknown>) {
  const { command, fields } = form(id);
  return payloadOf(command.payload, fields, { ...defaultOptions(fields), ...options } as any);
}

function inputsOf(id: string) {
  return form(id).fields.flatMap((field) => field.inputs);
}

describe('options from the payload schema', () => {
  it('gives an enum a dropdown of its values, "not sent" first when optional', () => {
    const scene = inputsOf('show_sen_scene')[0] as any;
    expect(scene.type).toBe('dropdown');
    expect(scene.choices.map((choice: any) => choice.id)).toEqual([
      'versus',
      'talents',
      'sponsors',
      'mapRecap',
    ]);
    const mode = inputsOf('veto_reveal').find((input) => input.id === 'mode') as any;
    expect(mode.choices[0].id).toBe(NOT_SENT);
    expect(mode.default).toBe(NOT_SENT);
  });

  it('gives a bounded integer a text that accepts variables, and an optional one a "send" box', () => {
    const inputs = inputsOf('show_player_stats');
    expect(inputs.find((input) => input.id === 'slot')).toMatchObject({
      type: 'textinput',
      label: 'slot (0 to 9)',
      useVariables: true,
      default: '0',
    });
    expect(inputs.find((input) => input.id === 'durationMs')).toMatchObject({
      type: 'textinput',
      label: 'durationMs (1 to 3600000)',
      useVariables: true,
      isVisibleExpression: '$(options:durationMs__send)',
    });
    expect(inputs.find((input) => input.id === 'durationMs__send')).toMatchObject({
      type: 'checkbox',
      default: false,
    });
  });

  it('gives booleans with a default a checkbox and optional ones a three-way dropdown', () => {
    expect(inputsOf('import_match_veto').find((input) => input.id === 'apply')).toMatchObject({
      type: 'checkbox',
      default: true,
    });
    const enabled = inputsOf('set_smart_observer').find((input) => input.id === 'enabled') as any;
    expect(enabled.choices.map((choice: any) => choice.id)).toEqual([NOT_SENT, 'true', 'false']);
  });

  it('flattens objects into one option per property', () => {
    expect(inputsOf('set_teams').map((input) => input.id)).toEqual([
      'teamA__name',
      'teamA__logo',
      'teamA__tag',
      'teamB__name',
      'teamB__logo',
      'teamB__tag',
      'boFormat',
    ]);
  });

  it('gives a nullable slot a dropdown with null and every slot', () => {
    const slot = inputsOf('set_stats_player')[0] as any;
    expect(slot.choices.map((choice: any) => choice.id)).toEqual([NULL_CHOICE, ...'0123456789'.split('')]);
  });

  it('refuses a schema it has no option for, naming where', () => {
    expect(() =>
      fieldsOf({ type: 'object', properties: { when: { type: 'number' } } } as JsonSchema),
    ).toThrow(/no Companion option for the schema at when/);
  });
});

describe('payload from the options', () => {
  it('sends a command without payload with no body', () => {
    expect(payload('toggle_scoreboard', {})).toBeUndefined();
  });

  it('builds nested objects and leaves out blank optional fields', () => {
    expect(payload('veto_start', { boFormat: 'bo3', teamA__name: 'Vitality', teamB__name: 'FaZe' })).toEqual({
      boFormat: 'bo3',
      teamA: { name: 'Vitality' },
      teamB: { name: 'FaZe' },
    });
  });

  it('sends digits of a series map as a number and anything else as a name', () => {
    expect(payload('set_map_result', { map: '2', scoreA: 13, scoreB: 9 })).toEqual({
      map: 2,
      scoreA: 13,
      scoreB: 9,
    });
    expect(payload('set_map_result', { map: 'Dust II', scoreA: 0, scoreB: 0 })).toMatchObject({
      map: 'Dust II',
    });
    expect(() => payload('set_map_result', { map: '7', scoreA: 0, scoreB: 0 })).toThrow('map: 7 is above 5');
  });

  it('sends an optional number only when its box is ticked', () => {
    expect(payload('show_player_stats', { slot: 3, durationMs: 5000 })).toEqual({ slot: 3 });
    expect(payload('show_player_stats', { slot: 3, durationMs: 5000, durationMs__send: true })).toEqual({
      slot: 3,
      durationMs: 5000,
    });
  });

  it('sends null for the null choice and a number for a slot', () => {
    expect(payload('set_stats_player', { slot: NULL_CHOICE })).toEqual({ slot: null });
    expect(payload('set_stats_player', { slot: '7' })).toEqual({ slot: 7 });
  });

  it('reads a comma separated map pool and a JSON list of steps', () => {
    expect(
      payload('veto_start', { teamA__name: 'A', teamB__name: 'B', mapPool: 'nuke, mirage ,inferno' }),
    ).toMatchObject({ mapPool: ['nuke', 'mirage', 'inferno'] });
    const steps = [{ type: 'decider', map: 'nuke' }];
    expect(
      payload('veto_set', { teamA__name: 'A', teamB__name: 'B', steps: JSON.stringify(steps) }),
    ).toMatchObject({
      steps,
    });
    expect(() => payload('veto_set', { teamA__name: 'A', teamB__name: 'B', steps: '[{' })).toThrow(
      /steps: not JSON/,
    );
  });

  it('refuses bad input with a message that names the option', () => {
    expect(() => payload('set_event_name', { name: 'x'.repeat(121) })).toThrow(
      'name: at most 120 characters (121 given)',
    );
    expect(() => payload('veto_start', { teamA__name: '', teamB__name: 'B' })).toThrow('teamA.name is empty');
    expect(() => payload('veto_start', { teamA__name: '   ', teamB__name: 'B' })).toThrow(
      'teamA.name is blank',
    );
    expect(() => payload('show_player_stats', { slot: 1.5 })).toThrow('slot: 1.5 is not a whole number');
    expect(() => payload('set_smart_observer', {})).toThrow(PayloadInputError);
    expect(() => payload('set_smart_observer', {})).toThrow(
      /choose at least 1 of enabled, mode, cinematicEnabled/,
    );
  });

  it('sends a required empty text when the schema allows it (clearing the event name)', () => {
    expect(payload('set_event_name', { name: '' })).toEqual({ name: '' });
  });
});
