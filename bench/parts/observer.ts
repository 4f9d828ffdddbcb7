import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { direct, initialDirectorState } from '../../machines/observer-director.ts';
import { toDirectorFrame } from '../../src/observer/director-frame.ts';
import { accountIdOf } from '../../src/observer/netcon-lines.ts';
import type { PartContext } from '../lib/config.ts';
import { HttpClient } from '../lib/http-client.ts';
import { freePort, ROOT, startServerProcess } from '../lib/server-process.ts';
import { ms, sleep, summarizeNs } from '../lib/stats.ts';
import type { Row } from '../lib/table.ts';

const PART = 'Observer';
/** Under 0.2 ms of CPU per frame: a 20 Hz game then costs the director under 0.5 % of a core. */
const DIRECTOR_TARGET_US = 200;
/** Real frames of one round, ten players, with positions and facing (test/fixtures, with its source). */
const ROUND = join(
  ROOT,
  'test/fixtures/gsi_csgo_spectator_round_sequence__nodecg-csgo-manager__standard-frames.json',
);
type Frame = Record<string, any>;

/** The CS2 form of a captured CS:GO frame (provider version; observer_slot 0..9), as docs/game-data.md says. */
function toCs2(frame: Frame): Frame {
  const copy = structuredClone(frame);
  copy.provider = { ...copy.provider, version: 14093 };
  for (const player of Object.values<Frame>(copy.allplayers ?? {})) {
    if (typeof player.observer_slot === 'number') player.observer_slot = (player.observer_slot + 9) % 10;
  }
  return copy;
}

/** `planter` plants and `other` is dead: a plant outranks any hold, so each such frame is a cut. */
function planting(frame: Frame, planter: string, other: string): Frame {
  const copy = structuredClone(frame);
  copy.bomb = { ...copy.bomb, state: 'planting', player: planter };
  copy.allplayers[planter].state.health = 100;
  copy.allplayers[other].state.health = 0;
  return copy;
}

/** The game's network console: records when each line arrives. */
async function consoleStandIn(port: number) {
  const arrivals: Array<{ line: string; at: bigint }> = [];
  const server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const at = process.hrtime.bigint();
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        arrivals.push({ line: buffer.slice(0, end).trim(), at });
        buffer = buffer.slice(end + 1);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { arrivals, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * The automatic observer (issue 20): the director's CPU per frame with ten players, on the real
 * round replayed with its clock, in this process; and on the real server in auto mode, the time
 * from the start of a frame's POST /gsi until its cut line reaches a stand-in of the game's console.
 */
export async function observer(context: PartContext): Promise<Row[]> {
  const round = (JSON.parse(readFileSync(ROUND, 'utf8')) as Frame[]).map(toCs2);
  const hudSlot = (slot: number) => (slot + 1) % 10;

  const replays = context.config.quick ? 200 : 2_000;
  const frames = Array.from({ length: replays * round.length }, (_, i) =>
    toDirectorFrame(round[i % round.length] as never, { now: i * 50, hudSlot }),
  );
  let state = initialDirectorState();
  const cpuBefore = process.cpuUsage();
  for (const frame of frames) state = direct(state, frame, { cinematic: false });
  const cpu = process.cpuUsage(cpuBefore);
  const directorUs = (cpu.user + cpu.system) / frames.length;
  context.log(`  director: ${directorUs.toFixed(1)} µs CPU per frame over ${frames.length} frames`);

  const consolePort = await freePort();
  const game = await consoleStandIn(consolePort);
  const dataDir = mkdtempSync(join(tmpdir(), 'hud-bench-observer-'));
  const hud = await startServerProcess({
    runtime: context.runtime,
    kind: 'hud',
    dataDir,
    nodeOptions: context.nodeOptions('observer'),
    serveFlags: ['--subscription', '--netcon', `127.0.0.1:${consolePort}`],
  });
  try {
    const api = new HttpClient(hud.port);
    const configured = await api.post('/api/actions/set_smart_observer', { enabled: true, mode: 'auto' });
    if (configured.status !== 200) throw new Error(`set_smart_observer: ${JSON.stringify(configured.body)}`);
    // The cut this part waits for is the lock line: the strategy pinned, so every cut sends it.
    const pinned = await api.post('/api/actions/observer_pin', { strategy: 'lock' });
    if (pinned.status !== 200) throw new Error(`observer_pin: ${JSON.stringify(pinned.body)}`);
    const app = new HttpClient(hud.appPort);
    const token = readFileSync(join(dataDir, 'gsi-token'), 'utf8').trim();
    const base = round[2] as Frame;
    const [first, second] = ['76561198310998584', '76561197966700425'];
    const cuts = context.config.quick ? 50 : 500;
    const latencies: bigint[] = [];
    for (let i = 0; i < cuts; i++) {
      const [planter, other] = i % 2 ? [second, first] : [first, second];
      const line = `spec_lock_to_accountid ${accountIdOf(planter as string)}`;
      const seen = game.arrivals.length;
      const sent = process.hrtime.bigint();
      const answer = await app.post('/gsi', {
        ...planting(base, planter as string, other as string),
        auth: { token },
      });
      if (answer.status !== 200) throw new Error(`POST /gsi answered ${answer.status}`);
      // The link connects on the first frames of auto mode: the first cut waits for it, bounded.
      for (let waited = 0; !game.arrivals.slice(seen).some((a) => a.line === line); waited += 1) {
        if (waited > 5_000) throw new Error(`cut ${i}: no "${line}" on the console within 5 s`);
        await sleep(1);
      }
      const arrived = game.arrivals.slice(seen).find((a) => a.line === line);
      if (i > 0 && arrived) latencies.push(arrived.at - sent);
    }
    const cut = summarizeNs(latencies);
    context.log(
      `  frame -> cut on the console: p50 ${ms(cut.p50)}, p99 ${ms(cut.p99)} (${latencies.length} cuts)`,
    );
    api.close();
    app.close();
    return [
      {
        part: PART,
        figure: 'director CPU per frame, ten players, a real round replayed',
        value: `${directorUs.toFixed(1)} µs`,
        target: `< ${DIRECTOR_TARGET_US} µs`,
        met: directorUs < DIRECTOR_TARGET_US,
      },
      {
        part: PART,
        figure: 'frame (POST /gsi) -> cut line on the game console, auto mode',
        value: `p50 ${ms(cut.p50)}, p99 ${ms(cut.p99)}, max ${ms(cut.max)} (${latencies.length} cuts)`,
      },
    ];
  } finally {
    await hud.stop();
    await game.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
