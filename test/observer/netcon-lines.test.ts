/** The whitelist of console lines (src/observer/netcon-lines.ts) and the cut strategies' rules. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CUT_STRATEGIES,
  canAddress,
  isQuotableName,
  strategyFor,
} from '../../machines/observer-strategies.ts';
import {
  accountIdOf,
  consoleLine,
  cutLines,
  isAllowedLine,
  namedLine,
  RELEASE_LINE,
} from '../../src/observer/netcon-lines.ts';

// s1mple in the FaZe–NaVi capture: 76561198034202275 − 76561197960265728.
const S1MPLE = { steamid: '76561198034202275', name: 's1mple' };

describe('console lines', () => {
  it('writes each strategy as the lines its sources use', () => {
    expect(accountIdOf(S1MPLE.steamid)).toBe(73_936_547);
    expect(cutLines('name', S1MPLE)).toEqual(['spec_autodirector 0', 'spec_player "s1mple"']);
    expect(cutLines('name_lock', S1MPLE)).toEqual([
      'spec_autodirector 0',
      'spec_player "s1mple"',
      'spec_lock_to_accountid 73936547',
      'spec_mode 2',
    ]);
    expect(cutLines('lock', S1MPLE)).toEqual(['spec_lock_to_accountid 73936547']);
    expect(cutLines('csgo', S1MPLE)).toEqual([
      'spec_player_by_accountid 73936547',
      'spec_lock_to_accountid 73936547',
    ]);
    expect(RELEASE_LINE).toBe('spec_lock_to_accountid 0');
  });

  it.each([
    '2', // a bot in the CS:GO bots capture
    '76561197960265728', // account id 0
    '7656119803420227', // too short
    '76561198034202275 ',
    '76561198034202275;quit',
    '76561198034202275\nquit',
    's1mple',
    '',
  ])('no account strategy names the SteamID %j', (steamid) => {
    for (const strategy of ['name_lock', 'lock', 'csgo'] as const)
      expect(cutLines(strategy, { steamid, name: 'ok' })).toBeNull();
  });

  it.each([
    'x"; quit; echo "',
    'evil\nexec autoexec',
    'semi;colon',
    'back\\slash',
    'slash//comment',
    "apo'strophe",
    '7ven', // spec_player reads a leading number as a slot
    ' padded',
    'padded ',
    '',
    'a'.repeat(65),
    'tab\there',
    'nul\u0000',
    'rtl\u202eoverride',
  ])('the name strategies skip the name %j', (name) => {
    expect(isQuotableName(name)).toBe(false);
    expect(cutLines('name', { ...S1MPLE, name })).toBeNull();
    expect(cutLines('name_lock', { ...S1MPLE, name })).toBeNull();
    // The account still names him.
    expect(cutLines('lock', { ...S1MPLE, name })).toEqual(['spec_lock_to_accountid 73936547']);
  });

  it.each([
    's1mple',
    'NiKo',
    'ZywOo',
    'Crusher',
    'b1t',
    'Ax1Le',
    'electroNic',
    'jks |',
    'mONESY',
    'Perfecto',
    'Фёдор',
    '김',
  ])('quotes the ordinary name %j', (name) => {
    expect(namedLine(name)).toBe(`spec_player "${name}"`);
    expect(isAllowedLine(`spec_player "${name}"`)).toBe(true);
  });

  it('builds only whitelisted words with integers in range', () => {
    expect(consoleLine('spec_lock_to_accountid', 5)).toBe('spec_lock_to_accountid 5');
    expect(consoleLine('spec_player_by_accountid', 0)).toBeNull();
    expect(consoleLine('spec_lock_to_accountid', -1)).toBeNull();
    expect(consoleLine('spec_lock_to_accountid', 2 ** 32)).toBeNull();
    expect(consoleLine('spec_lock_to_accountid', 1.5)).toBeNull();
    expect(consoleLine('spec_mode', 3)).toBeNull();
    expect(consoleLine('spec_autodirector', 1)).toBeNull();
    expect(consoleLine('quit', 1)).toBeNull();
    expect(consoleLine('toString', 1)).toBeNull();
    expect(consoleLine('__proto__', 1)).toBeNull();
    expect(isAllowedLine('spec_lock_to_accountid 73936547')).toBe(true);
    expect(isAllowedLine('spec_lock_to_accountid 073936547')).toBe(false);
    expect(isAllowedLine('spec_lock_to_accountid 1; quit')).toBe(false);
    expect(isAllowedLine('spec_player "s1mple"')).toBe(true);
    expect(isAllowedLine('spec_player "s1mple"; quit')).toBe(false);
    expect(isAllowedLine('spec_player "a";quit;"b"')).toBe(false);
    expect(isAllowedLine('spec_player 3')).toBe(false);
    expect(isAllowedLine('quit 1')).toBe(false);
  });

  it('whatever the frame says, a line is one documented command with one safe argument', () => {
    const documented =
      /^(spec_player_by_accountid [1-9][0-9]*|spec_lock_to_accountid (0|[1-9][0-9]*)|spec_autodirector 0|spec_mode 2|spec_player "[^";\\/'\n\r\t\p{Cc}]+")$/u;
    const steamid = fc.oneof(
      fc.string(),
      fc.bigInt({ min: 76561197960265728n, max: 76561199999999999n }).map(String),
    );
    const name = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom('x"; quit; echo "', 'evil\nexec autoexec', 'a;b', '\\"', 's1mple'),
    );
    fc.assert(
      fc.property(fc.constantFrom(...CUT_STRATEGIES), steamid, name, (strategy, id, text) => {
        const lines = cutLines(strategy, { steamid: id, name: text });
        expect(lines === null).toBe(!canAddress(strategy, { steamid: id, name: text }));
        for (const line of lines ?? []) {
          expect(line).toMatch(documented);
          expect(isAllowedLine(line)).toBe(true);
          expect(line).not.toMatch(/[\n\r;]/);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('the gate refuses every line the whitelist would not build', () => {
    fc.assert(
      fc.property(fc.string(), (line) => {
        if (isAllowedLine(line)) expect(line).toMatch(/^spec_[a-z_]+ ("[^";\\/'\n]+"|[0-9]+)$/);
      }),
      { numRuns: 3_000 },
    );
  });

  it('a strategy that cannot name a player skips him for the next one that can', () => {
    const hostile = { steamid: S1MPLE.steamid, name: 'x"; quit' };
    const probe = { pinned: null, working: null, failed: [] };
    expect(strategyFor(hostile, { ...probe, dialect: 'cs2' })).toBe('lock');
    expect(strategyFor(S1MPLE, { ...probe, dialect: 'cs2' })).toBe('name');
    expect(strategyFor(S1MPLE, { ...probe, dialect: 'cs2', failed: ['name'] })).toBe('name_lock');
    expect(strategyFor(S1MPLE, { ...probe, dialect: 'csgo' })).toBe('csgo');
    expect(strategyFor(hostile, { ...probe, dialect: 'cs2', pinned: 'name' })).toBeNull();
    expect(
      strategyFor({ steamid: '2', name: 'Crusher' }, { ...probe, dialect: 'cs2', failed: ['name'] }),
    ).toBeNull();
  });
});
