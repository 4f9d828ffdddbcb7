/** The whitelist of console lines (src/observer/netcon-lines.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountIdOf,
  consoleLine,
  cutLines,
  isAllowedLine,
  RELEASE_LINE,
} from '../../src/observer/netcon-lines.ts';

describe('console lines', () => {
  it('names a player by his account id, from the SteamID64 digits', () => {
    // s1mple in the FaZe–NaVi capture: 76561198034202275 − 76561197960265728.
    expect(accountIdOf('76561198034202275')).toBe(73_936_547);
    expect(cutLines('76561198034202275', 'cs2')).toEqual(['spec_lock_to_accountid 73936547']);
    expect(cutLines('76561198034202275', 'csgo')).toEqual([
      'spec_player_by_accountid 73936547',
      'spec_lock_to_accountid 73936547',
    ]);
    expect(RELEASE_LINE).toBe('spec_lock_to_accountid 0');
  });

  it.each([
    '2', // a bot in the CS:GO bots capture
    '76561197960265728', // account id 0
    '76561202255233024', // beyond 32 bits
    '7656119803420227', // too short
    '76561198034202275 ',
    '76561198034202275;quit',
    '76561198034202275\nquit',
    's1mple',
    '',
  ])('sends nothing for %j', (steamid) => {
    expect(cutLines(steamid, 'cs2')).toBeNull();
    expect(cutLines(steamid, 'csgo')).toBeNull();
  });

  it('builds only whitelisted words with integers in range', () => {
    expect(consoleLine('spec_lock_to_accountid', 5)).toBe('spec_lock_to_accountid 5');
    expect(consoleLine('spec_player_by_accountid', 0)).toBeNull();
    expect(consoleLine('spec_lock_to_accountid', -1)).toBeNull();
    expect(consoleLine('spec_lock_to_accountid', 2 ** 32)).toBeNull();
    expect(consoleLine('spec_lock_to_accountid', 1.5)).toBeNull();
    expect(consoleLine('quit', 1)).toBeNull();
    expect(consoleLine('toString', 1)).toBeNull();
    expect(consoleLine('__proto__', 1)).toBeNull();
    expect(isAllowedLine('spec_lock_to_accountid 73936547')).toBe(true);
    expect(isAllowedLine('spec_lock_to_accountid 073936547')).toBe(false);
    expect(isAllowedLine('spec_lock_to_accountid 1; quit')).toBe(false);
    expect(isAllowedLine('spec_player "s1mple"')).toBe(false);
    expect(isAllowedLine('quit 1')).toBe(false);
  });

  it('whatever the input, a line is a whitelisted word, one space, and digits', () => {
    fc.assert(
      fc.property(fc.string(), fc.oneof(fc.integer(), fc.double()), fc.string(), (word, value, steamid) => {
        const line = consoleLine(word, value);
        if (line !== null)
          expect(line).toMatch(/^(spec_player_by_accountid|spec_lock_to_accountid) (0|[1-9][0-9]*)$/);
        for (const dialect of ['cs2', 'csgo'] as const) {
          for (const cut of cutLines(steamid, dialect) ?? []) expect(isAllowedLine(cut)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
