import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../lib/chromium.ts';
import type { PartContext } from '../lib/config.ts';
import { HttpClient } from '../lib/http-client.ts';
import { chromiumPids, cpuMsBetween, cpuMsByPid, runNsOf } from '../lib/process-cpu.ts';
import type { ServerProcess } from '../lib/server-process.ts';
import { ROOT, startServerProcess } from '../lib/server-process.ts';
import { median, mib, ratio, sleep } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';
import { WsProbe } from '../lib/ws-probe.ts';
import { summarizeProfile } from '../profile-summary.ts';

const PART = 'Show';
/** A real ten-player GOTV frame (FaZe vs NaVi on Dust II, live, round 11). */
export const FRAME = join(
  ROOT,
  'test/fixtures/gsi_csgo_gotv_pro_faze-vs-navi_dust2__sces-csgo-hud-fe__output.json',
);
/** The cfg's pace: throttle 0.05 s is at most 20 a second; the game sends about 18 in a live round. */
const FRAMES_PER_SECOND = 18;
export const SURFACES = 10;
/** Between the ten surfaces, not each. */
const COMMANDS_PER_SECOND = 2;
const COMMANDS = ['toggle_scoreboard', 'toggle_stats'] as const;
/** "Receiving" ends 5 s after the last frame (src/game/game-data.ts); the idle stretch starts after it. */
const RECEIVING_ENDS_MS = 5_000 + 1_000;

const TARGETS = {
  serverShare: 1,
  serverFloor: 1.5,
  idleShare: 0.1,
  chromiumFloor: 1.5,
};

type Frame = Record<string, any>;

/**
 * Frame i of the show: the captured frame with the clock running (18 frames a second), every player
 * moving (position and view direction) and, once a second, one player hit (health down by 13, back to
 * 100 below 20: a round's damage over and over), with the cfg's token.
 */
export function showFrames(base: Frame, token: string): (i: number) => Frame {
  const ids = Object.keys(base.allplayers);
  const health = ids.map((id) => base.allplayers[id].state.health as number);
  const origins = ids.map((id) => (base.allplayers[id].position as string).split(', ').map(Number));
  let second = -1;
  return (i) => {
    const t = i / FRAMES_PER_SECOND;
    const frame = structuredClone(base);
    frame.auth = { token };
    frame.provider.timestamp = base.provider.timestamp + Math.floor(t);
    frame.phase_countdowns = { phase: 'live', phase_ends_in: (115 - (t % 115)).toFixed(1) };
    if (Math.floor(t) !== second) {
      second = Math.floor(t);
      const k = second % ids.length;
      health[k] = (health[k] as number) >= 20 ? (health[k] as number) - 13 : 100;
    }
    ids.forEach((id, k) => {
      const player = frame.allplayers[id];
      const [x = 0, y = 0, z = 0] = origins[k] as number[];
      const angle = t * 0.7 + k;
      player.position = `${(x + 120 * Math.cos(angle)).toFixed(1)}, ${(y + 120 * Math.sin(angle)).toFixed(1)}, ${z.toFixed(1)}`;
      player.forward = `${(-Math.sin(angle)).toFixed(3)}, ${Math.cos(angle).toFixed(3)}, 0.000`;
      player.state.health = health[k];
    });
    return frame;
  };
}

/**
 * The server-CPU benches' load (bench/show-server-cpu.ts, bench/machines-view-cpu.ts): the show's
 * frames posted at `rate` a second, one after the other, and a command every `rate / 2` frames from
 * the surfaces in turn. `run(ms)` drives it for `ms` and answers how many frames went; the frames
 * and the commands go on from where the last run left them.
 */
export function frameLoad(options: {
  http: HttpClient;
  surfaces: readonly WsProbe[];
  frameAt: (i: number) => Frame;
  rate: number;
  /** Names the server in the error when a frame is refused. */
  label: string;
}): (ms: number) => Promise<number> {
  const { http, surfaces, frameAt, rate, label } = options;
  const every = Math.round(rate / COMMANDS_PER_SECOND);
  let next = 0;
  let commands = 0;
  return async (ms) => {
    const started = performance.now();
    let k = 0;
    for (; performance.now() - started < ms; k++) {
      const wait = started + (k * 1000) / rate - performance.now();
      if (wait > 0) await sleep(wait);
      const answer = await http.post('/gsi', frameAt(next++));
      if (answer.status !== 200) throw new Error(`${label}: a frame was answered ${answer.status}`);
      if (k % every === 0) {
        const surface = surfaces[commands % surfaces.length] as WsProbe;
        void surface.trigger(++commands, commands % 2 ? 'toggle_scoreboard' : 'toggle_stats');
      }
    }
    return k;
  };
}

/** What the show posts and sends while it runs: frames at 18/s, commands at 2/s round the surfaces. */
export class Load {
  frames = 0;
  failedFrames = 0;
  commands = 0;
  failedCommands = 0;
  #running = false;
  #loops: Promise<void>[] = [];
  #pending = new Set<Promise<unknown>>();

  constructor(
    private readonly http: HttpClient,
    private readonly frameAt: (i: number) => Frame,
    private readonly surfaces: WsProbe[],
    /** `frames: false`: commands only (an experiment: bench/show-page-variants.ts). */
    private readonly options: { frames: boolean },
  ) {}

  start(): void {
    this.#running = true;
    this.#loops = [
      this.options.frames ? this.#frames() : Promise.resolve(),
      this.surfaces.length > 0 ? this.#commands() : Promise.resolve(),
    ];
  }

  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#loops);
    // Every command answered (a result lost is a broken stream), within a bound.
    await Promise.race([Promise.all(this.#pending), sleep(5_000)]);
    this.failedCommands += this.#pending.size;
  }

  /** One frame at a time, as the game posts them, each due at its own time (no catching up in bursts). */
  async #frames(): Promise<void> {
    const started = performance.now();
    for (let i = 0; this.#running; i++) {
      const wait = started + (i * 1000) / FRAMES_PER_SECOND - performance.now();
      if (wait > 0) await sleep(wait);
      const answer = await this.http.post('/gsi', this.frameAt(i));
      if (answer.status === 200) this.frames++;
      else this.failedFrames++;
    }
  }

  async #commands(): Promise<void> {
    const started = performance.now();
    for (let n = 0; this.#running; n++) {
      const wait = started + (n * 1000) / COMMANDS_PER_SECOND - performance.now();
      if (wait > 0) await sleep(wait);
      if (!this.#running) break;
      const surface = this.surfaces[n % this.surfaces.length] as WsProbe;
      const sent = surface.trigger(n + 1, COMMANDS[n % COMMANDS.length] as string).then(({ message }) => {
        this.#pending.delete(sent);
        if (message.ok) this.commands++;
        else this.failedCommands++;
      });
      this.#pending.add(sent);
    }
  }
}

/** CPU of the server (ms, and ns of run time) and of Chromium's processes, at one moment. */
interface Reading {
  at: number;
  /** The monotonic clock in µs (the clock of a V8 CPU profile). */
  us: number;
  serverMs: number;
  serverNs: number;
  chromium: Map<number, number>;
}

const read = (server: ServerProcess): Reading => ({
  at: performance.now(),
  us: Number(process.hrtime.bigint() / 1000n),
  serverMs: server.cpuMs(),
  serverNs: runNsOf(server.pid),
  chromium: cpuMsByPid(chromiumPids()),
});

interface Shares {
  seconds: number;
  /** Percent of one core, from the 10 ms ticks of /proc/<pid>/stat (exited threads included). */
  server: number;
  /** The same from the threads' run time in ns (/proc/<pid>/task/*\/schedstat): precise when small. */
  serverPrecise: number;
  chromium: number;
  window: { fromUs: number; toUs: number };
}

function sharesBetween(a: Reading, b: Reading): Shares {
  const ms = b.at - a.at;
  return {
    seconds: ms / 1000,
    window: { fromUs: a.us, toUs: b.us },
    server: ((b.serverMs - a.serverMs) / ms) * 100,
    serverPrecise: ((b.serverNs - a.serverNs) / 1e6 / ms) * 100,
    chromium: (cpuMsBetween(a.chromium, b.chromium) / ms) * 100,
  };
}

interface Outcome {
  show: Shares;
  idle: Shares & { slices: number[] };
  frames: number;
  cpuPerFrameMs: number;
  rssMedianKb: number;
  rssMaxKb: number;
  /** The long show: median RSS of its second minute and of its last one. */
  long: { minutes: number; earlyKb: number; lateKb: number } | null;
  broken: string[];
}

export interface Subject {
  server: ServerProcess;
  gsiPort: number;
  surfacesUrl: string;
  pageUrl: string;
  pageReady: string;
  token: string;
  profileDir: string | null;
  cleanup(): void;
}

export async function hudSubject(context: PartContext): Promise<Subject> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hud-bench-show-'));
  const nodeOptions = context.nodeOptions('show');
  const server = await startServerProcess({ runtime: context.runtime, kind: 'hud', dataDir, nodeOptions });
  return {
    server,
    gsiPort: server.appPort,
    surfacesUrl: `${server.wsUrl}/`,
    pageUrl: `${server.appUrl}/hud`,
    pageReady: '[data-page="hud"][data-ready="true"]',
    token: readFileSync(join(dataDir, 'gsi-token'), 'utf8').trim(),
    profileDir: profileDirOf(nodeOptions),
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export async function floorSubject(context: PartContext): Promise<Subject> {
  const token = randomBytes(32).toString('base64url');
  const nodeOptions = context.nodeOptions('show-floor');
  const server = await startServerProcess({
    runtime: context.runtime,
    kind: 'showFloor',
    nodeOptions,
    // One argument: a base64url token may start with "-", which parseArgs would take for an option.
    serveFlags: [`--token=${token}`],
  });
  return {
    server,
    gsiPort: server.port,
    surfacesUrl: `${server.wsUrl}/?role=surface`,
    pageUrl: `${server.httpUrl}/floor`,
    pageReady: 'body[data-ready="true"]',
    token,
    profileDir: profileDirOf(nodeOptions),
    cleanup: () => {},
  };
}

const profileDirOf = (options: string[]): string | null => {
  const at = options.indexOf('--cpu-prof-dir');
  return at === -1 ? null : (options[at + 1] ?? null);
};

/**
 * The profiles written in `dir` since `since` (ms), summarised over the measured show in µs per
 * frame (FILE.show.txt), and over the idle stretch in µs per second (FILE.idle.txt).
 */
function summarizeProfiles(dir: string, since: number, outcome: Outcome): void {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).mtimeMs >= since);
  for (const file of files) {
    writeFileSync(`${file}.show.txt`, `${summarizeProfile(file, 40, outcome.frames, outcome.show.window)}\n`);
    const seconds = Math.max(1, Math.round(outcome.idle.seconds));
    writeFileSync(`${file}.idle.txt`, `${summarizeProfile(file, 40, seconds, outcome.idle.window)}\n`);
  }
}

/** One show on one server (the service or the floor), with its page in a Chromium of its own. */
async function runShow(
  context: PartContext,
  subject: Subject,
  label: string,
  longMinutes: number,
): Promise<Outcome> {
  const { server } = subject;
  const { idleSeconds, idleAfter, warmupSeconds, seconds } = context.config.show;
  let browser: Browser | null = null;
  const surfaces: WsProbe[] = [];
  const http = new HttpClient(subject.gsiPort);
  try {
    browser = await launchChromium();
    const page: Page = await (
      await browser.newContext({ viewport: { width: 1920, height: 1080 } })
    ).newPage();
    await page.goto(subject.pageUrl);
    await page.locator(subject.pageReady).waitFor({ state: 'attached', timeout: 15_000 });
    for (let i = 0; i < SURFACES; i++) surfaces.push(await WsProbe.connect(subject.surfacesUrl));
    const base = JSON.parse(readFileSync(FRAME, 'utf8'));
    const load = new Load(http, showFrames(base, subject.token), surfaces, { frames: true });
    /** The idle stretch, and its shares 5 s at a time (what wakes an idle server shows as a level, a GC after the show as a decay). */
    const idle = async (): Promise<Shares & { slices: number[] }> => {
      await sleep(1_000);
      const readings = [read(server)];
      const end = performance.now() + idleSeconds * 1000;
      while (performance.now() < end) {
        await sleep(Math.min(5_000, end - performance.now()));
        readings.push(read(server));
      }
      const slices = readings
        .slice(1)
        .map((reading, i) => sharesBetween(readings[i] as Reading, reading).serverPrecise);
      return { ...sharesBetween(readings[0] as Reading, readings.at(-1) as Reading), slices };
    };

    const idleBefore = idleAfter ? null : await idle();
    load.start();
    await sleep(warmupSeconds * 1000);
    const framesBefore = load.frames;
    const a = read(server);
    const rss: number[] = [];
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      await sleep(Math.min(1_000, until - performance.now()));
      rss.push(server.rssKb());
    }
    const b = read(server);
    const frames = load.frames - framesBefore;
    let long: Outcome['long'] = null;
    if (longMinutes > 0) {
      const samples: Array<[number, number]> = [];
      const longStart = performance.now();
      context.log(`  ${label}: the long show, ${longMinutes} min`);
      while (performance.now() - longStart < longMinutes * 60_000) {
        await sleep(5_000);
        samples.push([(performance.now() - longStart) / 60_000, server.rssKb()]);
      }
      const of = (from: number, to: number) =>
        median(samples.filter(([minute]) => minute >= from && minute < to).map(([, kb]) => kb));
      long = { minutes: longMinutes, earlyKb: of(1, 2), lateKb: of(longMinutes - 1, longMinutes + 1) };
      const byMinute = Array.from({ length: longMinutes }, (_, minute) => mib(of(minute, minute + 1)));
      context.log(`  ${label}: RSS by minute of the long show (median): ${byMinute.join(', ')}`);
    }
    await load.stop();
    if (idleAfter) await sleep(RECEIVING_ENDS_MS);
    const idleShares = idleBefore ?? (await idle());

    const broken: string[] = [];
    if (load.failedFrames > 0) broken.push(`${load.failedFrames} frames refused`);
    if (load.failedCommands > 0) broken.push(`${load.failedCommands} commands failed or unanswered`);
    await sleep(300);
    const final = Math.max(...surfaces.map((surface) => surface.check.last));
    const lost = surfaces.reduce((sum, surface) => sum + surface.check.missingUpTo(final), 0);
    const outOfOrder = surfaces.reduce((sum, surface) => sum + surface.check.outOfOrder, 0);
    if (lost + outOfOrder > 0) broken.push(`${lost} events lost, ${outOfOrder} out of order at the surfaces`);
    return {
      show: sharesBetween(a, b),
      idle: idleShares,
      frames,
      cpuPerFrameMs: (b.serverMs - a.serverMs) / frames,
      rssMedianKb: median(rss),
      rssMaxKb: Math.max(...rss),
      long,
      broken,
    };
  } finally {
    for (const surface of surfaces) surface.close();
    http.close();
    await browser?.close();
  }
}

const pct = (value: number) => `${value.toFixed(value < 1 ? 2 : 1)} %`;

/**
 * A live match as the broadcast PC runs it (issue 23): the built server (`serve --no-obs --log-level
 * warn`, as `npm start` runs it) with the HUD overlay (/hud) open in Chromium at 1920x1080 and ten
 * control surfaces on the automation server's WebSocket; a real ten-player GOTV frame posted to the
 * application server's /gsi with the cfg's token at 18 frames a second, the players moving and the
 * clock running; the surfaces sending 2 commands a second between them (toggle_scoreboard and
 * toggle_stats in turn). After a warm-up, the server's CPU share (process counters), its RSS, and the
 * CPU share of the Chromium processes (browser, renderer, GPU and utility: summed) over the measured
 * stretch; the server's share with the same page and surfaces connected and nothing happening. Then
 * the same on the floor (bench/show-floor-server.mjs and its page), in the same run.
 */
export async function show(context: PartContext): Promise<{ rows: Row[]; broken: number }> {
  const missing = chromiumMissing();
  if (missing) return { rows: [{ part: PART, figure: 'skipped', value: missing }], broken: 0 };
  const { idleSeconds, idleAfter, warmupSeconds, seconds, longMinutes } = context.config.show;
  const results: Record<'hud' | 'floor', Outcome> = {} as Record<'hud' | 'floor', Outcome>;
  for (const [which, make] of [
    ['hud', hudSubject],
    ['floor', floorSubject],
  ] as const) {
    const subject = await make(context);
    const startedAt = Date.now();
    try {
      results[which] = await runShow(context, subject, which, which === 'hud' ? longMinutes : 0);
    } finally {
      await subject.server.stop();
      subject.cleanup();
    }
    const r = results[which];
    // The profile is written when the server stops: summarised over the measured stretch, per frame.
    if (subject.profileDir) summarizeProfiles(subject.profileDir, startedAt, r);
    context.log(
      `  ${which}: server ${pct(r.show.server)} (${pct(r.show.serverPrecise)} by run time), ${r.cpuPerFrameMs.toFixed(2)} ms/frame over ${r.frames} frames; idle ${pct(r.idle.serverPrecise)} (${pct(r.idle.server)} by ticks; by 5 s: ${r.idle.slices.map((share) => share.toFixed(2)).join(', ')}); Chromium ${pct(r.show.chromium)}, idle ${pct(r.idle.chromium)}; RSS median ${mib(r.rssMedianKb)}, max ${mib(r.rssMaxKb)}${r.broken.length ? `; BROKEN: ${r.broken.join(', ')}` : ''}`,
    );
  }
  const { hud, floor } = results;
  const load = `${FRAMES_PER_SECOND} frames/s, ${SURFACES} surfaces at ${COMMANDS_PER_SECOND} commands/s, /hud 1920x1080; ${seconds} s after ${warmupSeconds} s`;
  const serverX = hud.show.server / floor.show.server;
  const chromiumX = hud.show.chromium / floor.show.chromium;
  const rows: Row[] = [
    {
      part: PART,
      figure: `server CPU share during the show (${load})`,
      value: `${pct(hud.show.server)} of a core, ${hud.cpuPerFrameMs.toFixed(2)} ms/frame; floor ${pct(floor.show.server)}, ${floor.cpuPerFrameMs.toFixed(2)} ms/frame`,
      target: `<= ${TARGETS.serverShare} %`,
      met: hud.show.server <= TARGETS.serverShare,
    },
    {
      part: PART,
      figure: 'server CPU during the show, x the floor (bench/show-floor-server.mjs)',
      value: ratio(serverX),
      target: `<= ${TARGETS.serverFloor}x`,
      met: serverX <= TARGETS.serverFloor,
    },
    {
      part: PART,
      figure: `server CPU share idle (page and surfaces connected, ${idleSeconds} s ${idleAfter ? 'after the show' : 'before the show'})`,
      value: `${pct(hud.idle.serverPrecise)}; floor ${pct(floor.idle.serverPrecise)}`,
      target: `<= ${TARGETS.idleShare} %`,
      met: hud.idle.serverPrecise <= TARGETS.idleShare,
    },
    {
      part: PART,
      figure: 'server RSS during the show',
      value: `median ${mib(hud.rssMedianKb)}, max ${mib(hud.rssMaxKb)}; floor median ${mib(floor.rssMedianKb)}`,
    },
    {
      part: PART,
      figure: 'Chromium CPU share, the overlay page during the show (all its processes)',
      value: `${pct(hud.show.chromium)} of a core (idle ${pct(hud.idle.chromium)}); floor page ${pct(floor.show.chromium)} (idle ${pct(floor.idle.chromium)}); ${ratio(chromiumX)}`,
      target: `<= ${TARGETS.chromiumFloor}x the floor page`,
      met: chromiumX <= TARGETS.chromiumFloor,
    },
  ];
  if (hud.long) {
    const growth = (hud.long.lateKb - hud.long.earlyKb) / hud.long.earlyKb;
    rows.push({
      part: PART,
      figure: `server RSS over a ${hud.long.minutes}-minute show (median of minute 2 against the last minute)`,
      value: `${mib(hud.long.earlyKb)} → ${mib(hud.long.lateKb)} (${(growth * 100).toFixed(1)} %)`,
      target: 'no growth (<= 5 %)',
      met: growth <= 0.05,
    });
  }
  let broken = 0;
  for (const [which, outcome] of Object.entries(results)) {
    if (outcome.broken.length === 0) continue;
    broken++;
    rows.push({ part: PART, figure: `${which}: broken stream`, value: outcome.broken.join('; ') });
  }
  return { rows, broken };
}
