import { assign, fromCallback, type SnapshotFrom, sendTo, setup } from 'xstate';

/**
 * Record and replay game data (issue 32, docs/game-data.md "Record and replay"): the frames the game
 * sends, written with their arrival times to a file of the data directory, and a recording fed back
 * through the same ingest at 1x or faster so a crew rehearses a show and tests the director on a real
 * match. One at a time: a replay is not recorded, and the game's own frames are dropped while a replay
 * runs. The IO (the file, the timers of a replay) is src/game/recordings.ts, provided as the
 * `frameWriter` and `frameReplayer` actors.
 */

/** A recording in the data directory, as the operator app lists it. */
export interface RecordingFile {
  /** The file's name in the data directory's recordings folder. */
  file: string;
  bytes: number;
  /** When it was last written (ms since the epoch). */
  modifiedAt: number;
}

/** A recording as a replay takes it: checked and parsed by src/game/recordings.ts. */
export interface LoadedRecording {
  /** The frames in order, `t` ms after the first one. */
  frames: ReadonlyArray<{ t: number; frame: unknown }>;
  /** `t` of the last frame: how long the recording lasts at 1x. */
  durationMs: number;
}

export interface RecorderContext {
  recordings: RecordingFile[];
  recording: { file: string; startedAt: number; frames: number } | null;
  replay: { file: string; speed: number; frames: number; durationMs: number; startedAt: number } | null;
  /** How the last recording or replay ended, in words (null before the first ended). */
  ended: { text: string; at: number } | null;
}

export type RecorderEvent =
  /** The recordings folder as listed now (at start, and after a recording was closed). */
  | { type: 'recorder.files'; recordings: RecordingFile[] }
  | { type: 'recorder.record.start'; file: string; at: number }
  | { type: 'recorder.record.stop'; at: number }
  /** An accepted frame of the game (src/game/game-data.ts sends each one; only a recording keeps it). */
  | { type: 'recorder.frame'; frame: unknown; at: number }
  /** From the writer: the file reached its limit, or the disk refused a write. */
  | { type: 'recorder.record.ended'; text: string; at: number }
  | { type: 'recorder.replay.start'; file: string; speed: number; recording: LoadedRecording; at: number }
  | { type: 'recorder.replay.stop'; at: number }
  /** From the replayer: every frame was fed, or the ingest refused one (a damaged frame). */
  | { type: 'recorder.replay.ended'; text: string; at: number };

/** What the writer is told: each frame to append. */
export type WriterEvent = { type: 'recorder.frame'; frame: unknown; at: number };

export const gameRecorderMachine = setup({
  types: {} as { context: RecorderContext; events: RecorderEvent },
  actors: {
    /** Appends each frame to the file; sends `recorder.record.ended` when it cannot go on. */
    frameWriter: fromCallback<WriterEvent, { file: string; startedAt: number }>(() => () => {}),
    /** Feeds the frames to the ingest at their times divided by the speed; `recorder.replay.ended` after the last. */
    frameReplayer: fromCallback<
      { type: 'none' },
      { file: string; speed: number; recording: LoadedRecording; startedAt: number }
    >(() => () => {}),
  },
  actions: {
    startRecording: assign({
      recording: ({ event }) =>
        event.type === 'recorder.record.start' ? { file: event.file, startedAt: event.at, frames: 0 } : null,
    }),
    countFrame: assign({
      recording: ({ context }) =>
        context.recording && { ...context.recording, frames: context.recording.frames + 1 },
    }),
    writeFrame: sendTo('writer', ({ event }) => event as WriterEvent),
    endRecording: assign(({ context, event }) => ({
      recording: null,
      ended: {
        text:
          event.type === 'recorder.record.ended'
            ? event.text
            : `Recorded ${context.recording?.frames ?? 0} frames to ${context.recording?.file}.`,
        at: 'at' in event ? event.at : 0,
      },
    })),
    startReplay: assign({
      replay: ({ event }) =>
        event.type === 'recorder.replay.start'
          ? {
              file: event.file,
              speed: event.speed,
              frames: event.recording.frames.length,
              durationMs: event.recording.durationMs,
              startedAt: event.at,
            }
          : null,
    }),
    endReplay: assign(({ context, event }) => ({
      replay: null,
      ended: {
        text:
          event.type === 'recorder.replay.ended'
            ? event.text
            : `Replay of ${context.replay?.file} stopped by the operator.`,
        at: 'at' in event ? event.at : 0,
      },
    })),
    listFiles: assign({
      recordings: ({ event }) => (event.type === 'recorder.files' ? event.recordings : []),
    }),
  },
}).createMachine({
  id: 'gameRecorder',
  context: { recordings: [], recording: null, replay: null, ended: null },
  initial: 'idle',
  on: { 'recorder.files': { actions: 'listFiles' } },
  states: {
    idle: {
      description: 'Neither recording nor replaying: the frames of the game pass through untouched',
      on: {
        'recorder.record.start': { target: 'recording', actions: 'startRecording' },
        'recorder.replay.start': { target: 'replaying', actions: 'startReplay' },
      },
    },
    recording: {
      description: 'Every accepted frame of the game is appended to the file with its arrival time',
      invoke: {
        id: 'writer',
        src: 'frameWriter',
        input: ({ context }) => ({
          file: context.recording?.file ?? '',
          startedAt: context.recording?.startedAt ?? 0,
        }),
      },
      on: {
        'recorder.frame': { actions: ['writeFrame', 'countFrame'] },
        'recorder.record.stop': { target: 'idle', actions: 'endRecording' },
        'recorder.record.ended': { target: 'idle', actions: 'endRecording' },
      },
    },
    replaying: {
      description:
        "A recording is fed through the ingest at its times divided by the speed; the game's own frames are dropped",
      invoke: {
        id: 'replayer',
        src: 'frameReplayer',
        input: ({ context, event }) => ({
          file: context.replay?.file ?? '',
          speed: context.replay?.speed ?? 1,
          startedAt: context.replay?.startedAt ?? 0,
          recording: event.type === 'recorder.replay.start' ? event.recording : { frames: [], durationMs: 0 },
        }),
      },
      on: {
        'recorder.replay.stop': { target: 'idle', actions: 'endReplay' },
        'recorder.replay.ended': { target: 'idle', actions: 'endReplay' },
      },
    },
  },
});

export type RecorderSnapshot = SnapshotFrom<typeof gameRecorderMachine>;

/** What a client sees of the recorder (GET /api/recordings, the `recorder` event). */
export function recorderStatusOf(snapshot: RecorderSnapshot) {
  const { recordings, recording, replay, ended } = snapshot.context;
  const state = snapshot.matches('recording')
    ? 'recording'
    : snapshot.matches('replaying')
      ? 'replaying'
      : 'idle';
  return { state, recording, replay, ended, recordings } as const;
}
