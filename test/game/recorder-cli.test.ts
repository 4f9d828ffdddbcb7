/**
 * `hud-automation record` and `replay FILE` talk to the running server (found by its data
 * directory's lock) like the CLI's other commands; a refusal is printed as the server said it.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { build, tempDir } from '../helpers/build.ts';
import { type Frame, fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', CLI, ...args]).then(
    ({ stdout }) => ({ code: 0, out: stdout.trim() }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      out: `${error.stdout}${error.stderr}`.trim(),
    }),
  );

describe('hud-automation observer-score', () => {
  it('prints the figures per recording and in total; an unreadable file is exit 1 naming it', {
    timeout: 60_000,
  }, async () => {
    const sequence = fileURLToPath(
      new URL(
        '../fixtures/gsi_csgo_spectator_round_sequence__nodecg-csgo-manager__standard-frames.json',
        import.meta.url,
      ),
    );
    const { code, out } = await cli('observer-score', sequence);
    expect(code).toBe(0);
    const [header, line, total] = out.split('\n');
    expect(header).toMatch(
      /^frames\s+live time\s+agree\s+cuts\/min d\/h\s+median hold d\/h\s+died in 3 s\s+recording$/,
    );
    expect(line).toMatch(
      /^\s+11\s+30\.0 s\s+33 %\s+6\.0\/6\.0\s+10\.0 s\/10\.0 s\s+0 % \(0\/4\)\s+gsi_csgo_spectator_round_sequence/,
    );
    expect(total).toMatch(/\s+total$/);
    expect(await cli('observer-score', '/nonexistent.jsonl')).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^hud-automation: cannot read \/nonexistent\.jsonl/),
    });
  });
});

describe('hud-automation record and replay', () => {
  it('record, record --stop, replay (list), replay FILE --speed, and the refusals', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((frame: Frame) => toCs2(frame));

    const started = await cli('record', '--data-dir', dataDir);
    expect(started.out).toMatch(
      /^recording to (game-\S+\.jsonl) in .*recordings; stop with hud-automation record --stop$/,
    );
    const file = /recording to (\S+)/.exec(started.out)?.[1] as string;
    for (const frame of frames.slice(0, 3)) await postAccepted(server, frame);
    expect(await cli('record', '--stop', '--data-dir', dataDir)).toEqual({
      code: 0,
      out: `Recorded 3 frames to ${file}.`,
    });
    expect((await cli('replay', '--data-dir', dataDir)).out).toMatch(new RegExp(`^${file}  \\d+ KiB$`));
    expect((await cli('replay', file, '--speed', '16', '--data-dir', dataDir)).out).toMatch(
      new RegExp(
        `^replaying ${file} at 16x: 3 frames, \\d+\\.\\d s of game; stop with hud-automation replay --stop$`,
      ),
    );

    expect(await cli('replay', '../state.json', '--data-dir', dataDir)).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^hud-automation: .*file/),
    });
    expect(await cli('replay', 'missing.jsonl', '--data-dir', dataDir)).toEqual({
      code: 1,
      out: `hud-automation: no recording missing.jsonl in ${dataDir}/recordings`,
    });
    expect(await cli('replay', file, '--speed', '40', '--data-dir', dataDir)).toMatchObject({
      code: 2,
      out: expect.stringMatching(/--speed takes a number from 1 to 16; got 40/),
    });
  });
});
