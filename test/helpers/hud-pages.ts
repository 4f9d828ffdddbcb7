/**
 * The HUD overlay as the layout and contrast tests drive it: the page with test/helpers/hud-probe.js
 * loaded and transitions off, a stand-in OBS whose saved replay the overlay plays, and that replay
 * held on air (paused on its first frames) or let play to its end.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page, ViewportSize } from 'playwright-core';
import { fromCallback } from 'xstate';
import type { ObsSocketCommand, ObsSocketEvent, ObsSocketInput } from '../../machines/obs-connection.machine.ts';
import { obsConnectionLive } from '../../src/obs/obs-socket.ts';
import type { RunningServer } from '../../src/server.ts';

const PROBE = fileURLToPath(new URL('./hud-probe.js', import.meta.url));

/** test/helpers/hud-probe.js, as the page has it (a function given to page.evaluate reads it from there). */
export type ProbeHost = {
  hudProbe: {
    layout(): { onAir: string[]; problems: string[]; ms: number };
    until(present: string[], absent: string[], timeoutMs?: number): Promise<void>;
    texts(): ProbedText[];
    contrast(shot: string, texts: ProbedText[]): Array<ProbedText & { contrast: number }>;
    sideColours(): Record<'A' | 'B', Record<string, string>> & {
      ct: string;
      t: string;
      badge: { ct: string; t: string };
      neutral: string[];
    };
  };
};

export interface ProbedText {
  where: string;
  text: string;
  color: string;
  opacity: number;
  fontSize: number;
  fontWeight: number;
  dead: boolean;
  /** Under another player's mark (the radar's discs where players stand on each other). */
  covered: boolean;
  boxes: Array<{ left: number; top: number; right: number; bottom: number }>;
}

/**
 * The overlay with the probe, ready and with its fonts; transitions and animations off, since the
 * tests look at where things end, not how they travel there.
 */
export async function probedOverlay(
  server: RunningServer,
  newContext: (viewport: ViewportSize) => Promise<BrowserContext>,
  size: ViewportSize,
): Promise<Page> {
  const context = await newContext(size);
  context.setDefaultTimeout(10_000);
  await context.addInitScript({ path: PROBE });
  const page = await context.newPage();
  await page.goto(`${server.applicationUrl}/hud`);
  await page.locator('[data-page="hud"][data-ready="true"]').waitFor();
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  await page.evaluate(
    () =>
      (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready,
  );
  return page;
}

/** A stand-in OBS socket: connected, replay buffer on, and each save reports `clip` as saved (OBS records to its folder). */
export const standInObs = (clip: string) =>
  obsConnectionLive.provide({
    actors: {
      obsSocket: fromCallback<ObsSocketCommand, ObsSocketInput>(({ sendBack, receive }) => {
        sendBack({ type: 'obs.socket.connected' });
        sendBack({ type: 'obs.replayBuffer.state', active: true });
        receive((command) => {
          if (command.type === 'obs.replay.save') {
            sendBack({ type: 'obs.replay.saved', path: clip, folder: dirname(clip) } satisfies ObsSocketEvent);
          }
        });
      }),
    },
  });

/** After save_replay: each page plays the clip; held on its first frames, it stays on air. */
export async function holdReplay(pages: Page[]) {
  await Promise.all(
    pages.map((page) =>
      page.evaluate(async () => {
        type Video = { currentTime: number; pause(): void };
        const g = globalThis as unknown as {
          document: { querySelector(s: string): Video | null };
          requestAnimationFrame(f: () => void): void;
        };
        for (;;) {
          const video = g.document.querySelector('[data-panel="replay"][data-visible="true"] video');
          if (video && video.currentTime > 0.05) return video.pause();
          await new Promise<void>((resolve) => g.requestAnimationFrame(() => resolve()));
        }
      }),
    ),
  );
}

/** Lets a held replay play to its end, where the overlay hides it. */
export async function endReplay(pages: Page[]) {
  await Promise.all(
    pages.map(async (page) => {
      await page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { querySelector(s: string): { play(): Promise<void> } | null };
        };
        return g.document.querySelector('[data-panel="replay"] video')?.play();
      });
      await page.evaluate(() => (globalThis as unknown as ProbeHost).hudProbe.until([], ['replay'], 10_000));
    }),
  );
}
