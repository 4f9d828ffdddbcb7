/**
 * What of the overlay's Chromium share during the show (issue 23) comes from what: the show's load
 * on the service's /hud with a stylesheet added to the page (an experiment on the page as served,
 * nothing in src/ changes) or with part of the load left out, each in a fresh Chromium, the
 * Chromium processes' CPU from /proc over the same stretch; the floor page last, for the ratio.
 * Usage: npx tsx bench/show-page-variants.ts [--seconds 12] [--only 'name|name']
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
  options: { seconds: { type: 'string', default: '12' }, only: { type: 'string' } },
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
      for (const [id, player] of Object.entries<any>(frame.allplayers))
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
} finally {
  await floor.server.stop();
}
process.stdout.write(
  `| variant of /hud | Chromium CPU, % of a core |\n|---|---|\n${results.map(([name, share]) => `| ${name} | ${share.toFixed(1)} |`).join('\n')}\n`,
);
