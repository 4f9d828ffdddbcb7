/**
 * Draws preset buttons as Companion draws them on a Stream Deck: 72x72 tiles, the text with its
 * variables filled in, the colours of the feedbacks that are true (later ones win), as an HTML page
 * that headless Chromium photographs for docs/companion.md.
 */
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface DrawnButton {
  category: string;
  name: string;
  text: string;
  color: number;
  bgcolor: number;
  size: string;
}

interface PresetFeedback {
  feedbackId: string;
  style?: { color?: number; bgcolor?: number };
  isInverted?: boolean;
}

interface Preset {
  category: string;
  name: string;
  style: { text: string; color: number; bgcolor: number; size: string };
  feedbacks: PresetFeedback[];
}

/** The button's face: its style with each true feedback's style on top, variables substituted. */
export function drawButton(
  preset: Preset,
  feedbackValues: readonly unknown[],
  variable: (label: string, id: string) => string,
): DrawnButton {
  let { color, bgcolor } = preset.style;
  preset.feedbacks.forEach((feedback, index) => {
    const value = feedbackValues[index] === true;
    if (value !== (feedback.isInverted === true)) {
      color = feedback.style?.color ?? color;
      bgcolor = feedback.style?.bgcolor ?? bgcolor;
    }
  });
  const text = preset.style.text
    .replace(/\$\(([^:)]+):([^)]+)\)/g, (_, label: string, id: string) => variable(label, id))
    .replace(/\\n/g, '\n');
  return { category: preset.category, name: preset.name, text, color, bgcolor, size: preset.style.size };
}

const hex = (rgb: number) => `#${rgb.toString(16).padStart(6, '0')}`;
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function buttonPageHtml(title: string, buttons: readonly DrawnButton[]): string {
  const categories = [...new Set(buttons.map((button) => button.category))];
  const rows = categories
    .map((category) => {
      const tiles = buttons
        .filter((button) => button.category === category)
        .map((button) => {
          const size = button.size === 'auto' ? 'data-auto' : `style="font-size:${Number(button.size)}px"`;
          return `<div class="tile" data-preset="${escapeHtml(button.name)}" style="color:${hex(button.color)};background:${hex(button.bgcolor)}"><span ${size}>${escapeHtml(button.text)}</span></div>`;
        })
        .join('');
      return `<section><h2>${escapeHtml(category)}</h2><div class="row">${tiles}</div></section>`;
    })
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { margin: 0; padding: 16px; background: #181818; font-family: Arial, Helvetica, sans-serif; color: #ddd; width: max-content; }
    h1 { font-size: 16px; margin: 0 0 12px; }
    h2 { font-size: 12px; font-weight: normal; margin: 10px 0 4px; color: #aaa; }
    .row { display: flex; gap: 6px; }
    /* As Companion draws a face: the text in 68 x 57 px under the top bar, Arimo (Arial's metrics,
       Liberation Sans here) not bold, a word wider than the box cut where the box ends. */
    .tile { width: 72px; height: 72px; box-sizing: border-box; padding: 15px 2px 0; border-radius: 6px;
            display: flex; align-items: center; justify-content: center; text-align: center;
            white-space: pre-line; overflow: hidden; line-height: 1.12; overflow-wrap: anywhere;
            font-family: Arimo, 'Liberation Sans', Arial, sans-serif; }
    .tile span { display: block; width: 68px; max-height: 57px; overflow: hidden; }
  </style></head><body><h1>${escapeHtml(title)}</h1>${rows}<script>
    // Companion's "auto" size: the largest text that fits the button without breaking a word.
    for (const text of document.querySelectorAll('[data-auto]')) {
      const tile = text.parentElement;
      let size = 24;
      text.style.fontSize = size + 'px';
      while (size > 7 && (text.scrollWidth > tile.clientWidth - 4 || text.offsetHeight > tile.clientHeight - 4)) {
        size -= 1;
        text.style.fontSize = size + 'px';
      }
    }
  </script></body></html>`;
}

export async function screenshot(html: string, path: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    await page.setContent(html);
    await page.locator('body').screenshot({ path });
  } finally {
    await browser.close();
  }
}

/** A face Companion rendered (its preview API's PNG), under its preset's category. */
export interface RenderedFace {
  category: string;
  name: string;
  image: string;
}

/** Photographs the faces a real Companion drew, grouped by category, eight to a row. */
export async function screenshotFaces(faces: readonly RenderedFace[], path: string, title: string): Promise<void> {
  const categories = [...new Set(faces.map((face) => face.category))];
  const html = `<!doctype html><html><body style="margin:0;padding:12px;background:#111;color:#ddd;font:13px sans-serif;width:${8 * 80 + 24}px">
<h3 style="margin:0 0 8px">${escapeHtml(title)}</h3>
${categories
  .map(
    (category) => `<div style="margin:6px 0 2px">${escapeHtml(category)}</div>
<div style="display:grid;grid-template-columns:repeat(8,72px);gap:8px">${faces
      .filter((face) => face.category === category)
      .map((face) => `<img width="72" height="72" title="${escapeHtml(face.name)}" src="${face.image}">`)
      .join('')}</div>`,
  )
  .join('\n')}
</body></html>`;
  await screenshot(html, path);
}
