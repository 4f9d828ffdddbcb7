/**
 * Record and replay game data (issue 32) over the real servers: frames POSTed to /gsi as the game
 * sends them are recorded with their arrival times; the recording, replayed in a fresh service at
 * 16x, gives the same HUD state, the same live game view and the same cuts of the director. Bad input
 * is refused in the envelope and changes nothing.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecorderContext } from '../../machines/game-recorder.machine.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, ok } from '../helpers/build.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { type Frame, fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';

/** The game's pace in the recording: the round sequence's frames a second apart, on the test's clock. */
const FRAME_MS = 1_000;

/** Resolves with the recorder's context once `done` holds: awaited on the actor, no sleeping. */
function recorderUntil(
  server: RunningServer,
  done: (context: RecorderContext) => boolean,
): Promise<RecorderContext> {
  const now = server.service.hud.snapshot('recorder').context;
  if (done(now)) return Promise.resolve(now);
  return new Promise((resolve) => {
    const stop = server.service.hud.follow('recorder', (snapshot) => {
      if (!done(snapshot.context)) return;
      queueMicrotask(() => stop());
      resolve(snapshot.context);
    });
  });
}

/** Resolves with its words once a replay ended. */
const replayEnded = (server: RunningServer) =>
  recorderUntil(server, (context) => context.replay === null && context.ended !== null).then(
    (context) => context.ended?.text,
  );

/** What the run leaves: the HUD state but its revision, the live game view, the cuts by their times from the first. */
async function outcome(server: RunningServer) {
  const { revision: _revision, ...state } = (await get(server, '/api/state')).body.state;
  const { cuts } = (await get(server, '/api/observer')).body.observer as { cuts: Array<Record<string, any>> };
  const first = cuts[0]?.at ?? 0;
  return {
    state,
    live: server.service.game.live(),
    cuts: cuts.map(({ slot, name, reason, at, sent }) => ({ slot, name, reason, after: at - first, sent })),
  };
}

async function observed(clock?: () => number, netconPort?: number) {
  const server = await build({
    subscriptionActive: true,
    ...(clock ? { gameClock: clock } : {}),
    ...(netconPort ? { netcon: { host: '127.0.0.1', port: netconPort } } : {}),
  });
  await ok(server, 'set_smart_observer', { enabled: true, mode: 'suggest' });
  return server;
}

describe('record and replay game data', () => {
  it('a recording of POSTed real frames replays to the same HUD state, live view and cuts', async () => {
    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((frame: Frame) => toCs2(frame));
    let now = 1_800_000_000_000;
    const recorded = await observed(() => now);
    const started = await ok(recorded, 'game_record_start');
    expect(started.result.recorder).toMatchObject({ state: 'recording', replay: null });
    const file = started.result.recorder.recording.file as string;
    for (const frame of frames) {
      await postAccepted(recorded, frame);
      now += FRAME_MS;
    }
    const stopped = await ok(recorded, 'game_record_stop');
    expect(stopped.result.recorder.state).toBe('idle');
    expect(stopped.result.recorder.ended.text).toBe(`Recorded ${frames.length} frames to ${file}.`);
    expect(stopped.result.recorder.recordings.map((entry: { file: string }) => entry.file)).toEqual([file]);
    const before = await outcome(recorded);
    expect(before.cuts.length).toBeGreaterThan(1);

    const text = await readFile(join(recorded.service.dataDir, 'recordings', file), 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({ format: 'hud-automation game recording', version: 1 });
    expect(lines.slice(1).map((line) => line.t)).toEqual(frames.map((_, i) => i * FRAME_MS));
    // The cfg's token stays out of the file.
    expect(text).not.toContain(recorded.service.game.token);
    expect(lines.slice(1).every((line) => line.frame.auth === undefined)).toBe(true);

    // A fresh service (another token, another clock) with the recording in its data directory.
    const replayed = await observed();
    await mkdir(join(replayed.service.dataDir, 'recordings'), { recursive: true });
    await copyFile(
      join(recorded.service.dataDir, 'recordings', file),
      join(replayed.service.dataDir, 'recordings', file),
    );
    const ended = replayEnded(replayed);
    const replay = await ok(replayed, 'game_replay_start', { file, speed: 16 });
    expect(replay.result.recorder).toMatchObject({
      state: 'replaying',
      replay: { file, speed: 16, frames: frames.length, durationMs: (frames.length - 1) * FRAME_MS },
    });
    expect(await ended).toBe(`Replayed ${frames.length} frames of ${file} at 16x.`);
    const after = await outcome(replayed);
    expect(after.cuts).toEqual(before.cuts);
    expect(after.live).toEqual(before.live);
    expect(after.state).toEqual(before.state);
  });

  it('a replay in auto mode sends the same cut lines to the console as the game data did', async () => {
    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((frame: Frame) => toCs2(frame));
    const run = async (feed: (server: RunningServer) => Promise<void>, clock?: () => number) => {
      const game = new ConsoleStandIn({ obeys: 'none' });
      const port = await game.listen();
      const server = await observed(clock, port);
      await ok(server, 'set_smart_observer', { mode: 'auto' });
      await feed(server);
      const cuts = (await get(server, '/api/observer')).body.observer.cuts as Array<{ sent: boolean }>;
      await game.linesReceived(game.lines.length);
      await game.close();
      return { lines: game.lines, sent: cuts.filter((cut) => cut.sent).length };
    };
    let now = 1_800_000_000_000;
    let file = '';
    let recordedIn = '';
    const live = await run(
      async (server) => {
        ({ file } = (await ok(server, 'game_record_start')).result.recorder.recording);
        for (const frame of frames) {
          await postAccepted(server, frame);
          now += FRAME_MS;
        }
        await ok(server, 'game_record_stop');
        recordedIn = server.service.dataDir;
      },
      () => now,
    );
    const replayed = await run(async (server) => {
      await mkdir(join(server.service.dataDir, 'recordings'), { recursive: true });
      await copyFile(join(recordedIn, 'recordings', file), join(server.service.dataDir, 'recordings', file));
      const ended = replayEnded(server);
      await ok(server, 'game_replay_start', { file, speed: 16 });
      await ended;
    });
    expect(live.sent).toBeGreaterThan(0);
    // Whom the cuts named, in order. The closed loop's retries (the same pick by the next strategy after
    // 1.5 s of the actor's clock, not the frames') depend on how fast each run fed its frames, so a
    // pick named again at once counts once.
    const named = (lines: string[]) =>
      lines.filter((line) => line.startsWith('spec_player "')).filter((line, i, all) => line !== all[i - 1]);
    expect(named(live.lines).length).toBeGreaterThan(0);
    expect(named(replayed.lines)).toEqual(named(live.lines));
  });

  it('refuses bad input in the envelope and changes nothing', async () => {
    const server = await build();
    const dir = join(server.service.dataDir, 'recordings');
    await mkdir(dir, { recursive: true });
    const header = '{"format":"hud-automation game recording","version":1}\n';
    await writeFile(join(dir, 'damaged.jsonl'), `${header}{"t":0,"frame":{}}\n{"t":5,"frame":{"provider"\n`);
    await writeFile(join(dir, 'backwards.jsonl'), `${header}{"t":10,"frame":{}}\n{"t":5,"frame":{}}\n`);
    await writeFile(join(dir, 'empty.jsonl'), header);
    await writeFile(join(dir, 'other.jsonl'), '{"hello":1}\n');
    const cases: Array<[unknown, number, string, RegExp]> = [
      [{ file: 'missing.jsonl' }, 404, 'not_found', /no recording missing\.jsonl/],
      [{ file: '../state.json' }, 400, 'invalid_payload', /file/],
      [{ file: '../../etc/passwd.jsonl' }, 400, 'invalid_payload', /file/],
      [{ file: 'game.jsonl', speed: 0.5 }, 400, 'invalid_payload', /speed/],
      [{ file: 'game.jsonl', speed: 17 }, 400, 'invalid_payload', /speed/],
      [{ file: 'damaged.jsonl' }, 400, 'invalid_payload', /damaged\.jsonl is damaged at line 3: not JSON/],
      [{ file: 'backwards.jsonl' }, 400, 'invalid_payload', /line 3: its time is not a number at or after/],
      [{ file: 'empty.jsonl' }, 400, 'invalid_payload', /holds no frames/],
      [{ file: 'other.jsonl' }, 400, 'invalid_payload', /not a game recording/],
      [{}, 400, 'invalid_payload', /file/],
    ];
    const revision = (await get(server, '/api/state')).body.state.revision;
    for (const [payload, status, error, message] of cases) {
      const answer = await command(server, 'game_replay_start', payload);
      expect(answer.status, JSON.stringify(payload)).toBe(status);
      expect(answer.body).toMatchObject({ ok: false, error });
      expect(answer.body.message).toMatch(message);
    }
    expect(await command(server, 'game_record_stop')).toMatchObject({ status: 409 });
    expect(await command(server, 'game_replay_stop')).toMatchObject({ status: 409 });
    expect((await get(server, '/api/state')).body.state.revision).toBe(revision);
    expect((await get(server, '/api/recordings')).body.recorder).toMatchObject({
      state: 'idle',
      ended: null,
    });

    // One at a time.
    await ok(server, 'game_record_start');
    const second = await command(server, 'game_record_start');
    expect(second).toMatchObject({ status: 409, body: { ok: false, error: 'conflict' } });
    expect(second.body.message).toMatch(/^Already recording to game-.*\.jsonl: stop it first\.$/);
    expect(await command(server, 'game_replay_start', { file: 'empty.jsonl' })).toMatchObject({
      status: 409,
    });
  });

  it("while a replay runs, the game's own frames are answered and dropped; the operator stops it", async () => {
    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((frame: Frame) => toCs2(frame));
    const server = await build();
    const dir = join(server.service.dataDir, 'recordings');
    await mkdir(dir, { recursive: true });
    // Hand-made: the first frame now, the last a minute later, so the replay is still running.
    const lines = [
      { format: 'hud-automation game recording', version: 1 },
      { t: 0, frame: frames[0] },
      { t: 60_000, frame: frames[10] },
    ];
    await writeFile(
      join(dir, 'rehearsal.jsonl'),
      `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
    );
    const firstFed = new Promise<void>((resolve) =>
      server.service.notices.on('game.message', (message) => {
        if (message.status?.frames === 1) resolve();
      }),
    );
    await ok(server, 'game_replay_start', { file: 'rehearsal.jsonl' });
    await firstFed;
    const round = server.service.game.live().map?.round;
    await postAccepted(server, frames[10] as Frame);
    expect(server.service.game.counters.droppedDuringReplay).toBe(1);
    expect(server.service.game.status().frames).toBe(1);
    expect(server.service.game.live().map?.round).toBe(round);
    const stopped = await ok(server, 'game_replay_stop');
    expect(stopped.result.recorder).toMatchObject({
      state: 'idle',
      replay: null,
      ended: { text: 'Replay of rehearsal.jsonl stopped by the operator.' },
    });
    await postAccepted(server, frames[10] as Frame);
    expect(server.service.game.status().frames).toBe(2);
  });

  it('a line cut short by a kill is left out; a frame the ingest refuses ends the replay, naming it', async () => {
    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((frame: Frame) => toCs2(frame));
    const server = await build();
    const dir = join(server.service.dataDir, 'recordings');
    await mkdir(dir, { recursive: true });
    const header = JSON.stringify({ format: 'hud-automation game recording', version: 1 });
    const line = (t: number, frame: unknown) => JSON.stringify({ t, frame });
    // The service was killed while writing the third line.
    await writeFile(
      join(dir, 'killed.jsonl'),
      `${header}\n${line(0, frames[0])}\n${line(10, frames[1])}\n${line(20, frames[2]).slice(0, 300)}`,
    );
    let ended = replayEnded(server);
    expect(
      (await ok(server, 'game_replay_start', { file: 'killed.jsonl', speed: 16 })).result.recorder.replay,
    ).toMatchObject({
      frames: 2,
      durationMs: 10,
    });
    expect(await ended).toBe('Replayed 2 frames of killed.jsonl at 16x.');
    expect(server.service.game.status().frames).toBe(2);

    // Edited by hand: the second frame's health is not a number the game sends.
    const edited = structuredClone(frames[1] as Frame);
    edited.allplayers[Object.keys(edited.allplayers)[0] as string].state.health = 'lots';
    await writeFile(
      join(dir, 'edited.jsonl'),
      `${header}\n${line(0, frames[0])}\n${line(10, edited)}\n${line(20, frames[2])}\n`,
    );
    await ok(server, 'game_replay_start', { file: 'edited.jsonl', speed: 16 });
    ended = recorderUntil(
      server,
      (context) => context.replay === null && context.ended?.text.includes('edited.jsonl') === true,
    ).then((context) => context.ended?.text);
    expect(await ended).toMatch(
      /^The replay of edited\.jsonl stopped at frame 2: game state frame: \/allplayers\/.*health/,
    );
    expect(server.service.game.status().frames).toBe(3);
  });

  it('a recordings folder the disk refuses: 507 storage_failed saying why, nothing recording', async () => {
    const server = await build();
    // A file where the folder should be: it cannot be made.
    await writeFile(join(server.service.dataDir, 'recordings'), 'not a folder');
    const answer = await command(server, 'game_record_start');
    expect(answer.status).toBe(507);
    expect(answer.body).toMatchObject({ ok: false, error: 'storage_failed' });
    expect(answer.body.message).toMatch(/^The recordings folder .* cannot be read: .*ENOTDIR/);
    expect((await get(server, '/api/recordings')).body.recorder).toMatchObject({
      state: 'idle',
      recording: null,
    });
  });

  it('a recording stops at its size limit and says so; the list shows the file', async () => {
    const server = await build({ recordingLimitBytes: 40_000 });
    const frame = toCs2(await fixture(ROUND_SEQUENCE).then((frames: Frame[]) => frames[5] as Frame));
    await ok(server, 'game_record_start');
    for (let i = 0; i < 10; i++) await postAccepted(server, frame);
    const { recorder } = (await get(server, '/api/recordings')).body;
    expect(recorder.state).toBe('idle');
    expect(recorder.ended.text).toMatch(/reached its limit of 39 KiB after \d+ frames and stopped there\.$/);
    await recorderUntil(server, (context) => context.recordings.length === 1);
    const [listed] = (await get(server, '/api/recordings')).body.recorder.recordings;
    expect(listed.bytes).toBeLessThanOrEqual(40_000);
  });
});
