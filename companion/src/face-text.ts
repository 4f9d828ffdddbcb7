/**
 * What fits on a button's face. Companion 4 draws a button's text in a 68 x 57 px box under the top
 * bar (lib/Graphics/Renderer.ts: drawAlignedText(2, 15, 68, 57, …)) in Arimo (Arial's metrics). When
 * a word is wider than the box it cuts the word where the box ends ("STAT|S"), and its "auto" size
 * only checks that the lines fit in height, so it cuts words too. So every preset has a size of its
 * own, chosen so that each word fits on a line; these estimates are how a size is checked.
 *
 * The estimates are conservative, derived from the faces Companion 4.2.6 drew at "auto" (the 24 px
 * it picks for two lines of short words): "RADA" and "MIDNI" fitted on a line at 24 px but "OVER"
 * and "STATS" did not, so a capital letter is about 68 / 24 / 4 = 0.71 em wide (Arimo's capitals
 * average 0.68 em; W and M are wider, 0.94 and 0.83, and no label is made of them); at 17 px
 * "CANCE" fitted and "CANCEL" did not, which 0.72 em also says. Lower-case letters and digits are
 * 0.5 to 0.56 em in Arimo: 0.6 em, the rule of thumb of 72 / size * 1.7 characters on a line. Narrow
 * glyphs (i, l, t, r, space, punctuation) are 0.22 to 0.33 em: 0.35 em. Anything beyond Latin (CJK,
 * emoji, which Companion draws from its fallback fonts) 1.25 em. A line is 1.12 times the size high
 * (Arimo's ascent plus descent, as Companion measures it), and Companion drops the last line when
 * the lines reach the box's height: two lines fit at 24 px (53.8 px) but not at 31 px, as "auto" showed.
 */

export const FACE_TEXT_WIDTH = 68;
export const FACE_TEXT_HEIGHT = 57;
const LINE_HEIGHT = 1.12;
/** The smallest size a face is given: Companion's own "small" (7 px), still read at arm's length. */
export const SMALLEST_SIZE = 7;
/** The largest size a computed face gets: the page's one-word faces' (STATS, RADAR), so a short name does not shout. */
export const LARGEST_SIZE = 18;

const NARROW = /[\s!'(),./:;I[\]fijlrt|-]/;
const WIDE = /[\p{Lu}mw@%&]/u;
const LATIN = /[\u0000-\u024f]/;

/** The estimated width of one character, in em. */
function charEm(char: string): number {
  if (NARROW.test(char)) return 0.35;
  if (WIDE.test(char)) return 0.72;
  if (LATIN.test(char)) return 0.6;
  return 1.25;
}

/** Companion's characters: grapheme clusters, so an emoji of several code points is one. */
const graphemes = (text: string) => [...new Intl.Segmenter().segment(text)].map((part) => part.segment);

/** The estimated width of `text` on one line at `size` px. */
export function textWidth(text: string, size: number): number {
  return graphemes(text).reduce((sum, char) => sum + charEm(char), 0) * size;
}

/** The lines a face's text is drawn in: its own line breaks, then a break at a space where a line is too wide. */
export function wrapLines(text: string, size: number): string[] {
  const lines: string[] = [];
  for (const line of text.replace(/\\n/g, '\n').trim().split('\n')) {
    let current = '';
    for (const word of line.split(' ').filter(Boolean)) {
      const joined = current ? `${current} ${word}` : word;
      if (current && textWidth(joined, size) > FACE_TEXT_WIDTH) {
        lines.push(current);
        current = word;
      } else current = joined;
    }
    lines.push(current);
  }
  return lines;
}

/** How many lines fit at `size`: Companion drops the last one when they reach the box's height. */
export function linesThatFit(size: number): number {
  return Math.ceil(FACE_TEXT_HEIGHT / (LINE_HEIGHT * size)) - 1;
}

/**
 * What Companion would cut on this face at this size: each word wider than the box (cut mid-word)
 * and the lines beyond the box's height (dropped). Empty when the face reads whole.
 */
export function faceProblems(text: string, size: number): string[] {
  const lines = wrapLines(text, size);
  const problems = lines
    .flatMap((line) => line.split(' '))
    .filter((word) => textWidth(word, size) > FACE_TEXT_WIDTH)
    .map((word) => `"${word}" is ${Math.round(textWidth(word, size))} px wide at ${size} px (the face has ${FACE_TEXT_WIDTH})`);
  if (lines.length > linesThatFit(size))
    problems.push(`${lines.length} lines at ${size} px (${linesThatFit(size)} fit)`);
  return problems;
}

/** The largest size, from LARGEST_SIZE down to SMALLEST_SIZE, at which the face reads whole; undefined when none. */
export function largestFittingSize(text: string): number | undefined {
  for (let size = LARGEST_SIZE; size >= SMALLEST_SIZE; size -= 1)
    if (faceProblems(text, size).length === 0) return size;
  return undefined;
}

/** Companion draws at most (68 * 57) / 2 characters; a name longer than any face is cut here first. */
const NAME_LIMIT = 200;
const ELLIPSIS = '…';

/**
 * A face for a name the server gives (a colour preset's, of any length): in capitals like every
 * other face, at the largest size at which its longest word fits and its lines fit. A name that does
 * not fit even at SMALLEST_SIZE keeps the words that do, whole, and ends in "…": a shortened name
 * still reads, a word cut in two does not.
 */
export function nameFace(name: string): { text: string; size: number } {
  // A "\\n" typed in the name would be a line break on the face: a space, as the name means.
  const words = name.slice(0, NAME_LIMIT).replace(/\\[nrt]/g, ' ').toUpperCase().split(/\s+/).filter(Boolean);
  const whole = words.join(' ');
  const size = largestFittingSize(whole);
  if (size !== undefined) return { text: whole, size };
  const kept: string[] = [];
  for (const word of words) {
    const shortened = fitWord(word);
    const trial = shortened === word ? [...kept, word, ELLIPSIS] : [...kept, shortened];
    if (faceProblems(trial.join(' '), SMALLEST_SIZE).length > 0) break;
    kept.push(shortened);
    if (shortened !== word) break;
  }
  const text = kept.at(-1)?.endsWith(ELLIPSIS) ? kept.join(' ') : [...kept, ELLIPSIS].join(' ');
  return { text, size: SMALLEST_SIZE };
}

/** The word itself when it fits at SMALLEST_SIZE, else as many of its first characters as fit, then "…". */
function fitWord(word: string): string {
  if (textWidth(word, SMALLEST_SIZE) <= FACE_TEXT_WIDTH) return word;
  const chars = graphemes(word);
  let kept = chars.length;
  while (kept > 0 && textWidth(chars.slice(0, kept).join('') + ELLIPSIS, SMALLEST_SIZE) > FACE_TEXT_WIDTH) kept -= 1;
  return chars.slice(0, kept).join('') + ELLIPSIS;
}
