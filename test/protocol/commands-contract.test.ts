/**
 * The command contract (src/protocol/commands.ts) is what runs: the registry's commands are its
 * entries, and its types refuse, at compile time, a command name or a payload field that is not in
 * it, on the side of the pages (trigger) and of the handlers (defineCommand). The compile-time half
 * is checked by `tsc --noEmit` (npm test, npm run typecheck): each `@ts-expect-error` below fails
 * the type check the day the line it marks compiles.
 */
import { describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/core/commands/command.ts';
import { INTERNAL_COMMANDS } from '../../src/core/commands/internal.commands.ts';
import { COMMANDS } from '../../src/core/commands/registry.ts';
import { SETTINGS_COMMANDS } from '../../src/core/commands/settings.commands.ts';
import type { CommandName, CommandResultOf, PayloadArgs } from '../../src/protocol/commands.ts';
import {
  COMMAND_CONTRACTS,
  COMMAND_NAMES,
  REPORT_CONTRACTS,
  SETTINGS_CONTRACTS,
} from '../../src/protocol/commands.ts';

/** The pages' trigger, as src/pages/common/client.ts types it. */
declare function trigger<N extends CommandName>(
  name: N,
  ...payload: PayloadArgs<N>
): Promise<CommandResultOf<N>>;

// Never called: it exists for the type check.
function contractTypeChecks(): void {
  // @ts-expect-error a command that is not in the contract
  void trigger('set_team');
  // @ts-expect-error a renamed payload field
  void trigger('set_teams', { teamOne: { name: 'A' }, teamB: { name: 'B' } });
  // @ts-expect-error a value outside the field's list
  void trigger('set_team_format', { format: '4v4' });
  // @ts-expect-error a payload for a command that takes none
  void trigger('swap_sides', {});
  // @ts-expect-error no payload for a command that requires one
  void trigger('veto_select');
  // Numbers and booleans may travel as text, as the dispatcher coerces them.
  void trigger('set_map_result', { map: 1, scoreA: '13', scoreB: 9, finished: 'true' });
  void trigger('veto_reveal');
  void trigger('swap_sides').then((result) => {
    const side: 'CT' | 'T' = result.teamA;
    // @ts-expect-error a field the result does not have
    void result.sides;
    return side;
  });
  // An extra field compiles (TypeScript's types are open): test/core/command-results.test.ts
  // catches it at run time.
  defineCommand('swap_sides', {
    // @ts-expect-error a handler that answers another shape
    run: () => ({ teamA: 'CT', teamB: 'left' }),
  });
  defineCommand('veto_select', {
    // @ts-expect-error a handler that reads a payload field the command does not have
    run: (_context, payload) => payload.mapName,
  });
}

void contractTypeChecks;

describe('the command contract', () => {
  it('is what the registries run, in the order GET /api/actions lists the public commands', () => {
    expect(COMMANDS.map((command) => command.id)).toEqual(COMMAND_NAMES);
    expect(INTERNAL_COMMANDS.map((command) => command.id)).toEqual(Object.keys(REPORT_CONTRACTS));
    expect(SETTINGS_COMMANDS.map((command) => command.id)).toEqual(Object.keys(SETTINGS_CONTRACTS));
  });

  it('gives every command a result schema and a payload schema that is an object or none', () => {
    for (const [name, contract] of Object.entries({
      ...COMMAND_CONTRACTS,
      ...REPORT_CONTRACTS,
      ...SETTINGS_CONTRACTS,
    })) {
      expect(contract.result, name).toBeTruthy();
      if (contract.payload) expect(contract.payload.type, name).toBe('object');
    }
  });
});
