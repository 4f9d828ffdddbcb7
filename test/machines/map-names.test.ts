import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIVE_DUTY_POOL, mapLabel, normalizeMapName } from '../../machines/map-names.ts';

describe('normalizeMapName', () => {
  const table: Array<[string, string | null]> = [
    ['Mirage', 'de_mirage'],
    ['mirage', 'de_mirage'],
    ['de_mirage', 'de_mirage'],
    ['DE_MIRAGE', 'de_mirage'],
    [' mirage ', 'de_mirage'],
    ['\tMirage\n', 'de_mirage'],
    ['Dust II', 'de_dust2'],
    ['dust2', 'de_dust2'],
    ['Dust 2', 'de_dust2'],
    ['dust_2', 'de_dust2'],
    ['Dust-II', 'de_dust2'],
    ['de_dust2', 'de_dust2'],
    ['dust', 'de_dust2'],
    ['workshop/2126169449/de_mirage', 'de_mirage'],
    ['workshop/2126169449/Mirage', 'de_mirage'],
    ['cs_office', 'cs_office'],
    ['CS_Italy', 'cs_italy'],
    ['ar_baggage', 'ar_baggage'],
    ['Ancient', 'de_ancient'],
    ['Train', 'de_train'],
    ['', null],
    ['   ', null],
    ['!!', null],
    ['a', null],
    ['de_', null],
    ['workshop/123/', null],
    ['mirage!', null],
    ['mïrage', null],
    ['x'.repeat(25), null],
    ['mirage'.repeat(100), null],
    ['x'.repeat(24), `de_${'x'.repeat(24)}`],
  ];
  for (const [input, expected] of table) {
    it(`${JSON.stringify(input.length > 30 ? `${input.slice(0, 12)}… (${input.length} chars)` : input)} -> ${expected}`, () => {
      expect(normalizeMapName(input)).toBe(expected);
    });
  }

  it('keeps every Active Duty name as it is', () => {
    for (const map of ACTIVE_DUTY_POOL) expect(normalizeMapName(map)).toBe(map);
  });

  // Regression: the alias and label tables were plain objects, so a name that is an
  // Object.prototype key found the inherited member ("constructor" became a function).
  it('a name that is also an Object.prototype key ("constructor") is a map name like any other', () => {
    expect(normalizeMapName('constructor')).toBe('de_constructor');
    expect(normalizeMapName('de_constructor')).toBe('de_constructor');
    expect(mapLabel('de_constructor')).toBe('Constructor');
    expect(mapLabel('constructor')).toBe('Constructor');
  });
});

describe('mapLabel', () => {
  const table: Array<[string, string]> = [
    ['de_mirage', 'Mirage'],
    ['de_dust2', 'Dust II'],
    ['de_ancient', 'Ancient'],
    ['de_overpass', 'Overpass'],
    ['cs_office', 'Office'],
    ['ar_baggage', 'Baggage'],
  ];
  for (const [map, label] of table) {
    it(`${map} -> ${label}`, () => {
      expect(mapLabel(map)).toBe(label);
    });
  }

  it('labels every Active Duty map, and the label normalises back to the map', () => {
    for (const map of ACTIVE_DUTY_POOL) {
      expect(mapLabel(map)).toMatch(/^[A-Z]/);
      expect(normalizeMapName(mapLabel(map))).toBe(map);
    }
  });
});

describe('normalizeMapName, properties', () => {
  /** Text an operator or a source could send: any string, map-like spellings, and tricky names. */
  const anyName = fc.oneof(
    fc.constantFrom('constructor', 'de_constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc
      .tuple(
        fc.constantFrom('', 'de_', 'DE_', 'cs_', 'ar_', 'workshop/123/', ' ', 'de_de_'),
        fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 _-.IV/'), maxLength: 30 }),
        fc.constantFrom('', ' ', '\n'),
      )
      .map((parts) => parts.join('')),
  );

  it('never throws, answers a full name or null, and normalising twice is normalising once', () => {
    fc.assert(
      fc.property(anyName, (input) => {
        const once = normalizeMapName(input);
        if (once === null) return;
        expect(once).toMatch(/^(de|cs|ar)_[a-z0-9]{2,24}$/);
        expect(normalizeMapName(once)).toBe(once);
      }),
      { numRuns: 2_000 },
    );
  });

  it('ignores case, surrounding spaces and the de_ prefix', () => {
    const bare = fc
      .string({
        unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
        minLength: 2,
        maxLength: 24,
      })
      .filter((name) => !['dust', 'dustii'].includes(name));
    fc.assert(
      fc.property(
        bare,
        fc.constantFrom('', ' ', '  '),
        fc.boolean(),
        fc.boolean(),
        (name, pad, upper, prefix) => {
          const text = `${pad}${prefix ? 'de_' : ''}${upper ? name.toUpperCase() : name}${pad}`;
          expect(normalizeMapName(text)).toBe(`de_${name}`);
        },
      ),
    );
  });
});

describe('normalizeMapName with separated prefixes', () => {
  it.each([
    ['de mirage', 'de_mirage'],
    ['DE-Nuke', 'de_nuke'],
    ['cs office', 'cs_office'],
    ['de_dust 2', 'de_dust2'],
  ])('%s -> %s', (input, full) => {
    expect(normalizeMapName(input)).toBe(full);
  });
});
