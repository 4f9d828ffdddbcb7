/**
 * Record and replay game data, the IO (docs/game-data.md, "Record and replay"): the recordings folder
 * of the data directory, the writer that appends each frame, the loader that checks a recording before
 * it is replayed, and the replayer that feeds it to the ingest. The recorder actor
 * (machines/game-recorder.machine.ts) decides what runs; these are provided to it.
 *
 * A recording is JSON Lines: a header `{"format":"hud-automation game recording","version":1}`, then
 * one frame a line, `{"t":<ms after the first frame>,"frame":{…}}`, the frame as the game sent it
 * without its `auth` block (the cfg's token is a secret, and a replay carries the running server's).
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fromCallback } from 'xstate';
import type {
  LoadedRecording,
  RecorderEvent,
  RecordingFile,
  WriterEvent,
} from '../../machines/game-recorder.machine.ts';
import { invalidPayload, ServiceError } from '../protocol/errors.ts';
import { RECORDING_FILE_PATTERN } from '../protocol/recorder.ts';

export const RECORDINGS_DIR = 'recordings';
/**
 * One recording stops at this size: a ten-player frame is about 10 KB and the game sends a few a
 * second, so 256 MiB holds a whole map (about 45 min at 5 frames a second is 135 MB) with room.
 */
export const RECORDING_LIMIT_BYTES = 256 * 1024 * 1024;

const HEADER = { format: 'hud-automation game recording', version: 1 } as const;
const FILE = new RegExp(RECORDING_FILE_PATTERN);

/** The frame without the cfg's token. */
function withoutAuth(frame: unknown): unknown {
  if (frame === null || typeof frame !== 'object' || !('auth' in frame)) return frame;
  const { auth: _auth, ...rest } = frame as Record<string, unknown>;
  return rest;
}

/** `game-2026-11-28T19-45-03-120Z.jsonl`: sorts by time, and a name the replay command takes. */
export const recordingName = (at: number) => `game-${new Date(at).toISOString().replace(/[:.]/g, '-')}.jsonl`;

/** The data directory's recordings folder: what the recorder commands read (GameRecordings in src/core). */
export class RecordingsFolder {
  readonly dir: string;
  readonly limitBytes: number;

  constructor(dataDir: string, limitBytes = RECORDING_LIMIT_BYTES) {
    this.dir = join(dataDir, RECORDINGS_DIR);
    this.limitBytes = limitBytes;
  }

  nameFor(at: number): string {
    return recordingName(at);
  }

  /** The recordings, newest first (names sort by time); a folder not made yet is an empty list. */
  async list(): Promise<RecordingFile[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new ServiceError(
        'storage_failed',
        `The recordings folder ${this.dir} cannot be read: ${(error as Error).message}.`,
      );
    }
    const files = await Promise.all(
      names
        .filter((name) => FILE.test(name))
        .map(async (file) => {
          const info = await stat(join(this.dir, file)).catch(() => null);
          return info?.isFile() ? { file, bytes: info.size, modifiedAt: Math.round(info.mtimeMs) } : null;
        }),
    );
    return files
      .filter((file): file is RecordingFile => file !== null)
      .sort((a, b) => (a.file < b.file ? 1 : a.file > b.file ? -1 : 0));
  }

  /**
   * A recording of the folder, checked whole before anything of it is replayed: 404 when there is no
   * such file, 400 when it is not a recording or is damaged (the line that is wrong, in words).
   */
  async load(file: string): Promise<LoadedRecording> {
    if (!FILE.test(file)) throw invalidPayload(`file: "${file}" is not the name of a recording`);
    const path = join(this.dir, file);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new ServiceError('not_found', `no recording ${file} in ${this.dir}`);
    if (info.size > this.limitBytes)
      throw invalidPayload(`${file} is larger than a recording can be (${info.size} bytes)`);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new ServiceError('storage_failed', `${file} cannot be read: ${(error as Error).message}.`);
    }
    return parseRecording(file, text);
  }
}

/** The checks of `load`, on the text of a recording. */
export function parseRecording(file: string, text: string): LoadedRecording {
  const damaged = (line: number, why: string) =>
    invalidPayload(`${file} is damaged at line ${line}: ${why}; nothing was replayed`);
  const lines = text.split('\n');
  // Every line of a recording ends with a newline: what follows the last one is either nothing or a
  // line cut short (the service was killed while writing it), left out.
  const complete = lines.slice(0, -1);
  const parse = (line: string, at: number): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw damaged(at, 'not JSON');
    }
  };
  const header = complete.length > 0 ? (parse(complete[0] as string, 1) as Record<string, unknown>) : null;
  if (header?.format !== HEADER.format || header.version !== HEADER.version)
    throw invalidPayload(
      `${file} is not a game recording of this service (its first line is not the header)`,
    );
  const frames: Array<{ t: number; frame: unknown }> = [];
  let last = 0;
  for (let i = 1; i < complete.length; i++) {
    const entry = parse(complete[i] as string, i + 1) as { t?: unknown; frame?: unknown } | null;
    if (entry === null || typeof entry !== 'object') throw damaged(i + 1, 'not a frame entry');
    const { t, frame } = entry;
    if (typeof t !== 'number' || !Number.isFinite(t) || t < last)
      throw damaged(i + 1, 'its time is not a number at or after the one before');
    if (frame === null || typeof frame !== 'object' || Array.isArray(frame))
      throw damaged(i + 1, 'its frame is not an object');
    frames.push({ t, frame });
    last = t;
  }
  if (frames.length === 0) throw invalidPayload(`${file} holds no frames: nothing to replay`);
  return { frames, durationMs: last };
}

/**
 * The writer: the file is made when the recording starts (never one that exists), each frame is
 * appended at once in one synchronous write (a few µs in the page cache; a write that waits for the
 * disk would hold the frame's answer), so a kill -9 loses at most the line being written. At the
 * limit, or when the disk refuses, it closes the file and tells the recorder why.
 */
export function createFrameWriter(folder: RecordingsFolder, now: () => number) {
  return fromCallback<WriterEvent, { file: string; startedAt: number }>(({ input, receive, sendBack }) => {
    const path = join(folder.dir, input.file);
    let fd: number | null = null;
    let bytes = 0;
    let frames = 0;
    let first: number | null = null;
    const close = () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    };
    const end = (text: string) => {
      close();
      sendBack({ type: 'recorder.record.ended', text, at: now() } satisfies RecorderEvent);
    };
    const write = (line: string) => {
      writeSync(fd as number, line);
      bytes += Buffer.byteLength(line);
    };
    try {
      mkdirSync(folder.dir, { recursive: true });
      fd = openSync(path, 'wx');
      write(`${JSON.stringify(HEADER)}\n`);
    } catch (error) {
      end(`The recording could not start: ${(error as Error).message}.`);
    }
    receive((event) => {
      if (fd === null) return;
      first ??= event.at;
      const line = `${JSON.stringify({ t: event.at - first, frame: withoutAuth(event.frame) })}\n`;
      if (bytes + Buffer.byteLength(line) > folder.limitBytes) {
        end(
          `The recording ${input.file} reached its limit of ${Math.round(folder.limitBytes / 1024)} KiB after ${frames} frames and stopped there.`,
        );
        return;
      }
      try {
        write(line);
        frames++;
      } catch (error) {
        end(`The recording ${input.file} stopped after ${frames} frames: ${(error as Error).message}.`);
      }
    });
    return close;
  });
}

/** What a replay feeds each frame to: the game data's ingest (GameData.replay), at the frame's time. */
export type FeedFrame = (frame: unknown, at: number, file: string) => void;

/**
 * The replayer: frame i goes to the ingest at `startedAt + t/speed` by the clock, stamped with
 * `startedAt + t` (the match's own time), so the director sees the same spacing and makes the same
 * cuts at any speed. A frame the ingest refuses ends the replay, naming it.
 */
export function createFrameReplayer(feed: () => FeedFrame, now: () => number) {
  return fromCallback<
    { type: 'none' },
    { file: string; speed: number; recording: LoadedRecording; startedAt: number }
  >(({ input, sendBack }) => {
    const { frames } = input.recording;
    const due = (i: number) => input.startedAt + (frames[i] as { t: number }).t / input.speed;
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const ended = (text: string) =>
      sendBack({ type: 'recorder.replay.ended', text, at: now() } satisfies RecorderEvent);
    const next = () => {
      while (!stopped && i < frames.length && due(i) <= now()) {
        const { t, frame } = frames[i] as { t: number; frame: unknown };
        try {
          feed()(frame, input.startedAt + t, input.file);
        } catch (error) {
          ended(`The replay of ${input.file} stopped at frame ${i + 1}: ${(error as Error).message}.`);
          return;
        }
        i++;
      }
      if (stopped) return;
      if (i >= frames.length) {
        ended(`Replayed ${frames.length} frames of ${input.file} at ${input.speed}x.`);
        return;
      }
      timer = setTimeout(next, Math.max(0, due(i) - now()));
    };
    timer = setTimeout(next, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  });
}
