import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from 'xstate';
import { createActor, fromCallback } from 'xstate';
import type {
  LoadedRecording,
  RecorderEvent,
  RecorderSnapshot,
  WriterEvent,
} from '../../machines/game-recorder.machine.ts';
import { gameRecorderMachine, recorderStatusOf } from '../../machines/game-recorder.machine.ts';
import { machineModel, pathName, reachedValues, valueKey, viaHandledEvent, walk } from '../helpers/model.ts';

const RECORDING: LoadedRecording = {
  frames: [
    { t: 0, frame: { map: { name: 'de_dust2' } } },
    { t: 500, frame: { map: { name: 'de_dust2' } } },
  ],
  durationMs: 500,
};
const FILES = [{ file: 'game-a.jsonl', bytes: 120, modifiedAt: 1 }];

/** Every event the walk may send; frames only while fewer than two were recorded (the count is context). */
const EVENTS: RecorderEvent[] = [
  { type: 'recorder.files', recordings: FILES },
  { type: 'recorder.record.start', file: 'game-b.jsonl', at: 10 },
  { type: 'recorder.frame', frame: { round: { phase: 'live' } }, at: 20 },
  { type: 'recorder.record.stop', at: 30 },
  { type: 'recorder.record.ended', text: 'The recording game-b.jsonl reached its limit.', at: 31 },
  { type: 'recorder.replay.start', file: 'game-a.jsonl', speed: 4, recording: RECORDING, at: 40 },
  { type: 'recorder.replay.stop', at: 50 },
  { type: 'recorder.replay.ended', text: 'Replayed 2 frames of game-a.jsonl at 4x.', at: 51 },
];

const describeEvent = (event: RecorderEvent) => event.type.replace(/^recorder\./, '');

interface Harness {
  actor: Actor<typeof gameRecorderMachine>;
  /** What the writer was given: its input, then each frame. */
  written: Array<{ file: string } | WriterEvent>;
  /** The replayer's inputs, one per replay. */
  replays: Array<{ file: string; speed: number; recording: LoadedRecording }>;
  /** Children alive now. */
  alive: Set<string>;
}

const harnesses: Harness[] = [];
afterEach(() => {
  for (const { actor } of harnesses.splice(0)) actor.stop();
});

function start(): Harness {
  const written: Harness['written'] = [];
  const replays: Harness['replays'] = [];
  const alive = new Set<string>();
  const frameWriter = fromCallback<WriterEvent, { file: string; startedAt: number }>(({ input, receive }) => {
    written.push({ file: input.file });
    alive.add('writer');
    receive((event) => written.push(event));
    return () => alive.delete('writer');
  });
  const frameReplayer = fromCallback<
    { type: 'none' },
    { file: string; speed: number; recording: LoadedRecording; startedAt: number }
  >(({ input }) => {
    replays.push(input);
    alive.add('replayer');
    return () => alive.delete('replayer');
  });
  const actor = createActor(gameRecorderMachine.provide({ actors: { frameWriter, frameReplayer } }));
  actor.start();
  const harness = { actor, written, replays, alive };
  harnesses.push(harness);
  return harness;
}

const model = machineModel(gameRecorderMachine, {
  input: undefined,
  events: (snapshot: RecorderSnapshot) =>
    EVENTS.filter(
      (event) => event.type !== 'recorder.frame' || (snapshot.context.recording?.frames ?? 0) < 2,
    ),
  serializeTransition: viaHandledEvent,
});

describe('gameRecorderMachine, model-based', () => {
  const paths = model.getShortestPaths();

  it('reaches idle, recording and replaying', () => {
    expect(reachedValues(paths)).toEqual(
      new Set([valueKey('idle'), valueKey('recording'), valueKey('replaying')]),
    );
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeEvent)}`, async () => {
      let harness: Harness | undefined;
      await walk(path, {
        start: () => {
          harness = start();
        },
        send: (event, from) => {
          const h = harness as Harness;
          const before = h.written.length;
          h.actor.send(event);
          const after = h.actor.getSnapshot();
          if (event.type === 'recorder.frame') {
            // The frame went to the file, as it was, and was counted.
            expect(h.written.slice(before)).toEqual([event]);
            expect(after.context.recording?.frames).toBe((from.context.recording?.frames ?? 0) + 1);
          }
          if (event.type === 'recorder.record.start') expect(h.written.at(-1)).toEqual({ file: event.file });
          if (event.type === 'recorder.replay.start')
            expect(h.replays.at(-1)).toMatchObject({
              file: event.file,
              speed: event.speed,
              recording: RECORDING,
            });
          if (event.type === 'recorder.record.stop' || event.type === 'recorder.record.ended') {
            const frames = from.context.recording?.frames ?? 0;
            expect(after.context.ended?.text).toBe(
              event.type === 'recorder.record.stop'
                ? `Recorded ${frames} frames to game-b.jsonl.`
                : event.text,
            );
          }
        },
        check: (expected) => {
          const h = harness as Harness;
          const actual = h.actor.getSnapshot();
          expect(actual.value).toEqual(expected.value);
          expect(actual.context).toEqual(expected.context);
          // The file is open exactly while recording, the replay runs exactly while replaying.
          expect(h.alive.has('writer')).toBe(actual.matches('recording'));
          expect(h.alive.has('replayer')).toBe(actual.matches('replaying'));
          const status = recorderStatusOf(actual);
          expect(status.state).toBe(actual.value);
          expect(status.recording !== null).toBe(actual.matches('recording'));
          expect(status.replay !== null).toBe(actual.matches('replaying'));
        },
      });
    });
  }
});

describe('gameRecorderMachine, one at a time', () => {
  it('a frame while idle or replaying is not recorded, and starting the other is ignored', () => {
    const h = start();
    h.actor.send({ type: 'recorder.frame', frame: {}, at: 1 });
    expect(h.written).toEqual([]);
    h.actor.send({
      type: 'recorder.replay.start',
      file: 'game-a.jsonl',
      speed: 1,
      recording: RECORDING,
      at: 2,
    });
    const replaying = h.actor.getSnapshot();
    h.actor.send({ type: 'recorder.frame', frame: {}, at: 3 });
    h.actor.send({ type: 'recorder.record.start', file: 'game-b.jsonl', at: 4 });
    expect(h.actor.getSnapshot()).toBe(replaying);
    expect(h.written).toEqual([]);
  });
});
