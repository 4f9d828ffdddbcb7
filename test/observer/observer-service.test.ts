/**
 * The observer wired into the service, over the real servers: set_smart_observer, the console
 * address command, the subscription switch, GET /api/observer, the `observer` event, a restart; and
 * end to end: game frames POSTed to /gsi with the cfg's token → the camera cut on a stand-in for
 * the game's console (127.0.0.1), within a second.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { accountIdOf, isAllowedLine } from '../../src/observer/netcon-lines.ts';
import { NETCON_READ_BUDGET } from '../../src/observer/netcon-output.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { type ConsoleBehaviour, ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { type Frame, fixture, postFrame, ROUND_SEQUENCE, toCs2, withToken } from '../helpers/gsi.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const BIG_DADDY = '76561198310998584';
/** The first strategy CS2 is probed with: by name (docs/observer.md, "Cut strategies"). */
const PLANTER_LINE = 'spec_player "Big Daddy"';

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(2);
  }
  return performance.now() - start;
}

/** The largest send or receive buffer the kernel gives a TCP socket (the third of `min default max`). */
const tcpBufferMax = (name: 'tcp_wmem' | 'tcp_rmem') =>
  Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);

const observerOf = async (server: RunningServer) => (await get(server, '/api/observer')).body.observer;
const post = (server: RunningServer, frame: Frame) =>
  postFrame(server.applicationPort, withToken(frame, server.service.game.token));

const consoles: ConsoleStandIn[] = [];
afterEach(async () => {
  for (const console of consoles.splice(0)) await console.close();
});
async function standIn(behaviour: Partial<ConsoleBehaviour> = {}) {
  const console = new ConsoleStandIn(behaviour);
  await console.listen();
  consoles.push(console);
  return console;
}

/** A subscribed service in auto mode, linked to a stand-in console. */
async function autoObserver(options: { dataDir?: string; console?: Partial<ConsoleBehaviour> } = {}) {
  const { console: behaviour, ...buildOptions } = options;
  const game = await standIn(behaviour);
  const server = await build({ subscriptionActive: true, ...buildOptions });
  const address = { host: '127.0.0.1', port: game.port };
  expect((await command(server, 'set_observer_console', address)).status).toBe(200);
  expect((await command(server, 'set_smart_observer', { enabled: true, mode: 'auto' })).status).toBe(200);
  await until(async () => (await observerOf(server)).link.connection === 'connected', 3_000, 'the link');
  return { server, game };
}

/** The round capture's third frame (Big Daddy plants) as CS2 sends it. */
async function plantFrames(): Promise<Frame[]> {
  const frames: Frame[] = await fixture(ROUND_SEQUENCE);
  return frames.map((frame) => toCs2(frame));
}

describe('the observer in the service', () => {
  it('GET /api/observer answers the documented shape; the hello snapshot and an event carry the same', async () => {
    const server = await build();
    expect(await observerOf(server)).toMatchObject({
      enabled: false,
      mode: 'suggest',
      cinematicEnabled: false,
      subscriptionActive: false,
      state: 'disabled',
      link: { connection: 'off', address: '127.0.0.1:2121', reason: 'not_auto' },
      suggestion: null,
      lastCut: null,
      cuts: [],
    });

    const ws = new WebSocket(server.wsUrl);
    const messages: any[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await until(() => messages.some((m) => m.type === 'hello'), 2_000, 'hello');
    const hello = messages.find((m) => m.type === 'hello');
    expect(hello.snapshot.observer).toEqual(await observerOf(server));
    await command(server, 'set_observer_console', { host: '192.168.1.20', port: 2200 });
    await until(() => messages.some((m) => m.event === 'observer'), 2_000, 'the observer event');
    const event = messages.find((m) => m.event === 'observer');
    expect(event.data.link).toMatchObject({ address: '192.168.1.20:2200', host: '192.168.1.20', port: 2200 });
    ws.close();
  });

  it('set_smart_observer configures the observer; without a subscription it answers 503 naming where to switch it', async () => {
    const server = await build();
    const refused = await command(server, 'set_smart_observer', { enabled: true });
    expect(refused.status).toBe(503);
    expect(refused.body.message).toContain('Integrations > Observer');
    const ok = await command(server, 'set_smart_observer', { mode: 'auto', cinematicEnabled: true });
    expect(ok.body.result).toEqual({ enabled: false, mode: 'auto', cinematicEnabled: true });
    // One owner: the production event's smartObserver is the observer's settings.
    const hello = server.service.hub.snapshots();
    expect(hello.observer.context.settings).toEqual(ok.body.result);

    // The operator app's switch (POST /internal/subscription for the shell; /api/panel/subscription).
    const switched = await fetch(`${server.httpUrl}/internal/subscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ active: true }),
    });
    expect(await switched.json()).toEqual({ ok: true, subscriptionActive: true });
    expect((await command(server, 'set_smart_observer', { enabled: true })).body.result.enabled).toBe(true);
    expect(await observerOf(server)).toMatchObject({
      enabled: true,
      mode: 'auto',
      subscriptionActive: true,
      state: 'auto',
      link: { connection: expect.stringMatching(/connecting|disconnected|connected/) },
    });
    // The subscription ending stops it (enabled stays: it waits for one).
    await fetch(`${server.httpUrl}/internal/subscription`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ active: false }),
    });
    expect(await observerOf(server)).toMatchObject({
      enabled: true,
      state: 'disabled',
      blockedBy: 'no_subscription',
      link: { connection: 'off' },
    });
  });

  it('set_observer_console takes loopback and local-network addresses; others are invalid_payload', async () => {
    const server = await build();
    for (const [host, port] of [
      ['8.8.8.8', 2121],
      ['100.64.0.1', 2121],
      ['game-pc.local', 2121],
      ['127.1', 2121],
    ] as const) {
      const refused = await command(server, 'set_observer_console', { host, port });
      expect(refused.status, host).toBe(400);
      expect(refused.body.error).toBe('invalid_payload');
    }
    expect((await command(server, 'set_observer_console', { host: '127.0.0.1', port: 0 })).status).toBe(400);
    const ok = await command(server, 'set_observer_console', { host: 'fd00::20', port: 2121 });
    expect(ok.body.result.link).toMatchObject({ address: '[fd00::20]:2121', connection: 'off' });
  });

  it('auto: a plant in a POSTed frame reaches the game console as the documented line within a second', async () => {
    const { server, game } = await autoObserver();
    const frames = await plantFrames();
    for (const frame of frames.slice(0, 2)) {
      expect((await post(server, frame)).status).toBe(200);
      await sleep(50);
    }
    const sent = performance.now();
    await post(server, frames[2] as Frame);
    const ms = await until(() => game.lines.includes(PLANTER_LINE), 1_000, 'the cut to the planter');
    expect(ms).toBeLessThan(1_000);
    expect(performance.now() - sent).toBeLessThan(1_000);
    // Only whitelisted lines ever.
    for (const line of game.lines) expect(isAllowedLine(line)).toBe(true);
    const observer = await observerOf(server);
    expect(observer.suggestion).toMatchObject({ steamid: BIG_DADDY, reason: 'planting', name: 'Big Daddy' });
    expect(observer.lastCut).toMatchObject({ steamid: BIG_DADDY, sent: true });

    // Suggest: nothing more goes to the game (no lock was sent, so there is none to release); the
    // link stays up, so "connected" shows before auto is switched on again.
    await command(server, 'set_smart_observer', { mode: 'suggest' });
    const count = game.lines.length;
    for (const frame of frames.slice(3)) await post(server, frame);
    expect(game.lines.length).toBe(count);
    expect((await observerOf(server)).link.connection).toBe('connected');
  });

  it('a console that floods is read within its budget while every game frame posted meanwhile is answered', async () => {
    const { server, game } = await autoObserver({ console: { floods: true } });
    const frames = await plantFrames();
    const floodedBefore = game.flooded;
    const started = performance.now();
    // Posted one after another, each as soon as the last is answered, while the console floods.
    const statuses: number[] = [];
    for (let pass = 0; pass < 10; pass += 1)
      for (const frame of frames) statuses.push((await post(server, frame)).status);
    await until(() => game.lines.includes(PLANTER_LINE), 2_000, 'the cut to the planter');
    const elapsed = performance.now() - started;
    const taken = game.flooded - floodedBefore;

    expect(statuses).toHaveLength(10 * frames.length);
    expect(statuses.every((status) => status === 200)).toBe(true);
    // What the console got rid of is what the service read, plus what the kernel's socket buffers
    // hold between them (at most their limits): the service reads no more than its budget.
    const intervals = Math.ceil(elapsed / NETCON_READ_BUDGET.intervalMs) + 1;
    const budget = NETCON_READ_BUDGET.bytes * intervals + tcpBufferMax('tcp_wmem') + tcpBufferMax('tcp_rmem');
    console.log(
      `flood: ${(taken / 2 ** 20).toFixed(1)} MiB taken from the console in ${elapsed.toFixed(0)} ms (bound ${(budget / 2 ** 20).toFixed(1)} MiB), ${statuses.length} frames answered`,
    );
    expect(taken).toBeLessThanOrEqual(budget);
  });

  it('CS:GO frames (provider version up to 13881) get the CS:GO console lines', async () => {
    const { server, game } = await autoObserver();
    const frames: Frame[] = await fixture(ROUND_SEQUENCE);
    for (const frame of frames.slice(0, 3)) await post(server, frame);
    const id = accountIdOf(BIG_DADDY);
    await until(() => game.lines.includes(`spec_lock_to_accountid ${id}`), 1_000, 'the csgo cut');
    const at = game.lines.indexOf(`spec_lock_to_accountid ${id}`);
    expect(game.lines[at - 1]).toBe(`spec_player_by_accountid ${id}`);
  });

  it('suggest connects to the console but sends nothing, and GET /api/observer shows the suggestion', async () => {
    const game = await standIn();
    const server = await build({ subscriptionActive: true });
    await command(server, 'set_observer_console', { host: '127.0.0.1', port: game.port });
    await command(server, 'set_smart_observer', { enabled: true, mode: 'suggest' });
    const frames = await plantFrames();
    for (const frame of frames.slice(0, 3)) await post(server, frame);
    await until(async () => (await observerOf(server)).link.connection === 'connected', 3_000, 'the link');
    const observer = await observerOf(server);
    expect(observer).toMatchObject({
      state: 'suggest',
      link: { connection: 'connected' },
      suggestion: { steamid: BIG_DADDY, name: 'Big Daddy', reason: 'planting', slot: 8 },
    });
    expect(typeof observer.suggestion.since).toBe('number');
    expect(game.connections).toBe(1);
    expect(game.lines).toEqual([]);
  });

  it('a frame costs no write: only the settings and the address are saved', async () => {
    const server = await build({ subscriptionActive: true });
    await command(server, 'set_smart_observer', { enabled: true, mode: 'suggest' });
    const frame = (await plantFrames())[2] as Frame;
    const appends = async () => {
      const answer = (await (await fetch(`${server.httpUrl}/internal/storage`)).json()) as any;
      return answer.storage.appends as number;
    };
    await post(server, frame);
    await sleep(100);
    const before = await appends();
    // The same frame again and again: the director moves (its memory, its clock), nothing saved does.
    for (let i = 0; i < 10; i++) await post(server, frame);
    await sleep(100);
    expect(await appends()).toBe(before);
  });

  it('a restart keeps the mode, the cinematic setting and the console address; --netcon is for one run', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir, subscriptionActive: true });
    await command(first, 'set_smart_observer', { enabled: true, mode: 'auto', cinematicEnabled: true });
    await command(first, 'set_observer_console', { host: '192.168.1.20', port: 2200 });
    await first.close();

    const netcon = { host: '127.0.0.1', port: 2999 };
    const second = await build({ dataDir, subscriptionActive: true, netcon });
    expect(await observerOf(second)).toMatchObject({
      enabled: true,
      mode: 'auto',
      cinematicEnabled: true,
      state: 'auto',
      link: { address: '127.0.0.1:2999' },
    });
    await command(second, 'set_smart_observer', { mode: 'suggest' });
    await second.close();

    const third = await build({ dataDir });
    expect(await observerOf(third)).toMatchObject({
      enabled: true,
      mode: 'suggest',
      cinematicEnabled: true,
      subscriptionActive: false,
      state: 'disabled',
      blockedBy: 'no_subscription',
      link: { address: '192.168.1.20:2200', connection: 'off' },
    });
  });
});
