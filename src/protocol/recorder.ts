/**
 * Record and replay game data as a client sees it (docs/game-data.md, "Record and replay"): GET
 * /api/recordings, the `recorder` event and hello's `recorder` part, and the four commands, declared
 * here beside the view they answer with; src/protocol/commands.ts spreads them into
 * COMMAND_CONTRACTS. Built by recorderViewOf (src/core/views.ts) from the recorder actor.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { OneOf } from './schemas.ts';

/** A recording's file name: letters, digits, dots, dashes, underscores, `.jsonl`; no folder, no `..`. */
export const RECORDING_FILE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,80}(\\.[A-Za-z0-9_-]{1,20})*\\.jsonl$';
/** At most this many recordings in the folder: a new one is refused (409) until some are deleted. */
export const RECORDINGS_MAX = 100;
/** A replay runs at least at the game's pace and at most this many times faster. */
export const REPLAY_SPEED_MAX = 16;

export const RecordingFileSchema = Type.Object(
  {
    file: Type.String({ description: "The file's name in the data directory's recordings folder" }),
    bytes: Type.Integer({ minimum: 0 }),
    modifiedAt: Type.Number({ description: 'When it was last written (ms since the epoch)' }),
  },
  { additionalProperties: false },
);

export const RecorderViewSchema = Type.Object(
  {
    state: OneOf(['idle', 'recording', 'replaying'] as const, {
      description:
        'One at a time: a replay is not recorded, and frames from the game are dropped during a replay',
    }),
    recording: Type.Union([
      Type.Object(
        {
          file: Type.String(),
          startedAt: Type.Number({ description: 'When the recording started (ms since the epoch)' }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    replay: Type.Union([
      Type.Object(
        {
          file: Type.String(),
          speed: Type.Number({ minimum: 1, maximum: REPLAY_SPEED_MAX }),
          frames: Type.Integer({ minimum: 0 }),
          durationMs: Type.Number({ description: 'How long the recording lasts at 1x' }),
          startedAt: Type.Number({ description: 'When the replay started (ms since the epoch)' }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    ended: Type.Union([
      Type.Object(
        {
          text: Type.String({ description: 'How the last recording or replay ended, in words' }),
          at: Type.Number(),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    recordings: Type.Array(RecordingFileSchema, { description: 'The recordings folder, newest first' }),
  },
  { additionalProperties: false },
);
export type RecorderView = Static<typeof RecorderViewSchema>;

const RecorderAnswer = Type.Object(
  { recorder: RecorderViewSchema },
  { additionalProperties: false, description: 'The recorder after the command' },
);

export const RECORDER_CONTRACTS = {
  game_record_start: {
    description:
      "Starts recording the game's frames with their arrival times to a new file of the data directory's recordings folder (bounded in size; the cfg's token is left out). 409 while recording or replaying.",
    needsMainWindow: false,
    stateKeys: [],
    payload: null,
    result: RecorderAnswer,
  },
  game_record_stop: {
    description: 'Stops the recording and closes its file. 409 when nothing is being recorded.',
    needsMainWindow: false,
    stateKeys: [],
    payload: null,
    result: RecorderAnswer,
  },
  game_replay_start: {
    description: `Replays a recording through the game-data ingest (the HUD and the observer run on it) at 1x or up to ${REPLAY_SPEED_MAX}x; the game's own frames are dropped meanwhile. 404 for an unknown file, 400 for a damaged one, 409 while recording or replaying.`,
    needsMainWindow: false,
    stateKeys: [],
    payload: Type.Object(
      {
        file: Type.String({
          pattern: RECORDING_FILE_PATTERN,
          maxLength: 120,
          description: 'A recording of the list (GET /api/recordings): a name, no folder',
        }),
        speed: Type.Optional(
          Type.Number({
            minimum: 1,
            maximum: REPLAY_SPEED_MAX,
            default: 1,
            description: 'Times the game pace (default 1)',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    result: RecorderAnswer,
  },
  game_replay_stop: {
    description: 'Stops the replay; frames from the game are taken again. 409 when no replay runs.',
    needsMainWindow: false,
    stateKeys: [],
    payload: null,
    result: RecorderAnswer,
  },
};
