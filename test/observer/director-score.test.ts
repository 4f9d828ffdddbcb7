/**
 * The director measured against people (issue 32): the measurement on a small hand-made recording
 * whose answers are worked out by hand, and on the real recordings of test/fixtures.
 */
import { describe, expect, it } from 'vitest';
import { framesOfText, scoreDirector, type TimedFrame, totalOf } from '../../src/observer/director-score.ts';
import { parseRecording } from '../../src/recorder/recordings.ts';
import { BOTS_DUST2, type Frame, fixture, ROUND_SEQUENCE } from '../helpers/gsi.ts';

const KYLE = '76561197960265729'; // CT
const BRETT = '76561197960265731'; // CT
const QUINTIN = '76561197960265732'; // T, carries the bomb in the capture
const base: Frame = await fixture(BOTS_DUST2);

/**
 * DERIVED from the bots capture (every player alive, 100 HP): Quintin plants from 0 to 1.5 s, the
 * bomb is down at 1.5 s, Kyle defuses from 2.5 s, and dies at 5 s as the round ends. The human
 * watches Quintin, then Brett from 1.5 s, then Kyle from 2.5 s.
 */
function frameAt(t: number, phase: string, bomb: Frame, watched: string, dead: string[] = []): TimedFrame {
  const frame = structuredClone(base);
  frame.round = { phase: phase === 'over' ? 'over' : 'live' };
  frame.phase_countdowns = { phase, phase_ends_in: '30.0' };
  frame.bomb = bomb;
  frame.player = { ...frame.allplayers[watched], steamid: watched };
  for (const id of dead) frame.allplayers[id].state.health = 0;
  return { t, frame };
}
const planting = { state: 'planting', player: QUINTIN, position: '1093.91, 2512.16, 96.03' };
const planted = { state: 'planted', position: '1093.91, 2512.16, 96.03' };
const defusing = { state: 'defusing', player: KYLE, position: '1093.91, 2512.16, 96.03' };
const HAND_MADE: TimedFrame[] = [
  frameAt(0, 'live', planting, QUINTIN),
  frameAt(1_000, 'live', planting, QUINTIN),
  frameAt(1_500, 'bomb', planted, BRETT),
  frameAt(2_500, 'defuse', defusing, KYLE),
  frameAt(4_000, 'defuse', defusing, KYLE),
  frameAt(5_000, 'over', planted, KYLE, [KYLE]),
];

describe('the director measured against people', () => {
  it('a hand-made recording: agreement, cuts per minute, median hold and picks that died, as worked out by hand', () => {
    const figures = scoreDirector(HAND_MADE);
    // Live 0 to 5 s (the last frame, the round over, lasts nothing). The director: Quintin (planting)
    // from 0, held through 1.5 s (his 2 s hold), Kyle (defusing) from 2.5 s. The human agrees but
    // from 1.5 to 2.5 s (Brett): 4 s of 5.
    expect(figures).toMatchObject({
      frames: 6,
      liveMs: 5_000,
      watchedMs: 5_000,
      agreedMs: 4_000,
      agreement: 0.8,
    });
    // One cut of the director in 5 s of live time, two of the human: 12 and 24 a minute.
    expect(figures.director).toMatchObject({ cuts: 1, cutsPerMinute: 12, medianHoldMs: 2_500 });
    expect(figures.human).toMatchObject({ cuts: 2, cutsPerMinute: 24, medianHoldMs: 1_500 });
    expect(figures.holds).toEqual({ director: [2_500, 2_500], human: [1_500, 1_000, 2_500] });
    // Quintin (chosen at 0) lives; Kyle (chosen at 2.5 s) is dead at 5 s, 2.5 s later.
    expect(figures.director).toMatchObject({ choices: 2, diedSoon: 1, diedShare: 0.5 });
  });

  it('the director is blind to the human: the same figures whoever the first frame shows', () => {
    const other = HAND_MADE.map(({ t, frame }, i) =>
      i === 0
        ? { t, frame: { ...frame, player: { ...frame.allplayers?.[BRETT], steamid: BRETT } } }
        : { t, frame },
    );
    expect(scoreDirector(other).director).toEqual(scoreDirector(HAND_MADE).director);
  });

  it('the total sums times and counts and takes the median over every hold', () => {
    const one = scoreDirector(HAND_MADE);
    const total = totalOf([one, one]);
    expect(total).toMatchObject({ frames: 12, liveMs: 10_000, agreement: 0.8 });
    expect(total.director).toMatchObject({ cuts: 2, cutsPerMinute: 12, medianHoldMs: 2_500, diedShare: 0.5 });
    expect(total.human.medianHoldMs).toBe(1_500);
  });

  it('reads this service recordings and game captures; the real round sequence is timed by its timestamps', async () => {
    const recording = [
      JSON.stringify({ format: 'hud-automation game recording', version: 1 }),
      ...HAND_MADE.map((frame) => JSON.stringify(frame)),
      '',
    ].join('\n');
    const parse = (text: string) => parseRecording('hand-made.jsonl', text).frames as TimedFrame[];
    expect(scoreDirector(framesOfText(recording, parse))).toEqual(scoreDirector(HAND_MADE));
    const sequence = framesOfText(JSON.stringify(await fixture(ROUND_SEQUENCE)), parse);
    expect(sequence.map((frame) => frame.t)).toEqual(
      [0, 7, 7, 10, 10, 20, 20, 30, 30, 37, 37].map((s) => s * 1000),
    );
    const figures = scoreDirector(sequence);
    expect(figures.liveMs).toBe(30_000);
    expect(figures.agreement).not.toBeNull();
    expect(() => framesOfText('not json', parse)).toThrow(/neither a recording/);
    expect(() => framesOfText('[1, 2]', parse)).toThrow(/not game frames/);
  });
});
