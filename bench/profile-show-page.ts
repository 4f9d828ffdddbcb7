/**
 * Where the overlay page spends Chromium's time during the show (issue 23): the show's load (frames
 * at 18/s, ten surfaces at 2 commands/s) on the service's /hud or on the floor page, with
 *   - Chromium's performance trace (browser.startTracing): time by event on the renderer's main
 *     thread (script, style, layout, paint …) and busy time by thread in every process;
 *   - the page's DOM changes per game frame by element (a MutationObserver) and the animations
 *     running (document.getAnimations(), sampled), by the element's class;
 *   - a CPU profile of the page's JavaScript (CDP Profiler), its top functions.
 * Usage: npx tsx bench/profile-show-page.ts [--page hud|floor] [--seconds 15] [--css '<rules>'] [--no-commands] [--no-frames]
 *   --css adds a stylesheet to the page (an experiment), --no-commands leaves the surfaces quiet,
 *   --no-frames posts no game frames (the panels' motion alone).
 * Output: bench/results/profiles/show-page/<page>.{trace.json,summary.txt,cpuprofile}
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from './lib/chromium.ts';
import { QUICK } from './lib/config.ts';
import { HttpClient } from './lib/http-client.ts';
import { chooseRuntime, ROOT } from './lib/server-process.ts';
import { sleep } from './lib/stats.ts';
import { busyByThread, eventsOn, readTrace } from './lib/trace.ts';
import { WsProbe } from './lib/ws-probe.ts';
import { FRAME, floorSubject, hudSubject, Load, SURFACES, showFrames } from './parts/show.ts';
import { summarizeProfile } from './profile-summary.ts';

const { values } = parseArgs({
  options: {
    page: { type: 'string', default: 'hud' },
    seconds: { type: 'string', default: '15' },
    css: { type: 'string' },
    'no-commands': { type: 'boolean', default: false },
    'no-frames': { type: 'boolean', default: false },
  },
});
const which = values.page === 'floor' ? 'floor' : 'hud';
const seconds = Number(values.seconds);
const OUT = join(ROOT, 'bench/results/profiles/show-page');
mkdirSync(OUT, { recursive: true });

const context = {
  config: QUICK,
  runtime: chooseRuntime(),
  log: (line: string) => process.stderr.write(`${line}\n`),
  nodeOptions: () => [],
};
const subject = await (which === 'hud' ? hudSubject(context) : floorSubject(context));
const browser = await launchChromium();
const lines: string[] = [];
try {
  const page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
  await page.goto(subject.pageUrl);
  await page.locator(subject.pageReady).waitFor({ state: 'attached', timeout: 15_000 });
  if (values.css) await page.addStyleTag({ content: values.css });
  const surfaces: WsProbe[] = [];
  for (let i = 0; i < SURFACES; i++) surfaces.push(await WsProbe.connect(subject.surfacesUrl));
  const http = new HttpClient(subject.gsiPort);
  const frameAt = showFrames(JSON.parse(readFileSync(FRAME, 'utf8')), subject.token);
  const load = new Load(http, frameAt, values['no-commands'] ? [] : surfaces, {
    frames: !values['no-frames'],
  });
  load.start();
  await sleep(3_000);

  // DOM changes and animations, counted in the page.
  // A string, not a function: tsx would wrap the page's inner functions in its own helper (__name).
  await page.evaluate(`(() => {
    const g = globalThis;
    g.__mutations = new Map();
    g.__animations = new Map();
    g.__samples = 0;
    const nameOf = (node) => {
      const element = node && (node.nodeType === 1 ? node : node.parentElement);
      if (!element) return '?';
      const cls = typeof element.className === 'string' ? element.className.split(' ')[0] : '';
      return element.tagName.toLowerCase() + (cls ? '.' + cls : '');
    };
    new MutationObserver((records) => {
      for (const record of records) {
        const key = record.type + (record.attributeName ? '[' + record.attributeName + ']' : '') + ' ' + nameOf(record.target);
        g.__mutations.set(key, (g.__mutations.get(key) ?? 0) + 1);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    g.__timer = setInterval(() => {
      g.__samples++;
      for (const animation of document.getAnimations()) {
        if (animation.playState !== 'running') continue;
        const key = animation.constructor.name + ' ' + (animation.transitionProperty ?? animation.animationName ?? '') + ' ' + nameOf(animation.effect && animation.effect.target);
        g.__animations.set(key, (g.__animations.get(key) ?? 0) + 1);
      }
    }, 250);
  })()`);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'blink',
      'cc',
      'viz',
      'toplevel',
      'v8.execute',
    ],
  });
  await cdp.send('Profiler.start');
  const framesBefore = load.frames;
  await sleep(seconds * 1000);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
  const trace = await browser.stopTracing();
  const frames = load.frames - framesBefore;
  // Counts per game frame, or per second when no frames were posted.
  const [per, unit] = frames > 0 ? [frames, 'game frame'] : [seconds, 'second'];
  const counted = (await page.evaluate(`(() => {
    const g = globalThis;
    clearInterval(g.__timer);
    return { mutations: [...g.__mutations], animations: [...g.__animations], samples: g.__samples };
  })()`)) as { mutations: Array<[string, number]>; animations: Array<[string, number]>; samples: number };
  await load.stop();
  for (const surface of surfaces) surface.close();
  http.close();

  writeFileSync(join(OUT, `${which}.trace.json`), trace);
  const profileFile = join(OUT, `${which}.cpuprofile`);
  writeFileSync(profileFile, JSON.stringify(profile));

  lines.push(`${which}: ${frames} frames in ${seconds} s`);
  lines.push(`DOM mutation records per ${unit}, by kind and element:`);
  for (const [key, n] of counted.mutations.sort((a, b) => b[1] - a[1]).slice(0, 40))
    lines.push(`  ${(n / per).toFixed(2).padStart(7)}  ${key}`);
  lines.push(`animations running (share of ${counted.samples} samples, every 250 ms):`);
  for (const [key, n] of counted.animations.sort((a, b) => b[1] - a[1]).slice(0, 30))
    lines.push(`  ${((n / counted.samples) * 100).toFixed(0).padStart(5)} %  ${key}`);

  // The trace: busy time by thread; on the renderer's main thread by event.
  const parsed = readTrace(trace);
  const busyByThreadUs = busyByThread(parsed);
  const byName = new Map([...eventsOn(parsed, 'CrRendererMain')].map(([name, { us }]) => [name, us]));
  lines.push('busy time by process / thread (each task once, thread CPU), ms per second:');
  for (const [key, us] of [...busyByThreadUs].sort((a, b) => b[1] - a[1]).slice(0, 20))
    lines.push(`  ${(us / 1000 / seconds).toFixed(2).padStart(7)}  ${key}`);
  lines.push(`renderer main thread by event (nested events overlap), µs per ${unit}:`);
  for (const [name, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 35))
    lines.push(`  ${(us / per).toFixed(1).padStart(8)}  ${name}`);
  lines.push('page JavaScript (CDP Profiler, minified names):');
  lines.push(summarizeProfile(profileFile, 25, per));
} finally {
  await browser.close();
  await subject.server.stop();
  subject.cleanup();
}
const text = lines.join('\n');
writeFileSync(join(OUT, `${which}.summary.txt`), `${text}\n`);
process.stdout.write(`${text}\n`);
