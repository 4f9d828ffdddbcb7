import { conflict, ServiceError } from '../../protocol/errors.ts';
import { RECORDINGS_MAX } from '../../protocol/recorder.ts';
import type { HudSystem } from '../hud-system.ts';
import { recorderViewOf } from '../views.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';

const answer = (hud: HudSystem) => ({ recorder: recorderViewOf(hud.snapshot('recorder')) });

/** Only one at a time: what runs now, as the refusal says it. */
function requireIdle(hud: HudSystem): void {
  const { recording, replay } = hud.snapshot('recorder').context;
  if (recording) throw conflict(`Already recording to ${recording.file}: stop it first.`);
  if (replay) throw conflict(`A replay of ${replay.file} runs: stop it first.`);
}

const recordStart = defineCommand('game_record_start', {
  run: async ({ hud, recordings }) => {
    requireIdle(hud);
    const files = await recordings.list();
    if (files.length >= RECORDINGS_MAX)
      throw conflict(
        `The recordings folder holds ${files.length} recordings, the most it keeps: delete old ones from the data directory's recordings folder first.`,
      );
    // Asked again: another command may have started one while the folder was read.
    requireIdle(hud);
    const at = Date.now();
    hud.send('recorder', { type: 'recorder.record.start', file: recordings.nameFor(at), at });
    // The writer opens the file as the recording starts: a disk that refuses ends it at once.
    const after = hud.snapshot('recorder').context;
    if (!after.recording)
      throw new ServiceError('storage_failed', after.ended?.text ?? 'The recording could not start.');
    return answer(hud);
  },
});

const recordStop = defineCommand('game_record_stop', {
  run: async ({ hud, recordings }) => {
    if (!hud.snapshot('recorder').context.recording) throw conflict('Nothing is being recorded.');
    hud.send('recorder', { type: 'recorder.record.stop', at: Date.now() });
    // The writer closed the file as the recording ended: the list shows it now.
    hud.send('recorder', { type: 'recorder.files', recordings: await recordings.list() });
    return answer(hud);
  },
});

const replayStart = defineCommand('game_replay_start', {
  run: async ({ hud, recordings }, { file, speed }) => {
    requireIdle(hud);
    const recording = await recordings.load(file);
    requireIdle(hud);
    hud.send('recorder', {
      type: 'recorder.replay.start',
      file,
      speed: speed ?? 1,
      recording,
      at: Date.now(),
    });
    return answer(hud);
  },
});

const replayStop = defineCommand('game_replay_stop', {
  run: ({ hud }) => {
    if (!hud.snapshot('recorder').context.replay) throw conflict('No replay runs.');
    hud.send('recorder', { type: 'recorder.replay.stop', at: Date.now() });
    return answer(hud);
  },
});

export const recorderCommands: AnyCommand[] = [recordStart, recordStop, replayStart, replayStop];
