/**
 * The estimate of what fits on a face (src/face-text.ts), held to what a real Companion 4.2.6 drew:
 * every word it cut at the size "auto" gave it is a word the estimate says does not fit, and a name
 * from the server, of any length, becomes a face of whole words.
 */
import { describe, expect, it } from 'vitest';
import {
  faceProblems,
  LARGEST_SIZE,
  largestFittingSize,
  linesThatFit,
  nameFace,
  SMALLEST_SIZE,
  textWidth,
  wrapLines,
} from '../src/face-text.ts';

/** Words Companion 4.2.6 cut on the 0.1.0 preset page (/tmp/companion-presets.png), at the size it drew them. */
const CUT_BY_COMPANION: Array<[string, number]> = [
  ['STATS', 24],
  ['RADAR', 24],
  ['OVERLAY', 24],
  ['VERSUS', 24],
  ['TALENTS', 24],
  ['SPONSORS', 24],
  ['MIDNIGHT', 24],
  ['DAYLIGHT', 24],
  ['ROUND', 24],
  ['CANCEL', 17],
  ['OBSERVER', 17],
  ['SUGGEST', 17],
];

describe('the estimate of a face', () => {
  it('says every word Companion cut does not fit at the size Companion drew it', () => {
    for (const [word, size] of CUT_BY_COMPANION)
      expect(faceProblems(word, size), `${word} at ${size}`).toHaveLength(1);
  });

  it('fits what a face is made of at the sizes the page uses', () => {
    expect(faceProblems('SCORE\\nBOARD', 18)).toEqual([]);
    expect(faceProblems('REVEAL\\nNEXT\\n7/7', 14)).toEqual([]);
    expect(faceProblems('OBSERVER\\nSUGGEST', 11)).toEqual([]);
    expect(faceProblems('OBS', 24)).toEqual([]);
  });

  it('counts lines as Companion does: two at 24 and 18, three at 14, four at 12, seven at 7', () => {
    expect([24, 18, 17, 16, 14, 12, 7].map(linesThatFit)).toEqual([2, 2, 2, 3, 3, 4, 7]);
    expect(faceProblems('A\\nB\\nC', 18)).toEqual(['3 lines at 18 px (2 fit)']);
  });

  it('breaks a line at a space where it is too wide, and at the breaks the text asks for', () => {
    expect(wrapLines('Vitality to pick', 12)).toEqual(['Vitality to', 'pick']);
    expect(wrapLines('MAP\\nRECAP', 18)).toEqual(['MAP', 'RECAP']);
    expect(wrapLines('HUD\nok', 18)).toEqual(['HUD', 'ok']);
  });

  it('weighs capitals over small letters over narrow ones, and anything beyond Latin most', () => {
    expect(textWidth('M', 10)).toBeGreaterThan(textWidth('n', 10));
    expect(textWidth('n', 10)).toBeGreaterThan(textWidth('i', 10));
    expect(textWidth('夜', 10)).toBeGreaterThan(textWidth('M', 10));
    // One grapheme, as Companion counts it: a flag is one character, not two.
    expect(textWidth('🇩🇪', 10)).toBe(textWidth('夜', 10));
  });

  it('gives the largest size at which a face reads whole, none for a word no size fits', () => {
    expect(largestFittingSize('STATS')).toBe(18);
    expect(largestFittingSize('MIDNIGHT')).toBe(13);
    expect(largestFittingSize('SPONSORS')).toBe(11);
    expect(largestFittingSize('X'.repeat(40))).toBeUndefined();
  });
});

describe('a face for a name from the server', () => {
  /** Every word of the face is a word of the name, or the start of one followed by "…", or "…". */
  function wholeWords(name: string, text: string): string[] {
    const words = name.toUpperCase().split(/\s+/);
    return text
      .split(/\s+/)
      .filter((word) => word !== '…' && !words.includes(word) && !(word.endsWith('…') && words.some((whole) => whole.startsWith(word.slice(0, -1)))));
  }

  it('sizes a name by its longest word: MIDNIGHT at 13, NEON at 18', () => {
    expect(nameFace('Midnight')).toEqual({ text: 'MIDNIGHT', size: 13 });
    expect(nameFace('Night of champions')).toEqual({ text: 'NIGHT OF CHAMPIONS', size: 11 });
    expect(nameFace('Neon')).toEqual({ text: 'NEON', size: LARGEST_SIZE });
    expect(nameFace('Dark blue')).toEqual({ text: 'DARK BLUE', size: 18 });
  });

  it('reads whole words whatever the name: long, many words, no spaces, other scripts, line breaks typed in', () => {
    const names = [
      'Midnight',
      'Budapest Major 2025 grand final night',
      'Supercalifragilisticexpialidocious',
      'A'.repeat(5000),
      `${'word '.repeat(200)}end`,
      '夜のテーマ 青',
      'Team 🇩🇪 Germany',
      'Two\\nlines',
      'x',
    ];
    for (const name of names) {
      const face = nameFace(name);
      expect(face.size, name.slice(0, 40)).toBeGreaterThanOrEqual(SMALLEST_SIZE);
      expect(faceProblems(face.text, face.size), name.slice(0, 40)).toEqual([]);
      expect(wholeWords(name.replace(/\\n/g, ' '), face.text), name.slice(0, 40)).toEqual([]);
      expect(face.text.length).toBeGreaterThan(0);
    }
  });

  it('shortens a word too long for any size to its start and "…", and a name of too many words to those that fit', () => {
    const long = nameFace('Supercalifragilisticexpialidocious');
    expect(long.size).toBe(SMALLEST_SIZE);
    expect(long.text).toMatch(/^SUPERCALIFR\w*…$/);
    const many = nameFace(`${'word '.repeat(200)}end`);
    expect(many.text).toMatch(/^(WORD )+…$/);
  });
});
