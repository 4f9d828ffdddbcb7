/** The team logo rules on their own: which logos are fetched, their statuses, derived tags, image types. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  derivedTag,
  isRemoteLogo,
  logoFetchChanges,
  logoStatusesFor,
  logoStatusOf,
  TAG_LENGTH,
} from '../../machines/team-logo.ts';
import { imageTypeOf } from '../../src/protocol/media.ts';
import { pngOf, svgOf } from '../helpers/logos.ts';

const NAVI = 'https://img-cdn.hltv.org/teamlogo/navi.png';
const FAZE = 'https://img-cdn.hltv.org/teamlogo/faze.svg';

describe('logo statuses', () => {
  it('only http(s) addresses are fetched; uploads and data URLs are shown as they are', () => {
    expect(isRemoteLogo(NAVI)).toBe(true);
    expect(isRemoteLogo('HTTP://example.org/a.png')).toBe(true);
    expect(isRemoteLogo('/media/0123456789abcdef0123456789abcdef.png')).toBe(false);
    expect(isRemoteLogo('data:image/png;base64,AAAA')).toBe(false);
    expect(logoStatusOf(undefined, {})).toBeNull();
    expect(logoStatusOf('data:image/png;base64,AAAA', {})).toEqual({
      state: 'stored',
      src: 'data:image/png;base64,AAAA',
    });
    expect(logoStatusOf(NAVI, { [NAVI]: { state: 'failed', reason: 'x' } })).toEqual({
      state: 'failed',
      reason: 'x',
    });
  });

  it('keeps what it knows, retries a failed logo sent again, fetches a new one, drops one no longer used', () => {
    const known = {
      [NAVI]: { state: 'stored' as const, src: '/media/a.png' },
      [FAZE]: { state: 'failed' as const, reason: 'x' },
    };
    expect(logoStatusesFor([NAVI, FAZE], known, [])).toBe(known);
    expect(logoStatusesFor([NAVI, FAZE], known, [FAZE])).toEqual({
      [NAVI]: known[NAVI],
      [FAZE]: { state: 'fetching' },
    });
    expect(logoStatusesFor([NAVI, NAVI, undefined, '/media/x.png'], known, [NAVI])).toEqual({
      [NAVI]: known[NAVI],
    });
  });

  it('starts a fetch for each logo that began fetching and stops one for each that ended', () => {
    const property = fc.property(
      fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom('fetching', 'stored', 'failed')),
      fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.constantFrom('fetching', 'stored', 'failed')),
      (before, after) => {
        const of = (states: Record<string, string>) =>
          Object.fromEntries(Object.entries(states).map(([k, state]) => [k, { state: state as 'fetching' }]));
        const { start, stop } = logoFetchChanges(of(before), of(after));
        const running = new Set(Object.keys(before).filter((k) => before[k] === 'fetching'));
        for (const logo of stop) running.delete(logo);
        for (const logo of start) {
          expect(running.has(logo)).toBe(false);
          running.add(logo);
        }
        expect([...running].sort()).toEqual(
          Object.keys(after)
            .filter((k) => after[k] === 'fetching')
            .sort(),
        );
      },
    );
    fc.assert(property);
  });
});

describe('derived tags', () => {
  it.each([
    ['FaZe Clan', 'FAZE'],
    ['Natus Vincere', 'NV'],
    ['G2', 'G2'],
    ['Team Spirit', 'SPIRIT'],
    ['Astralis', 'ASTR'],
    ['The MongolZ', 'MONG'],
    ['Team Liquid', 'LIQUID'],
    ['Eternal Fire', 'EF'],
    ['Team A', 'A'],
  ])('%s is %s', (name, tag) => expect(derivedTag(name)).toBe(tag));

  it('is never longer than a tag may be, nor empty for a name with a letter', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64 }).filter((name) => /\S/.test(name)),
        (name) => {
          const tag = derivedTag(name);
          expect([...tag].length).toBeLessThanOrEqual(TAG_LENGTH.max);
          expect(tag.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('image types by their first bytes', () => {
  it('knows PNG, JPEG, GIF, WebP and SVG by their first bytes; refuses text and HTML', () => {
    expect(imageTypeOf(pngOf(4, 0))?.ext).toBe('png');
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))?.ext).toBe('jpg');
    expect(imageTypeOf(Buffer.from('GIF89a....'))?.ext).toBe('gif');
    expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))?.ext).toBe('webp');
    expect(imageTypeOf(svgOf('TL', '#000'))?.ext).toBe('svg');
    expect(
      imageTypeOf(
        Buffer.from('\uFEFF  <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg viewBox="0 0 1 1"/>'),
      )?.ext,
    ).toBe('svg');
    // An SVG that could run is still an SVG by its first bytes: the media store refuses it
    // (test/persistence/image-check.test.ts).
    for (const text of ['<html><svg></svg></html>', 'not an image', '']) {
      expect(imageTypeOf(Buffer.from(text)), text).toBeNull();
    }
  });
});
