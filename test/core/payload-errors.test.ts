import { TypeCompiler } from '@sinclair/typebox/compiler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/core/commands/registry.ts';
import { checkPayload } from '../../src/core/dispatcher.ts';
import { ServiceError } from '../../src/protocol/errors.ts';
import { build, command } from '../helpers/build.ts';

const TEAMS = { teamA: { name: 'Vitality' }, teamB: { name: 'FaZe' } };

describe('payload errors in plain words', () => {
  const cases: Array<[string, unknown, string]> = [
    [
      'veto_start',
      { boFormat: 'bo3', teamA: { name: 'x'.repeat(65) }, teamB: { name: 'FaZe' } },
      'veto_start: teamA.name: at most 64 characters',
    ],
    [
      'veto_start',
      { boFromat: 'bo3', ...TEAMS },
      'veto_start: unknown field boFromat; did you mean boFormat?',
    ],
    ['veto_start', { boFormat: 'bo7', ...TEAMS }, 'veto_start: boFormat: must be one of bo1, bo3, bo5'],
    ['veto_start', { ...TEAMS }, 'veto_start: boFormat is required'],
    [
      'veto_start',
      { boFormat: 'bo3', teamA: { name: '   ' }, teamB: { name: 'FaZe' } },
      'veto_start: teamA.name: must not be blank',
    ],
    [
      'veto_start',
      { boFormat: 'bo3', teamA: { name: 'A', logo: 'ftp://x' }, teamB: { name: 'B' } },
      'veto_start: teamA.logo: must be an http, https or data URL',
    ],
    [
      'veto_start',
      { boFormat: 'bo3', teamA: { name: 'A', nmae: 'x' }, teamB: { name: 'B' } },
      'veto_start: unknown field nmae in teamA; did you mean name?',
    ],
    [
      'veto_set',
      { boFormat: 'bo1', ...TEAMS, steps: [{ type: 'ban', team: 'C', map: 'nuke' }] },
      'veto_set: steps[0].team: must be A, B or null',
    ],
    ['veto_set', { boFormat: 'bo1', ...TEAMS, steps: [] }, 'veto_set: steps: at least 1 item'],
    ['show_player_stats', { slot: 12 }, 'show_player_stats: slot: at most 9'],
    ['show_player_stats', { slot: 'three' }, 'show_player_stats: slot: must be a whole number'],
    [
      'show_player_stats',
      { slot: 1, provider: 'hltv' },
      'show_player_stats: provider: must be one of platform_a, platform_b, live',
    ],
    ['set_sponsor_overlay', {}, 'set_sponsor_overlay: send at least one of enabled, position'],
    ['set_event_name', { name: 'x'.repeat(121) }, 'set_event_name: name: at most 120 characters'],
    ['set_map_result', { map: 1, scoreA: 13, scoreB: 100 }, 'set_map_result: scoreB: at most 99'],
    // A union (number or name) told by the member of the value's kind.
    ['set_map_result', { map: 6, scoreA: 13, scoreB: 9 }, 'set_map_result: map: at most 5'],
    [
      'set_map_result',
      { map: 'x'.repeat(65), scoreA: 1, scoreB: 0 },
      'set_map_result: map: at most 64 characters',
    ],
    [
      'set_map_result',
      { map: true, scoreA: 1, scoreB: 0 },
      'set_map_result: map: must be a whole number or text',
    ],
  ];

  for (const [action, payload, message] of cases) {
    it(`${action} ${JSON.stringify(payload).slice(0, 60)}`, async () => {
      const server = await build();
      const answer = await command(server, action, payload);
      expect(answer).toEqual({ status: 400, body: { ok: false, error: 'invalid_payload', message } });
    });
  }

  it('never shows the schema library’s wording, whatever the payload, and always names what is wrong', () => {
    const registered = COMMANDS.flatMap((c) =>
      c.payload ? [{ id: c.id, check: TypeCompiler.Compile(c.payload) }] : [],
    );
    const junk = fc.dictionary(
      fc.constantFrom(
        'boFormat',
        'teamA',
        'steps',
        'slot',
        'map',
        'scoreA',
        'name',
        'mode',
        'enabled',
        'x',
        'presetId',
      ),
      fc.oneof(
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.anything(), { maxLength: 3 }),
        fc.object({ maxDepth: 2 }),
      ),
    );
    fc.assert(
      fc.property(fc.constantFrom(...registered), junk, ({ id, check }, payload) => {
        try {
          checkPayload(id, check, payload);
        } catch (error) {
          expect(error).toBeInstanceOf(ServiceError);
          const { message } = error as ServiceError;
          expect(message.startsWith(`${id}: `)).toBe(true);
          expect(message).not.toMatch(/Expected|union|property|undefined|\[object/);
          expect(message.length).toBeGreaterThan(id.length + 8);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
