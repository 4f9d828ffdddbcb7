/**
 * What moving ten radar dots 18 times a second costs Chromium's main thread, apart from the HUD
 * (issue 23, docs/performance.md "The radar's dots"): minimal pages in the tests' Chromium, each
 * traced for a few seconds, counting the full layerisations (`PaintArtifactCompositor::Update`)
 * and the busy time of the main thread and of all threads. The dots as elements on layers of their
 * own moved by `style.transform` (as /hud moves them), drawn on a canvas, and in an inline SVG moved
 * by their `cx`/`cy`, each alone and beside 400 lines of text (a page with more in it, as /hud has);
 * and the SVG's dots as groups moved by a `transform` attribute, beside the lines.
 * Usage: npx tsx bench/layerize-probe.ts [--seconds 5]
 */
import { parseArgs } from 'node:util';
import { launchChromium } from './lib/chromium.ts';
import { sleep } from './lib/stats.ts';
import { busyByThread, eventsOn, readTrace } from './lib/trace.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const seconds = Number(values.seconds);

/** A dot's place at tick t: each dot on its own path round the 380 px square. */
const MOVE = `const at = (t, i) => [(t * 3 + i * 30) % 350 + 12, (t + i * 35) % 350 + 12];`;

const ELEMENTS = `
  const square = document.getElementById('square');
  const dots = Array.from({ length: 10 }, (_, i) => {
    const dot = document.createElement('div');
    dot.className = 'dot';
    dot.textContent = String(i);
    square.append(dot);
    return dot;
  });
  let t = 0;
  setInterval(() => {
    t++;
    dots.forEach((dot, i) => {
      const [x, y] = at(t, i);
      dot.style.transform = 'translate(' + (x - 12) + 'px, ' + (y - 12) + 'px)';
    });
  }, 1000 / 18);`;

const CANVAS = `
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 380;
  document.getElementById('square').append(canvas);
  const context = canvas.getContext('2d');
  let t = 0;
  setInterval(() => {
    t++;
    context.clearRect(0, 0, 380, 380);
    context.font = 'bold 15px sans-serif';
    context.textAlign = 'center';
    for (let i = 0; i < 10; i++) {
      const [x, y] = at(t, i);
      context.beginPath();
      context.arc(x, y, 12, 0, 2 * Math.PI);
      context.fillStyle = '#5b8def';
      context.fill();
      context.fillStyle = '#fff';
      context.fillText(String(i), x, y + 5);
    }
  }, 1000 / 18);`;

/** The square as an inline SVG with its ground, the start of both SVG pages. */
const SVG_SQUARE = `const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('width', '380'); svg.setAttribute('height', '380');
  const ground = document.createElementNS(NS, 'rect');
  ground.setAttribute('width', '380'); ground.setAttribute('height', '380'); ground.setAttribute('fill', '#121823');
  svg.append(ground);
  document.getElementById('square').append(svg);
  let t = 0;`;

const SVG_ATTRIBUTES = `${SVG_SQUARE}
  const dots = Array.from({ length: 10 }, (_, i) => {
    const disc = document.createElementNS(NS, 'circle');
    disc.setAttribute('r', '12'); disc.setAttribute('fill', '#5b8def');
    const label = document.createElementNS(NS, 'text');
    label.setAttribute('fill', '#fff'); label.setAttribute('text-anchor', 'middle');
    label.setAttribute('font-family', 'sans-serif'); label.setAttribute('font-size', '15'); label.setAttribute('font-weight', 'bold');
    label.textContent = String(i);
    svg.append(disc, label);
    return [disc, label];
  });
  setInterval(() => {
    t++;
    dots.forEach(([disc, label], i) => {
      const [x, y] = at(t, i);
      disc.setAttribute('cx', x); disc.setAttribute('cy', y);
      label.setAttribute('x', x); label.setAttribute('y', y + 5);
    });
  }, 1000 / 18);`;

const SVG_GROUPS = `${SVG_SQUARE}
  const dots = Array.from({ length: 10 }, (_, i) => {
    const group = document.createElementNS(NS, 'g');
    group.innerHTML = '<circle r="12" fill="#5b8def"/><text y="5" fill="#fff" text-anchor="middle" font-family="sans-serif" font-size="15" font-weight="bold">' + i + '</text>';
    svg.append(group);
    return group;
  });
  setInterval(() => {
    t++;
    dots.forEach((group, i) => {
      const [x, y] = at(t, i);
      group.setAttribute('transform', 'translate(' + x + ' ' + y + ')');
    });
  }, 1000 / 18);`;

function page(script: string, lines: number): string {
  const text = Array.from(
    { length: lines },
    (_, i) =>
      `<div class="cell" style="left:${500 + (i % 20) * 70}px;top:${Math.floor(i / 20) * 50}px">cell ${i}</div>`,
  ).join('');
  return `<!doctype html><html><body style="margin:0">
<style>
  #square { position: absolute; left: 20px; top: 20px; width: 380px; height: 380px; background: #121823; }
  .dot { position: absolute; left: 0; top: 0; width: 24px; height: 24px; border-radius: 50%;
    background: #5b8def; color: #fff; font: bold 15px/24px sans-serif; text-align: center; will-change: transform; }
  .cell { position: absolute; }
</style>
<div id="square"></div>${text}
<script>${MOVE}${script}</script></body></html>`;
}

const PAGES: Array<[string, string]> = [
  ['dots as elements (transform)', page(ELEMENTS, 0)],
  ['dots as elements, 400 lines beside', page(ELEMENTS, 400)],
  ['dots on a canvas', page(CANVAS, 0)],
  ['dots on a canvas, 400 lines beside', page(CANVAS, 400)],
  ['dots in an SVG, moved by cx/cy', page(SVG_ATTRIBUTES, 0)],
  ['dots in an SVG, moved by cx/cy, 400 lines beside', page(SVG_ATTRIBUTES, 400)],
  ['dots in an SVG, groups moved by transform, 400 lines beside', page(SVG_GROUPS, 400)],
];

const browser = await launchChromium();
const rows: string[][] = [];
try {
  for (const [name, html] of PAGES) {
    const tab = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
    await tab.setContent(html);
    await sleep(1_000);
    await browser.startTracing(tab, { categories: ['devtools.timeline', 'blink', 'cc', 'viz', 'toplevel'] });
    await sleep(seconds * 1000);
    const trace = readTrace(await browser.stopTracing());
    await tab.context().close();
    const main = eventsOn(trace, 'CrRendererMain');
    const update = main.get('PaintArtifactCompositor::Update') ?? { us: 0, count: 0 };
    const threads = [...busyByThread(trace)];
    const busy = threads.find(([thread]) => thread.endsWith('/ CrRendererMain'))?.[1] ?? 0;
    rows.push([
      name,
      (update.count / seconds).toFixed(1),
      (update.us / 1000 / seconds).toFixed(1),
      (busy / 1000 / seconds).toFixed(1),
      (threads.reduce((sum, [, us]) => sum + us, 0) / 1000 / seconds).toFixed(1),
    ]);
  }
} finally {
  await browser.close();
}
process.stdout.write(
  `| page (10 dots moved 18 times a second) | layerisations a second | layerisation, ms a second | main thread busy, ms a second | all threads busy, ms a second |\n|---|---|---|---|---|\n${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}\n`,
);
