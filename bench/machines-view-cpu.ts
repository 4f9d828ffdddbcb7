/**
 * What the Machines view costs the server during a show (docs/machines-view.md): the show's server
 * side as bench/show-server-cpu.ts drives it (frames POSTed at a fixed rate, an overlay WebSocket,
 * ten control surfaces sending 2 commands a second), the server's CPU per frame with the view closed
 * and with one signed-in page reading its stream, in alternate stretches of one server's run. Run bench/show-server-cpu.ts
 * on a build without the view for the "before" figure. The page shows `--focus` (the veto session,
 * where the view opens): every entry of that actor is sent, the game frames of the others thinned;
 * `--focus game` is the page watching the game, sent every frame's entries.
 *
 * Usage: npm run build && tsx bench/machines-view-cpu.ts [--rate 50] [--stretch 5] [--cycles 4] [--rounds 3] [--focus vetoSession]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { HttpClient } from './lib/http-client.ts';
import { chooseRuntime, startServerProcess } from './lib/server-process.ts';
import { WsProbe } from './lib/ws-probe.ts';
import { FRAME, frameLoad, SURFACES, showFrames } from './parts/show.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '50' },
    stretch: { type: 'string', default: '5' },
    cycles: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    focus: { type: 'string', default: 'vetoSession' },
  },
});
const RATE = Number(values.rate);
const WARMUP_MS = 3_000;
const runtime = chooseRuntime();
const base = JSON.parse(readFileSync(FRAME, 'utf8'));

/** Signs in as the operator app would; the session cookie. */
async function signIn(appUrl: string, signInUrl: string): Promise<string> {
  const key = new URL(signInUrl).searchParams.get('key') ?? '';
  const answer = await fetch(`${appUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
  });
  return (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** Reads the view's stream as a page would until aborted; counts its bytes. */
async function watchStream(appUrl: string, cookie: string, abort: AbortSignal): Promise<() => number> {
  const response = await fetch(
    `${appUrl}/api/panel/machines/stream?focus=${encodeURIComponent(values.focus)}`,
    { headers: { cookie }, signal: abort },
  );
  if (response.status !== 200) throw new Error(`the stream answered ${response.status}`);
  let bytes = 0;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        bytes += value.byteLength;
      }
    } catch {
      // Aborted at the end of the stretch.
    }
  })();
  return () => bytes;
}

/**
 * One server, the show run throughout; the view closed and open in alternate stretches, so that the
 * load of the machine (shared with other work) weighs on both alike. CPU per frame of each.
 */
async function measure(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hud-bench-machines-view-'));
  const server = await startServerProcess({ runtime, kind: 'hud', dataDir, nodeOptions: [] });
  const token = readFileSync(join(dataDir, 'gsi-token'), 'utf8').trim();
  const page = new WebSocket(`ws://127.0.0.1:${server.appPort}/ws?role=overlay`, {
    perMessageDeflate: false,
  });
  page.on('error', () => {});
  await new Promise((resolve, reject) => {
    page.once('open', resolve);
    page.once('error', reject);
  });
  const surfaces: WsProbe[] = [];
  const http = new HttpClient(server.appPort);
  let abort = new AbortController();
  try {
    for (let i = 0; i < SURFACES; i++) surfaces.push(await WsProbe.connect(`${server.wsUrl}/`));
    const cookie = await signIn(server.appUrl, server.signInUrl());
    const frameAt = showFrames(base, token);
    const run = frameLoad({ http, surfaces, frameAt, rate: RATE, label: 'the service' });
    await run(WARMUP_MS);
    const total = { closed: { cpu: 0, frames: 0, bytes: 0 }, open: { cpu: 0, frames: 0, bytes: 0 } };
    for (let cycle = 0; cycle < Number(values.cycles); cycle++) {
      for (const view of ['closed', 'open'] as const) {
        abort = new AbortController();
        const streamed = view === 'open' ? await watchStream(server.appUrl, cookie, abort.signal) : () => 0;
        const cpuBefore = server.cpuMs();
        const bytesBefore = streamed();
        total[view].frames += await run(Number(values.stretch) * 1000);
        total[view].cpu += server.cpuMs() - cpuBefore;
        total[view].bytes += streamed() - bytesBefore;
        abort.abort();
      }
    }
    const perFrame = (view: 'closed' | 'open') => (total[view].cpu * 1000) / total[view].frames;
    const seconds = (total.open.frames / RATE).toFixed(0);
    return `view closed ${perFrame('closed').toFixed(0)} µs CPU per frame, open on ${values.focus} ${perFrame('open').toFixed(0)} µs (${((perFrame('open') / perFrame('closed') - 1) * 100).toFixed(1)} %), ${total.open.frames} frames each at ${RATE}/s; the stream sent ${(total.open.bytes / 1024).toFixed(0)} KiB in ${seconds} s`;
  } finally {
    abort.abort();
    for (const surface of surfaces) surface.close();
    page.terminate();
    http.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (let round = 1; round <= Number(values.rounds); round++)
  process.stdout.write(`${round} ${await measure()}\n`);
