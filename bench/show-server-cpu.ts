/**
 * The show's server side alone (issue 23), for comparing builds quickly: the show's frames
 * (bench/parts/show.ts) POSTed one at a time at a fixed rate, a page as a plain WebSocket client
 * (the overlay's role on the application server, role=page on the floor) instead of Chromium, ten
 * control surfaces on the automation server sending 2 commands a second between them; the server's
 * CPU (user + system, /proc) per frame over the measured stretch, the service and the show's floor
 * (bench/show-floor-server.mjs) in turn, each round. No Chromium: the figure moves less than the show
 * part's, and a higher rate measures the per-frame cost with more frames in less time.
 *
 * Usage: tsx bench/show-server-cpu.ts [--rate 50] [--seconds 20] [--rounds 2] [--servers hud,floor]
 *        [--profile DIR [--profile-interval 100]] (node --cpu-prof, a sample every 100 µs; the window
 *        of each measured stretch is printed in the monotonic clock's µs, for bench/profile-summary.ts)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { HttpClient } from './lib/http-client.ts';
import type { ServerProcess } from './lib/server-process.ts';
import { chooseRuntime, startServerProcess } from './lib/server-process.ts';
import { WsProbe } from './lib/ws-probe.ts';
import { FRAME, frameLoad, SURFACES, showFrames } from './parts/show.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    servers: { type: 'string', default: 'hud,floor' },
    profile: { type: 'string' },
    'profile-interval': { type: 'string', default: '100' },
  },
});
const RATE = Number(values.rate);
const WARMUP_MS = 3_000;
const runtime = chooseRuntime();
const base = JSON.parse(readFileSync(FRAME, 'utf8'));
const nodeOptions = (server: string) =>
  values.profile
    ? [
        '--cpu-prof',
        '--cpu-prof-interval',
        values['profile-interval'],
        '--cpu-prof-dir',
        join(values.profile, server),
      ]
    : [];

interface Subject {
  server: ServerProcess;
  gsiPort: number;
  pageUrl: string;
  surfacesUrl: string;
  token: string;
  cleanup(): void;
}

async function subjectOf(which: string): Promise<Subject> {
  if (which === 'hud') {
    const dataDir = mkdtempSync(join(tmpdir(), 'hud-bench-show-cpu-'));
    const server = await startServerProcess({
      runtime,
      kind: 'hud',
      dataDir,
      nodeOptions: nodeOptions(which),
    });
    return {
      server,
      gsiPort: server.appPort,
      pageUrl: `ws://127.0.0.1:${server.appPort}/ws?role=overlay`,
      surfacesUrl: `${server.wsUrl}/`,
      token: readFileSync(join(dataDir, 'gsi-token'), 'utf8').trim(),
      cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const token = randomBytes(32).toString('base64url');
  const server = await startServerProcess({
    runtime,
    kind: 'showFloor',
    nodeOptions: nodeOptions(which),
    serveFlags: [`--token=${token}`],
  });
  return {
    server,
    gsiPort: server.port,
    pageUrl: `${server.wsUrl}/?role=page`,
    surfacesUrl: `${server.wsUrl}/?role=surface`,
    token,
    cleanup: () => {},
  };
}

/** One server: warm-up, then the measured stretch; CPU µs per frame and the page's message count. */
async function measure(which: string): Promise<string> {
  const subject = await subjectOf(which);
  const { server } = subject;
  const page = new WebSocket(subject.pageUrl, { perMessageDeflate: false });
  let messages = 0;
  page.on('message', () => messages++);
  page.on('error', () => {});
  await new Promise((resolve, reject) => {
    page.once('open', resolve);
    page.once('error', reject);
  });
  const surfaces: WsProbe[] = [];
  const http = new HttpClient(subject.gsiPort);
  try {
    for (let i = 0; i < SURFACES; i++) surfaces.push(await WsProbe.connect(subject.surfacesUrl));
    const frameAt = showFrames(base, subject.token);
    const run = frameLoad({ http, surfaces, frameAt, rate: RATE, label: which });
    await run(WARMUP_MS);
    const cpuBefore = server.cpuMs();
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const frames = await run(Number(values.seconds) * 1000);
    const cpu = server.cpuMs() - cpuBefore;
    const toUs = Number(process.hrtime.bigint() / 1000n);
    const window = values.profile ? `; window ${fromUs} ${toUs}` : '';
    return `${which}: ${((cpu * 1000) / frames).toFixed(0)} µs CPU per frame over ${frames} frames at ${RATE}/s (the page got ${messages} messages)${window}`;
  } finally {
    for (const surface of surfaces) surface.close();
    page.terminate();
    http.close();
    await server.stop();
    subject.cleanup();
  }
}

for (let round = 1; round <= Number(values.rounds); round++) {
  for (const which of values.servers.split(',')) process.stdout.write(`${round} ${await measure(which)}\n`);
}
