/**
 * The observer wired to a real TCP console (src/observer/netcon-socket.ts): a stand-in for the game's
 * network console on 127.0.0.1 records every line, and the running machine is fed real frames at the
 * game's pace (the cfg's 0.05 s throttle). The director's time comes from the frames (the capture's
 * own timestamps), so its cuts are the same on every run; only the socket runs on the real clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, SimulatedClock } from 'xstate';
import {
  NETCON_BACKOFF_MS,
  type ObserverInput,
  type ObserverSettings,
  observerStatusOf,
} from '../../machines/observer.machine.ts';
import type { DirectorFrame } from '../../machines/observer-director.ts';
import { observerViewOf } from '../../src/core/views.ts';
import { toDirectorFrame } from '../../src/observer/director-frame.ts';
import { accountIdOf, isAllowedLine } from '../../src/observer/netcon-lines.ts';
import { createObserverLive } from '../../src/observer/netcon-socket.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { BOTS_DUST2, type Frame, fixture, ROUND_SEQUENCE } from '../helpers/gsi.ts';
import { openSocketsTo } from '../helpers/open-sockets.ts';

const GAME_PACE_MS = 50;
const hudSlot = (slot: number) => (slot >= 0 && slot <= 9 ? slot : null);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LINE = /^spec_lock_to_accountid (0|[1-9][0-9]*)$/;

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
  return performance.now() - start;
}

type LiveObserver = Actor<ReturnType<typeof createObserverLive>>;
let running: { actor: LiveObserver; standIn: ConsoleStandIn } | undefined;
/** Consoles a test starts beside `running`'s. */
const others: ConsoleStandIn[] = [];
afterEach(async () => {
  running?.actor.stop();
  await running?.standIn.close();
  running = undefined;
  for (const console of others.splice(0)) await console.close();
});

async function startObserver(
  settings: ObserverSettings,
  options: { subscription?: boolean; host?: string } = {},
) {
  const standIn = new ConsoleStandIn();
  const port = await standIn.listen();
  const input: ObserverInput = { settings, netcon: { host: options.host ?? '127.0.0.1', port } };
  const actor = createActor(createObserverLive({}), { input });
  actor.start();
  if (options.subscription !== false) actor.send({ type: 'observer.subscription', active: true });
  running = { actor, standIn };
  const status = () => observerStatusOf(actor.getSnapshot());
  return { actor, standIn, status };
}

/** The round sequence capture with the director's clock from its own timestamps. */
async function roundFrames(): Promise<DirectorFrame[]> {
  const raw: Frame[] = await fixture(ROUND_SEQUENCE);
  const t0 = raw[0]?.provider.timestamp as number;
  return raw.map((frame, index) =>
    toDirectorFrame(frame, { now: (frame.provider.timestamp - t0) * 1000 + index * 100, hudSlot }),
  );
}

async function replay(actor: LiveObserver, frames: DirectorFrame[]) {
  for (const frame of frames) {
    actor.send({ type: 'observer.frame', dialect: 'cs2', frame });
    await sleep(GAME_PACE_MS);
  }
}

const AUTO: ObserverSettings = { enabled: true, mode: 'auto', cinematicEnabled: false };
const BIG_DADDY = '76561198310998584';

describe('the observer on a real TCP console', () => {
  it('auto mode cuts to the planter within a second of the frame that shows the plant', async () => {
    const { actor, standIn, status } = await startObserver(AUTO);
    await until(() => status().link.status === 'connected', 2_000, 'the link');
    const frames = await roundFrames();
    await replay(actor, frames.slice(0, 2));

    const planting = frames[2] as DirectorFrame;
    expect(planting.bomb).toMatchObject({ state: 'planting', steamid: BIG_DADDY });
    // The first strategy tried in CS2: by name (docs/observer.md, "Cut strategies").
    const expected = 'spec_player "Big Daddy"';
    const sentAt = performance.now();
    actor.send({ type: 'observer.frame', dialect: 'cs2', frame: planting });
    await until(() => standIn.lines.at(-1) === expected, 1_000, expected);
    const latency = performance.now() - sentAt;
    console.log(`frame → console line: ${latency.toFixed(1)} ms`);
    expect(latency).toBeLessThan(1_000);
    expect(status().suggestion).toMatchObject({ name: 'Big Daddy', reason: 'planting' });

    expect(standIn.lines.slice(-2)).toEqual(['spec_autodirector 0', expected]);
    await replay(actor, frames.slice(3));
    // Every line a whitelisted command; the cuts sent are recorded with their strategy.
    expect(standIn.lines.every(isAllowedLine)).toBe(true);
    expect(
      status()
        .cuts.filter((cut) => cut.sent)
        .every((cut) => cut.strategy !== null),
    ).toBe(true);
    expect(standIn.connections).toBe(1);
  });

  it('suggest mode connects (so "connected" shows before going live) but sends nothing', async () => {
    const { actor, standIn, status } = await startObserver({ ...AUTO, mode: 'suggest' });
    await until(() => status().link.status === 'connected', 2_000, 'the link');
    await replay(actor, await roundFrames());
    expect(status().suggestion).not.toBeNull();
    expect(status().cuts.length).toBeGreaterThan(1);
    expect(standIn.connections).toBe(1);
    expect(standIn.raw).toBe('');
  });

  it('disabled, or enabled without a subscription, sends nothing', async () => {
    const off = await startObserver({ ...AUTO, enabled: false });
    await replay(off.actor, await roundFrames());
    await sleep(200);
    expect(off.status()).toMatchObject({ state: 'disabled', suggestion: null });
    expect(off.standIn.connections).toBe(0);
    off.actor.stop();
    await off.standIn.close();

    const unpaid = await startObserver(AUTO, { subscription: false });
    await replay(unpaid.actor, await roundFrames());
    await sleep(200);
    expect(unpaid.status()).toMatchObject({ state: 'disabled', blockedBy: 'no_subscription' });
    expect(unpaid.standIn.connections).toBe(0);
  });

  it('sees the game quit, and comes back by itself when it listens again', async () => {
    const { actor, standIn, status } = await startObserver(AUTO);
    await until(() => status().link.status === 'connected', 2_000, 'the link');
    const frames = await roundFrames();
    await replay(actor, frames.slice(0, 3));
    const planter = 'spec_player "Big Daddy"';
    await until(() => standIn.lines.at(-1) === planter, 1_000, 'the cut');

    const port = standIn.port;
    await standIn.close();
    await until(() => status().link.status !== 'connected', 1_000, 'the drop');
    expect(status().link).toMatchObject({ status: 'connecting', reason: 'closed' });
    // A try while the game is away is refused; the link keeps trying on its own.
    await until(() => status().link.reason === 'refused', 3_000, 'a refused try');
    expect(status().link.message).toMatch(/ECONNREFUSED/);

    standIn.lines.length = 0;
    await standIn.listen(port);
    await until(() => status().link.status === 'connected', 6_000, 'the link to come back');
    // The camera target is sent again on the new connection.
    await until(() => standIn.lines.length > 1, 1_000, 'the resent cut');
    expect(standIn.lines.slice(0, 2)).toEqual(['spec_autodirector 0', planter]);
  });

  it('a player whose name holds quotes, semicolons and a newline cannot make the console receive anything else', async () => {
    const { actor, standIn, status } = await startObserver(AUTO);
    await until(() => status().link.status === 'connected', 2_000, 'the link');
    const raw: Frame = await fixture(BOTS_DUST2);
    // DERIVED: hostile names on every bot, and one SteamID that is not one (the key of allplayers is
    // text from the game too). The planter is Quintin, renamed.
    const hostile = structuredClone(raw);
    const names = [
      'x"; quit; echo "',
      'evil\nexec autoexec',
      "'; disconnect; //",
      'a\r\nrcon_password x',
      '\u0000;quit',
    ];
    Object.values<Frame>(hostile.allplayers).forEach((player, index) => {
      player.name = names[index % names.length];
    });
    const fake = '76561198000000001;quit\n';
    hostile.allplayers[fake] = { ...hostile.allplayers['76561197960265736'], name: 'spec_player "x"; quit' };
    delete hostile.allplayers['76561197960265736'];
    hostile.bomb = { ...hostile.bomb, state: 'planting', player: '76561197960265732' };

    actor.send({
      type: 'observer.frame',
      dialect: 'cs2',
      frame: toDirectorFrame(hostile, { now: 0, hudSlot }),
    });
    await until(() => standIn.lines.length === 1, 1_000, 'the cut to the planter');
    expect(standIn.lines).toEqual([`spec_lock_to_accountid ${accountIdOf('76561197960265732')}`]);

    // DERIVED: the fake-SteamID player starts defusing: the director suggests him, the link sends nothing.
    const defuse = structuredClone(hostile);
    defuse.bomb = { state: 'defusing', player: fake };
    actor.send({
      type: 'observer.frame',
      dialect: 'cs2',
      frame: toDirectorFrame(defuse, { now: 5_000, hudSlot }),
    });
    await sleep(300);
    expect(status().suggestion?.steamid).toBe(fake);
    expect(standIn.lines).toHaveLength(1);

    // Leaving auto hands the camera back: the lock is released (the link stays for suggest).
    actor.send({ type: 'observer.configure', changes: { mode: 'suggest' } });
    await until(() => standIn.lines.at(-1) === 'spec_lock_to_accountid 0', 1_000, 'the release');
    expect(standIn.lines.every((line) => LINE.test(line))).toBe(true);
    // Only letters, digits, underscores, spaces and newlines ever reached the console.
    expect(standIn.raw).toMatch(/^[a-z_0-9 \n]*$/);
    expect(standIn.raw).not.toMatch(/quit|exec|rcon|disconnect/);
  });

  it('refuses a console address outside the local network without connecting', async () => {
    const { status } = await startObserver(AUTO, { host: '8.8.8.8' });
    await until(() => status().link.reason === 'address_refused', 1_000, 'the refusal');
    expect(status().link.message).toMatch(/8\.8\.8\.8 is a public address/);
  });
});

describe('the link holds no more than the console deserves', () => {
  it('150 address changes leave one socket open, even with consoles that never close their side; disabling and stopping leave none', async () => {
    const consoles = [new ConsoleStandIn({ closes: false }), new ConsoleStandIn({ closes: false })];
    for (const console of consoles) {
      await console.listen();
      others.push(console);
    }
    const [first, second] = consoles as [ConsoleStandIn, ConsoleStandIn];
    const input: ObserverInput = { settings: AUTO, netcon: { host: '127.0.0.1', port: first.port } };
    const actor = createActor(createObserverLive({}), { input });
    actor.start();
    actor.send({ type: 'observer.subscription', active: true });
    // The lock strategy, so every new link locks the camera and every change releases it first.
    actor.send({ type: 'observer.pin', strategy: 'lock' });
    actor.send({ type: 'observer.frame', dialect: 'cs2', frame: (await roundFrames())[0] as DirectorFrame });
    const target = observerStatusOf(actor.getSnapshot()).suggestion?.steamid as string;
    const lock = `spec_lock_to_accountid ${accountIdOf(target)}`;
    await until(() => first.lines.at(-1) === lock, 2_000, 'the first lock');

    const held = async () => (await openSocketsTo(first.port)) + (await openSocketsTo(second.port));
    const changes = 150;
    for (let change = 1; change <= changes; change += 1) {
      const next = change % 2 === 1 ? second : first;
      actor.send({ type: 'observer.netcon.configure', host: '127.0.0.1', port: next.port });
      await until(() => next.lines.at(-1) === lock, 2_000, `the lock on link ${change}`);
    }
    // Every link left was released, and the consoles kept their side of each open.
    expect(first.lines.filter((line) => line === 'spec_lock_to_accountid 0')).toHaveLength(changes / 2);
    expect(first.open + second.open).toBe(changes + 1);
    await until(async () => (await held()) === 1, 5_000, 'the sockets of the old links to close');

    actor.send({ type: 'observer.configure', changes: { enabled: false } });
    await until(async () => (await held()) === 0, 5_000, 'the link to close when the observer is off');
    actor.send({ type: 'observer.configure', changes: { enabled: true } });
    await until(async () => (await held()) === 1, 2_000, 'the link when switched on again');
    // Off forgets the suggestion: the next frame gives the camera its target again.
    actor.send({ type: 'observer.frame', dialect: 'cs2', frame: (await roundFrames())[0] as DirectorFrame });
    await until(() => first.lines.at(-1) === lock, 2_000, 'the lock after auto mode again');
    actor.stop();
    await until(async () => (await held()) === 0, 5_000, 'the link to close when the service stops');
  });

  /**
   * The observer in auto mode, subscribed, linked to the console at `port`, on a simulated clock,
   * and what a client sees of it: every change of the observer's view is one revision of the HUD state.
   */
  function watchedAuto(standIn: ConsoleStandIn, port: number) {
    const clock = new SimulatedClock();
    const input: ObserverInput = { settings: AUTO, netcon: { host: '127.0.0.1', port } };
    const actor = createActor(createObserverLive({}), { input, clock });
    running = { actor, standIn };
    const views: string[] = [];
    actor.subscribe((snapshot) => {
      const view = JSON.stringify(observerViewOf(snapshot));
      if (view !== views.at(-1)) views.push(view);
    });
    actor.start();
    actor.send({ type: 'observer.subscription', active: true });
    return { actor, clock, views };
  }

  it('a console that accepts and closes at once is retried ever later: 4 tries in the first 10 s, each seen twice by clients', async () => {
    const standIn = new ConsoleStandIn({ dropsAtOnce: true });
    const { actor, clock, views } = watchedAuto(standIn, await standIn.listen());
    const before = views.length;

    // The actor's clock drives the waits; each try runs on a real socket to the end before time moves.
    for (let elapsed = 0; elapsed < 10_000; elapsed += 100) {
      await until(
        () => actor.getSnapshot().matches({ link: 'backoff' }),
        2_000,
        'the console to drop the link',
      );
      clock.increment(100);
    }
    // Tries at 0, 1, 3 and 8 s (±20 %): the waits grow as for a refused try.
    expect(standIn.connections).toBe(4);
    expect(actor.getSnapshot().context.attempt).toBe(NETCON_BACKOFF_MS.length);
    // Up and down once per try, and nothing more: 8 revisions in 10 s (about 20 when every try waited 1 s).
    expect(views.length - before).toBeLessThanOrEqual(2 * 4);
  });

  it('retries that fail the same way change nothing a client sees', async () => {
    const standIn = new ConsoleStandIn();
    const port = await standIn.listen();
    await standIn.close();
    const { actor, clock, views } = watchedAuto(standIn, port);
    await until(() => actor.getSnapshot().matches({ link: 'backoff' }), 2_000, 'the first refusal');
    const seen = views.length;
    let tries = 1;
    for (let elapsed = 0; elapsed < 30_000; elapsed += 100) {
      clock.increment(100);
      if (actor.getSnapshot().matches({ link: 'session' })) tries += 1;
      await until(() => actor.getSnapshot().matches({ link: 'backoff' }), 2_000, 'the refusal');
    }
    expect(tries).toBeGreaterThanOrEqual(4);
    expect(observerStatusOf(actor.getSnapshot()).link).toMatchObject({ reason: 'refused' });
    expect(views.length).toBe(seen);
  });
});
