/**
 * Integrations > Game > Recordings in real Chromium against a real server: Record, the game's frames
 * POSTed meanwhile, Stop recording, the file in the list, a replay at 16x from its button; every
 * button a command, every line drawn from the `recorder` event.
 */
import { describe, expect, it } from 'vitest';
import { build } from '../helpers/build.ts';
import { chromiumAvailable, chromiumPerFile, SCREENSHOTS } from '../helpers/chromium.ts';
import { type Frame, fixture, postAccepted, ROUND_SEQUENCE, toCs2 } from '../helpers/gsi.ts';

describe.skipIf(!chromiumAvailable)('Integrations > Game > Recordings in Chromium', () => {
  const chromium = chromiumPerFile();

  it('records the frames, lists the file and replays it at the chosen speed', async () => {
    const server = await build({ headless: false });
    const frames: Frame[] = (await fixture(ROUND_SEQUENCE)).map((frame: Frame) => toCs2(frame));
    const page = await chromium.operator(server, { width: 1280, height: 800 }, 'game');
    const card = page.locator('[data-card="game-recordings"]');
    await card.locator('[data-recorder-state="idle"]').waitFor();
    expect(await card.getByText('No recordings yet.').count()).toBe(1);

    await card.getByRole('button', { name: 'Record' }).click();
    await card.locator('[data-recorder-state="recording"]').waitFor();
    const file = (await card.locator('[data-recording-file]').getAttribute('data-recording-file')) as string;
    expect(file).toMatch(/^game-.*\.jsonl$/);
    for (const frame of frames) await postAccepted(server, frame);
    await page.screenshot({ path: `${SCREENSHOTS}game-recording.png`, fullPage: true });
    await card.getByRole('button', { name: 'Stop recording' }).click();
    await card
      .locator('[data-recorder-ended]')
      .filter({ hasText: `Recorded ${frames.length} frames to ${file}.` })
      .waitFor();
    const row = card.locator(`tr[data-recording="${file}"]`);
    await row.waitFor();

    await card.getByLabel('Replay speed').selectOption('16');
    await row.getByRole('button', { name: 'Replay at 16x' }).click();
    await card
      .locator('[data-recorder-ended]')
      .filter({ hasText: `Replayed ${frames.length} frames of ${file} at 16x.` })
      .waitFor();
    expect(server.service.hud.snapshot('recorder').context.ended?.text).toBe(
      `Replayed ${frames.length} frames of ${file} at 16x.`,
    );
    await page.screenshot({ path: `${SCREENSHOTS}game-recordings.png`, fullPage: true });
  });
});
