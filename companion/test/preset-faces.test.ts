/**
 * Every face of the show page reads whole words on a 72 x 72 button: each preset has a size of its
 * own (never "auto", which cuts words), and at that size each word of its text fits on a line and
 * its lines fit in the face, with each variable at the longest value it usually shows. The estimate
 * of what fits is src/face-text.ts, held to a real Companion by test/face-text.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { faceProblems } from '../src/face-text.ts';
import { presetDefinitions } from '../src/presets.ts';

const LABEL = 'hud';

/**
 * The longest value each variable on a face usually shows: real team, player and map names of the
 * longer kind, two-digit scores, the longest status word. A face with a variable not named here fails,
 * so a new one gets a size chosen for what it shows.
 */
const LONGEST_VALUE: Array<[RegExp, string]> = [
  [/^veto_(revealed|total)$/, '7'],
  [/^veto_next$/, 'Complexity to pick'],
  [/^veto_remaining_\d$/, 'overpass'],
  [/^team_[ab]_side$/, 'CT'],
  [/^team_[ab]_short$/, 'Complexity'],
  [/^series_score_[ab]$/, '3'],
  [/^slot_\d_name$/, 'electroNic'],
  [/^(observer_suggestion|observed_name)$/, 'electroNic'],
  [/^map_\d_name$/, 'Overpass'],
  [/^map_\d_score$/, '13-11'],
  [/^score_[ab]$/, '13'],
  [/^connection_status$/, 'unreachable'],
];

/** What value feedbacks write over a face's text (src/feedbacks.ts): the widest of each. */
const VALUE_TEXT: Record<string, string> = {
  round_time: '1:55',
  player_money: '$16000',
  team_score: '16',
};

function withLongestValues(text: string): { text: string; unknown: string[] } {
  const unknown: string[] = [];
  const filled = text.replace(/\$\(([^:)]+):([^)]+)\)/g, (variable, label: string, id: string) => {
    const value = label === LABEL ? LONGEST_VALUE.find(([pattern]) => pattern.test(id))?.[1] : undefined;
    if (value === undefined) unknown.push(variable);
    return value ?? '';
  });
  return { text: filled, unknown };
}

const presets = Object.values(
  presetDefinitions(LABEL, [
    { id: 'midnight', name: 'Midnight' },
    { id: 'daylight', name: 'Daylight' },
    { id: 'finals', name: 'Budapest Major grand final, night edition' },
    { id: 'nameless' },
  ]),
) as Array<{ name: string; style: { text: string; size: unknown }; feedbacks: Array<{ feedbackId: string }> }>;

describe('every face of the show page', () => {
  it('has a size of its own, never "auto"', () => {
    const auto = presets.filter((preset) => typeof preset.style.size !== 'number');
    expect(auto.map((preset) => `${preset.name}: ${String(preset.style.size)}`)).toEqual([]);
  });

  it('reads whole words at its size, with each variable at its longest usual value', () => {
    const problems: string[] = [];
    for (const preset of presets) {
      const { text, unknown } = withLongestValues(preset.style.text);
      for (const variable of unknown) problems.push(`${preset.name}: no longest value for ${variable}`);
      for (const problem of faceProblems(text, Number(preset.style.size))) problems.push(`${preset.name}: ${problem}`);
      for (const feedback of preset.feedbacks) {
        const value = VALUE_TEXT[feedback.feedbackId];
        if (value === undefined) continue;
        for (const problem of faceProblems(value, Number(preset.style.size)))
          problems.push(`${preset.name} (${feedback.feedbackId}): ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('would be caught cutting a word: STATS at 24, the size Companion cut it at', () => {
    expect(faceProblems('STATS', 24)).not.toEqual([]);
  });

  it('gives a colour preset of any name a face of whole words', () => {
    const faces = presets.filter((preset) => preset.name.startsWith('Colour '));
    expect(faces.map((preset) => [preset.style.text, preset.style.size])).toEqual([
      ['MIDNIGHT', 13],
      ['DAYLIGHT', 12],
      [expect.stringMatching(/^BUDAPEST MAJOR/), expect.any(Number)],
      ['NAMELESS', 11],
    ]);
  });
});
