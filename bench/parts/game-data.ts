import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import type { PartContext } from '../lib/config.ts';
import { HttpClient } from '../lib/http-client.ts';
import { ROOT, startServerProcess } from '../lib/server-process.ts';
import { ms, perSecond, sleep, summarizeNs } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';
import { WsCrowd } from '../lib/ws-crowd.ts';

const PART = 'Game data';
/** The game posts one frame at a time and waits for the answer: the endpoint must keep up with 20/s. */
const TARGET_FRAMES_PER_SECOND = 100;
const FRAME = join(
  ROOT,
  'test/fixtures/gsi_csgo_spectator_bots_dust2__nodecg-csgo-manager__csgo-example.json',
);

/** Waits until the CLI printed its ready line and returns the application server's port. */
async function appPortOf(output: () => string): Promise<number> {
  for (let waited = 0; waited < 10_000; waited += 5) {
    const found = /Operator app\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(output());
    if (found?.[1]) return Number(found[1]);
    await sleep(5);
  }
  throw new Error(`no ready line with the operator app's address:\n${output()}`);
}

/**
 * The game-data endpoint of the application server (POST /gsi) with 100 WebSocket clients of the
 * pages connected (child processes) and a probe in this process. One frame at a time, as the game
 * sends them, each with a new round clock so that every frame is a live change the pages receive.
 * Frames per second and server CPU per frame over the run; the time from the start of a POST until
 * the probe has parsed the `game` message of that frame, p50/p99. (The overlay's own DOM time is
 * the overlay's bench: the pages belong to issue 12.)
 */
export async function gameData(context: PartContext): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hud-bench-game-'));
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    dataDir,
    nodeOptions: context.nodeOptions('game-data'),
  });
  const rows: Row[] = [];
  try {
    const appPort = await appPortOf(hud.output);
    const token = readFileSync(join(dataDir, 'gsi-token'), 'utf8').trim();
    const frame = { ...JSON.parse(readFileSync(FRAME, 'utf8')), auth: { token } };
    const pages = `ws://127.0.0.1:${appPort}/ws?role=overlay`;
    const clients = 100;
    const crowd = await WsCrowd.connect(pages, clients - 1, 1);
    const probe = new WebSocket(pages, { perMessageDeflate: false });
    const arrivals = new Map<number, bigint>();
    const waiting = new Map<number, () => void>();
    probe.on('message', (data) => {
      const at = process.hrtime.bigint();
      const message = JSON.parse(data.toString());
      const clock = message.type === 'game' ? message.live?.round?.clock : undefined;
      if (typeof clock !== 'number') return;
      const index = Math.round(clock * 10);
      arrivals.set(index, at);
      waiting.get(index)?.();
      waiting.delete(index);
    });
    await new Promise((resolve, reject) => {
      probe.once('open', resolve);
      probe.once('error', reject);
    });
    const http = new HttpClient(appPort);
    const frames = context.config.quick ? 500 : 5_000;
    const warmup = Math.ceil(frames / 10);
    const latencies: bigint[] = [];
    let cpuBefore = 0;
    let started = 0;
    for (let i = 1; i <= warmup + frames; i++) {
      if (i === warmup + 1) {
        cpuBefore = hud.cpuMs();
        started = performance.now();
      }
      const body = { ...frame, phase_countdowns: { phase: 'live', phase_ends_in: (i / 10).toFixed(1) } };
      const arrived = new Promise<void>((resolve) => waiting.set(i, resolve));
      const sent = process.hrtime.bigint();
      const answer = await http.post('/gsi', body);
      if (answer.status !== 200)
        throw new Error(`POST /gsi answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      if (!arrivals.has(i)) await arrived;
      if (i > warmup) latencies.push((arrivals.get(i) as bigint) - sent);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuPerFrame = (hud.cpuMs() - cpuBefore) / frames;
    const rate = frames / seconds;
    const delivery = summarizeNs(latencies);
    context.log(
      `  ${frames} frames in ${seconds.toFixed(1)} s: ${perSecond(rate)}, server CPU ${ms(cpuPerFrame)}/frame, frame -> page p50 ${ms(delivery.p50)} p99 ${ms(delivery.p99)}`,
    );
    rows.push({
      part: PART,
      figure: `frames/s through POST /gsi, one at a time, ${clients} page clients`,
      value: `${perSecond(rate)}; server CPU ${ms(cpuPerFrame)}/frame`,
      target: `>= ${TARGET_FRAMES_PER_SECOND}/s`,
      met: rate >= TARGET_FRAMES_PER_SECOND,
    });
    rows.push({
      part: PART,
      figure: 'frame -> game message at a page (WebSocket, parsed)',
      value: `p50 ${ms(delivery.p50)}, p99 ${ms(delivery.p99)}, max ${ms(delivery.max)}`,
    });
    http.close();
    probe.close();
    await crowd.close();
  } finally {
    await hud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
