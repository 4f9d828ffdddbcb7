/**
 * Images and a short video made in Chromium for the broadcast pages' tests: sponsor logos, an event
 * logo, talent photos (canvas → PNG) and a replay clip (canvas → MediaRecorder → WebM). Made at test
 * time, so no binary fixture is needed.
 */
import type { Page } from 'playwright-core';

type Doc = {
  createElement(tag: 'canvas'): {
    width: number;
    height: number;
    getContext(kind: '2d'): any;
    toDataURL(type: string): string;
    captureStream(fps: number): unknown;
  };
};

/** A PNG logo: a coloured shape and a word, transparent around it. */
export async function makeLogo(
  page: Page,
  options: { text: string; colour: string; width?: number; height?: number; round?: boolean },
): Promise<Buffer> {
  const dataUrl = await page.evaluate(({ text, colour, width = 640, height = 160, round = false }) => {
    const canvas = (globalThis as unknown as { document: Doc }).document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const g = canvas.getContext('2d');
    g.fillStyle = colour;
    if (round) {
      g.beginPath();
      g.arc(width / 2, height / 2, Math.min(width, height) / 2, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = '#ffffff';
      g.font = `bold ${Math.round(height / (1 + text.length * 0.55))}px sans-serif`;
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillText(text, width / 2, height / 2);
    } else {
      g.beginPath();
      g.moveTo(0, height / 2);
      g.lineTo(height / 2, 0);
      g.lineTo(height, height / 2);
      g.lineTo(height / 2, height);
      g.closePath();
      g.fill();
      g.font = `bold ${Math.round(height / 2.4)}px sans-serif`;
      g.textBaseline = 'middle';
      g.fillStyle = '#ffffff';
      g.fillText(text, height * 1.15, height / 2);
    }
    return canvas.toDataURL('image/png');
  }, options);
  return Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
}

/** A WebM clip of about `ms` milliseconds: a moving bar and a frame counter. */
export async function makeClip(page: Page, ms: number): Promise<Buffer> {
  const base64 = await page.evaluate(async (duration) => {
    const g = globalThis as unknown as {
      document: Doc;
      MediaRecorder: new (stream: unknown, options: { mimeType: string }) => any;
      FileReader: new () => any;
    };
    const canvas = g.document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 360;
    const ctx = canvas.getContext('2d');
    let frame = 0;
    const draw = () => {
      ctx.fillStyle = '#10151f';
      ctx.fillRect(0, 0, 640, 360);
      ctx.fillStyle = '#ffb020';
      ctx.fillRect((frame * 12) % 640, 150, 80, 60);
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 40px sans-serif';
      ctx.fillText(`REPLAY ${frame}`, 24, 60);
      frame++;
    };
    draw();
    const timer = setInterval(draw, 33);
    const recorder = new g.MediaRecorder(canvas.captureStream(30), { mimeType: 'video/webm;codecs=vp8' });
    const chunks: unknown[] = [];
    recorder.ondataavailable = (event: { data: unknown }) => chunks.push(event.data);
    const stopped = new Promise((resolve) => {
      recorder.onstop = resolve;
    });
    recorder.start();
    await new Promise((resolve) => setTimeout(resolve, duration));
    recorder.stop();
    await stopped;
    clearInterval(timer);
    const blob = new (globalThis as unknown as { Blob: new (parts: unknown[], o: object) => unknown }).Blob(
      chunks,
      {
        type: 'video/webm',
      },
    );
    return new Promise<string>((resolve) => {
      const reader = new g.FileReader();
      reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
      reader.readAsDataURL(blob);
    });
  }, ms);
  return Buffer.from(base64, 'base64');
}
