/**
 * The director measured against people (issue 32, docs/observer.md "Measured against people"). A
 * spectator recording carries the human observer's choice in every frame (`player.steamid`); the
 * director runs on the same frames, **blinded** to that choice (its first pick would otherwise start
 * from the player the game shows), and the two are compared:
 *
 * - agreement: the share of live time (the round clock's phase live, bomb or defuse) in which the
 *   director's pick is the player the human watched, of the live time in which the human watched a
 *   player (a free camera counts neither way);
 * - cuts per minute of live time, of the director and of the human (a change of pick at a live frame);
 * - the median hold: how long a pick lasted in live time (every run of one pick, the first and the
 *   last included);
 * - how often the director's pick died within 3 s of being chosen (the first pick included).
 *
 * Each frame's state lasts until the next frame's time; the last frame lasts nothing. Pure: the times
 * are the recording's, never a clock.
 */
import type { DirectorState } from '../../machines/observer-director.ts';
import { direct, initialDirectorState } from '../../machines/observer-director.ts';
import type { RawGsiFrame } from './director-frame.ts';
import { toDirectorFrame } from './director-frame.ts';

/** A frame of a recording and its time in ms (from the recording, or the capture's provider.timestamp). */
export interface TimedFrame {
  t: number;
  frame: RawGsiFrame;
}

/** A pick died this soon after being chosen: the viewer saw a death, not the play. */
export const DIED_WITHIN_MS = 3_000;
const LIVE_PHASES: ReadonlySet<string> = new Set(['live', 'bomb', 'defuse']);

export interface SideFigures {
  /** Changes of pick at live frames. */
  cuts: number;
  /** Per minute of live time (null without live time). */
  cutsPerMinute: number | null;
  /** Median length of a pick in live time (null without one). */
  medianHoldMs: number | null;
}

export interface ScoreFigures {
  frames: number;
  liveMs: number;
  /** Live time in which the human watched a player. */
  watchedMs: number;
  /** Live time in which the director's pick was the human's. */
  agreedMs: number;
  /** agreedMs / watchedMs (null when the human watched no one in live time). */
  agreement: number | null;
  director: SideFigures & {
    /** Picks made at live frames (the first included). */
    choices: number;
    /** Of those, picks whose player died within DIED_WITHIN_MS. */
    diedSoon: number;
    diedShare: number | null;
  };
  human: SideFigures;
  /** Every hold, for the total over several recordings. */
  holds: { director: number[]; human: number[] };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const perMinute = (count: number, ms: number) => (ms > 0 ? (count * 60_000) / ms : null);

/** The HUD slot does not matter here (picks are compared by SteamID): every observer slot is one. */
const anySlot = (slot: number) => (slot >= 0 && slot <= 9 ? slot : null);

/** Runs of one pick in live time: [pick, ms] of consecutive live intervals. */
function holdsOf(picks: ReadonlyArray<string | null>, live: readonly number[]): number[] {
  const holds: number[] = [];
  let current: string | null = null;
  let length = 0;
  for (let i = 0; i < picks.length; i++) {
    const ms = live[i] as number;
    if (ms === 0) continue;
    const pick = picks[i] ?? null;
    if (pick !== current) {
      if (current !== null && length > 0) holds.push(length);
      current = pick;
      length = 0;
    }
    length += ms;
  }
  if (current !== null && length > 0) holds.push(length);
  return holds;
}

/** The figures of one recording. */
export function scoreDirector(frames: readonly TimedFrame[]): ScoreFigures {
  let state: DirectorState = initialDirectorState();
  const director: Array<string | null> = [];
  const human: Array<string | null> = [];
  const liveAt: boolean[] = [];
  const dead: Array<Set<string>> = [];
  for (const { t, frame } of frames) {
    const input = toDirectorFrame(frame, { now: t, hudSlot: anySlot });
    // Blinded: the human's choice is what is measured against.
    state = direct(state, { ...input, observedSlot: null }, { cinematic: false });
    director.push(state.suggestion?.steamid ?? null);
    const watched = typeof frame.player?.steamid === 'string' ? frame.player.steamid : null;
    human.push(
      watched !== null && input.players.some((player) => player.steamid === watched) ? watched : null,
    );
    liveAt.push(LIVE_PHASES.has(input.phase));
    dead.push(new Set(input.players.filter((player) => player.health <= 0).map((player) => player.steamid)));
  }
  // Each live frame lasts until the next frame.
  const live = frames.map((frame, i) => {
    const next = frames[i + 1];
    return liveAt[i] && next ? Math.max(0, next.t - frame.t) : 0;
  });
  let liveMs = 0;
  let watchedMs = 0;
  let agreedMs = 0;
  for (let i = 0; i < frames.length; i++) {
    const ms = live[i] as number;
    liveMs += ms;
    if (human[i] === null) continue;
    watchedMs += ms;
    if (director[i] === human[i]) agreedMs += ms;
  }
  const cutsOf = (picks: ReadonlyArray<string | null>) => {
    let cuts = 0;
    for (let i = 1; i < picks.length; i++) {
      if (liveAt[i] && picks[i] !== null && picks[i - 1] !== null && picks[i] !== picks[i - 1]) cuts++;
    }
    return cuts;
  };
  let choices = 0;
  let diedSoon = 0;
  for (let i = 0; i < frames.length; i++) {
    const pick = director[i] ?? null;
    if (!liveAt[i] || pick === null || pick === (director[i - 1] ?? null)) continue;
    choices++;
    const chosenAt = (frames[i] as TimedFrame).t;
    for (let j = i + 1; j < frames.length && (frames[j] as TimedFrame).t <= chosenAt + DIED_WITHIN_MS; j++) {
      if ((dead[j] as Set<string>).has(pick)) {
        diedSoon++;
        break;
      }
    }
  }
  return figuresOf({
    frames: frames.length,
    liveMs,
    watchedMs,
    agreedMs,
    directorCuts: cutsOf(director),
    humanCuts: cutsOf(human),
    choices,
    diedSoon,
    holds: { director: holdsOf(director, live), human: holdsOf(human, live) },
  });
}

/** What the figures are computed from: times, counts and every hold. */
type Counts = Pick<ScoreFigures, 'frames' | 'liveMs' | 'watchedMs' | 'agreedMs' | 'holds'> & {
  directorCuts: number;
  humanCuts: number;
  choices: number;
  diedSoon: number;
};

function figuresOf(counts: Counts): ScoreFigures {
  const { liveMs, watchedMs, agreedMs, directorCuts, humanCuts, choices, diedSoon, holds } = counts;
  return {
    frames: counts.frames,
    liveMs,
    watchedMs,
    agreedMs,
    agreement: watchedMs > 0 ? agreedMs / watchedMs : null,
    director: {
      cuts: directorCuts,
      cutsPerMinute: perMinute(directorCuts, liveMs),
      medianHoldMs: median(holds.director),
      choices,
      diedSoon,
      diedShare: choices > 0 ? diedSoon / choices : null,
    },
    human: {
      cuts: humanCuts,
      cutsPerMinute: perMinute(humanCuts, liveMs),
      medianHoldMs: median(holds.human),
    },
    holds,
  };
}

/** The figures of several recordings together: times and counts summed, medians over every hold. */
export function totalOf(all: readonly ScoreFigures[]): ScoreFigures {
  const sum = (pick: (figures: ScoreFigures) => number) =>
    all.reduce((total, figures) => total + pick(figures), 0);
  return figuresOf({
    frames: sum((f) => f.frames),
    liveMs: sum((f) => f.liveMs),
    watchedMs: sum((f) => f.watchedMs),
    agreedMs: sum((f) => f.agreedMs),
    directorCuts: sum((f) => f.director.cuts),
    humanCuts: sum((f) => f.human.cuts),
    choices: sum((f) => f.director.choices),
    diedSoon: sum((f) => f.director.diedSoon),
    holds: {
      director: all.flatMap((f) => f.holds.director),
      human: all.flatMap((f) => f.holds.human),
    },
  });
}

/**
 * The frames of a file's text: this service's recording (JSON Lines, `t` per frame), or a capture of
 * game frames (one frame, or an array of them) timed by `provider.timestamp` (seconds) relative to
 * the first. Throws a sentence when it is neither.
 */
export function framesOfText(text: string, parseRecording: (text: string) => TimedFrame[]): TimedFrame[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{"format"')) return parseRecording(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('neither a recording of this service nor JSON game frames');
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (
    list.length === 0 ||
    !list.every((frame) => frame !== null && typeof frame === 'object' && !Array.isArray(frame))
  )
    throw new Error('not game frames: expected a frame object or an array of them');
  const seconds = (frame: { provider?: { timestamp?: unknown } }) => Number(frame.provider?.timestamp);
  const first = seconds(list[0]);
  return list.map((frame, i) => {
    const at = seconds(frame);
    return {
      t: Number.isFinite(at) && Number.isFinite(first) ? (at - first) * 1000 : i * 1000,
      frame: frame as RawGsiFrame,
    };
  });
}

const percent = (share: number | null) => (share === null ? '–' : `${(share * 100).toFixed(0)} %`);
const rate = (value: number | null) => (value === null ? '–' : value.toFixed(1));
const seconds = (ms: number | null) => (ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`);

/** One line of the printed table (d: the director, h: the human). */
export function figuresLine(name: string, figures: ScoreFigures): string {
  const { director, human } = figures;
  return [
    `${String(figures.frames).padStart(6)}`,
    seconds(figures.liveMs).padStart(9),
    percent(figures.agreement).padStart(6),
    `${rate(director.cutsPerMinute)}/${rate(human.cutsPerMinute)}`.padStart(11),
    `${seconds(director.medianHoldMs)}/${seconds(human.medianHoldMs)}`.padStart(15),
    `${percent(director.diedShare)} (${director.diedSoon}/${director.choices})`.padStart(13),
    name,
  ].join('  ');
}

export const FIGURES_HEADER = [
  'frames',
  'live time'.padStart(9),
  'agree'.padStart(6),
  'cuts/min d/h'.padStart(11),
  'median hold d/h'.padStart(15),
  'died in 3 s'.padStart(13),
  'recording',
].join('  ');
