/**
 * What of the overlay's Chromium share during the show (issue 23) comes from what: the show's load
 * on the service's /hud with a stylesheet added to the page (an experiment on the page as served,
 * nothing in src/ changes) or with part of the load left out, each in a fresh Chromium, the
 * Chromium processes' CPU from /proc over the same stretch; the floor page last, for the ratio.
 * Usage: npx tsx bench/show-page-variants.ts [--seconds 12] [--only 'name|name']
 *        npx tsx bench/show-page-variants.ts --css '<rules>' [--load show|frames|commands]
 *   (the page as served and with the rules added, under the one load, then the floor page)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { launchChromium } from './lib/chromium.ts';
import { QUICK } from './lib/config.ts';
import { HttpClient } from './lib/http-client.ts';
import { chromiumPids, cpuMsBetween, cpuMsByPid } from './lib/process-cpu.ts';
import { chooseRuntime } from './lib/server-process.ts';
import { sleep } from './lib/stats.ts';
import { WsProbe } from './lib/ws-probe.ts';
import type { Subject } from './parts/show.ts';
import { FRAME, floorSubject, hudSubject, Load, SURFACES, showFrames } from './parts/show.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '12' },
    only: { type: 'string' },
    css: { type: 'string' },
    load: { type: 'string', default: 'show' },
  },
});
const seconds = Number(values.seconds);

interface Variant {
  name: string;
  css?: string;
  frames: boolean;
  commands: boolean;
  hits?: boolean;
}

const NO_MOTION = '*, *::before, *::after { transition: none !important; animation: none !important; }';
const VARIANTS: Variant[] = [
  { name: 'as served', frames: true, commands: true },
  { name: 'no transitions or animations', css: NO_MOTION, frames: true, commands: true },
  { name: 'frames only (no commands)', frames: true, commands: false },
  { name: 'commands only (no frames)', frames: false, commands: true },
  { name: 'frames without hits (clock and positions)', frames: true, commands: false, hits: false },
  { name: 'no topbar filter', css: '.topbar { filter: none !important; }', frames: true, commands: true },
  {
    name: 'no hp trail transition',
    css: '.pbox__hptrail { transition: none !important; }',
    frames: true,
    commands: true,
  },
  {
    name: 'panels: no slide (opacity only) + will-change',
    css: '.panel, .panel[data-visible="false"] { transform: none !important; will-change: opacity; }',
    frames: true,
    commands: true,
  },
  {
    name: 'panels hidden by display:none at once',
    css: '.panel[data-visible="false"] { display: none !important; } .panel { transition: none !important; }',
    frames: true,
    commands: true,
  },
  {
    name: 'frames only, health bars without transitions',
    css: '.pbox__hpfill, .pbox__hptrail, .observed__hpfill { transition: none !important; }',
    frames: true,
    commands: false,
  },
  {
    name: 'panels 150 ms, health bars without transitions',
    css: '.panel, .panel[data-visible="false"] { transition-duration: 150ms !important; } .pbox__hpfill, .pbox__hptrail, .observed__hpfill { transition: none !important; }',
    frames: true,
    commands: true,
  },
  {
    name: 'panels at once, health bars without transitions',
    css: '.panel { transition: none !important; } .pbox__hpfill, .pbox__hptrail, .observed__hpfill { transition: none !important; }',
    frames: true,
    commands: true,
  },
  {
    name: 'radar dots without glide',
    css: '.radar__dot { transition: none !important; }',
    frames: true,
    commands: true,
  },
  {
    name: 'frames only, radar dots without glide',
    css: '.radar__dot { transition: none !important; }',
    frames: true,
    commands: false,
  },
  { name: 'frames only, no transitions or animations', css: NO_MOTION, frames: true, commands: false },
  {
    name: 'frames only, no motion, no shadows or filters',
    css: `${NO_MOTION} * { box-shadow: none !important; filter: none !important; text-shadow: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, radar hidden',
    css: `${NO_MOTION} .radar { display: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, radar dots without glide, own layers',
    css: '.radar__dot { transition: none !important; will-change: transform; }',
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, radar dots without glide, own layers, facing without filter',
    css: '.radar__dot { transition: none !important; will-change: transform; } .radar__facing::after { filter: none !important; }',
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, health trail without transition',
    css: '.pbox__hptrail { transition: none !important; }',
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, hidden panels display:none',
    css: `${NO_MOTION} [data-panel][data-visible="false"] { display: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, no radar',
    css: `${NO_MOTION} [data-panel="radar"] { display: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, radar dots own layers',
    css: `${NO_MOTION} .radar__dot { will-change: transform; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, no player boxes',
    css: `${NO_MOTION} [data-panel="players"], [data-panel="observed"] { display: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, no top bar',
    css: `${NO_MOTION} [data-panel="topbar"] { display: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, radar: facing without filter',
    css: `${NO_MOTION} .radar__facing::after { filter: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, radar: discs without shadow',
    css: `${NO_MOTION} .radar__disc { box-shadow: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, radar: plain ground without grid',
    css: `${NO_MOTION} .radar__plain { background-image: none !important; box-shadow: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, radar: all three',
    css: `${NO_MOTION} .radar__facing::after { filter: none !important; } .radar__disc { box-shadow: none !important; } .radar__plain { background-image: none !important; box-shadow: none !important; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, no motion, radar: dots contain strict',
    css: `${NO_MOTION} .radar__dot { contain: strict; }`,
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, trail 250 ms after 150 ms',
    css: '.pbox__hptrail { transition: transform 250ms var(--ease) 150ms !important; }',
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, trail held 400 ms then at once',
    css: '.pbox__hptrail { transition: transform 0s linear 400ms !important; }',
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, trail stepped',
    css: '.pbox__hptrail { transition: transform 400ms steps(1, end) !important; }',
    frames: true,
    commands: false,
  },
  {
    name: 'panels 200 ms in, 160 ms out',
    css: '.panel { transition-duration: 200ms, 200ms, 0s !important; } .panel[data-visible="false"] { transition-duration: 160ms, 160ms, 0s !important; transition-delay: 0s, 0s, 160ms !important; }',
    frames: true,
    commands: true,
  },
  {
    name: 'panels fade only',
    css: '.panel, .panel[data-visible="false"] { transform: none !important; }',
    frames: true,
    commands: true,
  },
  {
    name: 'frames only, no top bar filter',
    css: '.topbar { filter: none !important; }',
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, top bar shadow painted under it',
    css: '.topbar { filter: none !important; } .topbar::before { content: ""; position: absolute; z-index: -1; top: 0; left: 26px; right: 26px; height: 72px; box-shadow: 0 6px 18px rgba(0, 0, 0, 0.35); }',
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, radar its own layer, dots not',
    css: '.radar { will-change: transform; } .radar__dot { will-change: auto !important; }',
    frames: true,
    commands: false,
  },
  {
    name: 'frames only, radar its own layer, dots too',
    css: '.radar { will-change: transform; }',
    frames: true,
    commands: false,
  },
];

const context = {
  config: QUICK,
  runtime: chooseRuntime(),
  log: (line: string) => process.stderr.write(`${line}\n`),
  nodeOptions: () => [],
};

async function measure(subject: Subject, variant: Variant): Promise<number> {
  const browser = await launchChromium();
  const surfaces: WsProbe[] = [];
  const http = new HttpClient(subject.gsiPort);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
    await page.goto(subject.pageUrl);
    await page.locator(subject.pageReady).waitFor({ state: 'attached', timeout: 15_000 });
    if (variant.css) await page.addStyleTag({ content: variant.css });
    for (let i = 0; i < SURFACES; i++) surfaces.push(await WsProbe.connect(subject.surfacesUrl));
    const base = JSON.parse(readFileSync(FRAME, 'utf8'));
    const frames = showFrames(base, subject.token);
    const still = (i: number) => {
      const frame = frames(i);
      // The same health all along: only the clock and the positions move.
      for (const [id, player] of Object.entries<{ state: { health: number } }>(frame.allplayers))
        player.state.health = base.allplayers[id].state.health;
      return frame;
    };
    const load = new Load(http, variant.hits === false ? still : frames, variant.commands ? surfaces : [], {
      frames: variant.frames,
    });
    load.start();
    await sleep(3_000);
    const a = { at: performance.now(), cpu: cpuMsByPid(chromiumPids()) };
    await sleep(seconds * 1000);
    const b = { at: performance.now(), cpu: cpuMsByPid(chromiumPids()) };
    await load.stop();
    return (cpuMsBetween(a.cpu, b.cpu) / (b.at - a.at)) * 100;
  } finally {
    for (const surface of surfaces) surface.close();
    http.close();
    await browser.close();
  }
}

const only = values.only ? new Set(values.only.split('|')) : null;
if (values.css) {
  // A mistyped load would otherwise run the whole show under the name it was given.
  if (!['show', 'frames', 'commands'].includes(values.load)) {
    process.stderr.write(`--load is show, frames or commands, not ${values.load}\n`);
    process.exit(2);
  }
  const frames = values.load !== 'commands';
  const commands = values.load !== 'frames';
  VARIANTS.splice(
    0,
    VARIANTS.length,
    { name: `${values.load}: as served`, frames, commands },
    { name: `${values.load}: with --css`, css: values.css, frames, commands },
  );
}
const hud = await hudSubject(context);
const results: Array<[string, number]> = [];
try {
  for (const variant of VARIANTS) {
    if (only && !only.has(variant.name)) continue;
    const share = await measure(hud, variant);
    results.push([variant.name, share]);
    process.stderr.write(`  ${variant.name}: Chromium ${share.toFixed(1)} % of a core\n`);
  }
} finally {
  await hud.server.stop();
  hud.cleanup();
}
const floor = await floorSubject(context);
try {
  const share = await measure(floor, { name: 'floor page', frames: true, commands: true });
  results.push(['floor page (bench/show-floor-page.html)', share]);
  const framesOnly = await measure(floor, { name: 'floor page, frames only', frames: true, commands: false });
  results.push(['floor page, frames only', framesOnly]);
} finally {
  await floor.server.stop();
}
process.stdout.write(
  `| variant of /hud | Chromium CPU, % of a core |\n|---|---|\n${results.map(([name, share]) => `| ${name} | ${share.toFixed(1)} |`).join('\n')}\n`,
);
