/**
 * The observer wired to a real TCP console (src/observer/netcon-socket.ts): a stand-in for the game's
 * network console on 127.0.0.1 records every line, and the running machine is fed real frames at the
 * game's pace (the cfg's 0.05 s throttle). The director's time comes from the frames (the capture's
 * own timestamps), so its cuts are the same on every run; only the socket runs on the real clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Actor, createActor } from 'xstate';
import {
  type ObserverInput,
  type ObserverSettings,
  observerStatusOf,
} from '../../machines/observer.machine.ts';
import type { DirectorFrame } from '../../machines/observer-director.ts';
import { toDirectorFrame } from '../../src/observer/director-frame.ts';
import { accountIdOf } from '../../src/observer/netcon-lines.ts';
import { createObserverLive } from '../../src/observer/netcon-socket.ts';
import { ConsoleStandIn } from '../helpers/console-stand-in.ts';
import { BOTS_DUST2, type Frame, fixture, ROUND_SEQUENCE } from '../helpers/gsi.ts';

const GAME_PACE_MS = 50;
const hudSlot = (slot: number) => (slot >= 0 && slot <= 9 ? slot : null);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LINE = /^spec_lock_to_accountid (0|[1-9][0-9]*)$/;

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
  return performance.now() - start;
}

type LiveObserver = Actor<ReturnType<typeof createObserverLive>>;
let running: { actor: LiveObserver; standIn: ConsoleStandIn } | undefined;
afterEach(async () => {
  running?.actor.stop();
  await running?.standIn.close();
  running = undefined;
});

async function startObserver(
  settings: ObserverSettings,
  options: { subscription?: boolean; host?: string } = {},
) {
  const standIn = new ConsoleStandIn();
  const port = await standIn.listen();
  const input: ObserverInput = { settings, netcon: { host: options.host ?? '127.0.0.1', port } };
  const actor = createActor(createObserverLive({ dialect: 'cs2' }), { input });
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
    actor.send({ type: 'observer.frame', frame });
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
    const expected = `spec_lock_to_accountid ${accountIdOf(BIG_DADDY)}`;
    const sentAt = performance.now();
    actor.send({ type: 'observer.frame', frame: planting });
    await until(() => standIn.lines.at(-1) === expected, 1_000, expected);
    const latency = performance.now() - sentAt;
    console.log(`frame → console line: ${latency.toFixed(1)} ms`);
    expect(latency).toBeLessThan(1_000);
    expect(status().suggestion).toMatchObject({ name: 'Big Daddy', reason: 'planting' });

    await replay(actor, frames.slice(3));
    // One line per cut, each a whitelisted command for a player who was alive at that moment.
    expect(standIn.lines).toEqual(
      status().cuts.map((cut) => `spec_lock_to_accountid ${accountIdOf(cut.steamid)}`),
    );
    expect(standIn.lines.every((line) => LINE.test(line))).toBe(true);
    expect(standIn.connections).toBe(1);
  });

  it('suggest mode suggests but never touches the game', async () => {
    const { actor, standIn, status } = await startObserver({ ...AUTO, mode: 'suggest' });
    await replay(actor, await roundFrames());
    await sleep(200);
    expect(status().suggestion).not.toBeNull();
    expect(status().cuts.length).toBeGreaterThan(1);
    expect(standIn.connections).toBe(0);
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
    const planter = `spec_lock_to_accountid ${accountIdOf(BIG_DADDY)}`;
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
    await until(() => standIn.lines.length > 0, 1_000, 'the resent cut');
    expect(standIn.lines).toEqual([planter]);
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

    actor.send({ type: 'observer.frame', frame: toDirectorFrame(hostile, { now: 0, hudSlot }) });
    await until(() => standIn.lines.length === 1, 1_000, 'the cut to the planter');
    expect(standIn.lines).toEqual([`spec_lock_to_accountid ${accountIdOf('76561197960265732')}`]);

    // DERIVED: the fake-SteamID player starts defusing: the director suggests him, the link sends nothing.
    const defuse = structuredClone(hostile);
    defuse.bomb = { state: 'defusing', player: fake };
    actor.send({ type: 'observer.frame', frame: toDirectorFrame(defuse, { now: 5_000, hudSlot }) });
    await sleep(300);
    expect(status().suggestion?.steamid).toBe(fake);
    expect(standIn.lines).toHaveLength(1);

    // Leaving auto hands the camera back: the lock is released.
    actor.send({ type: 'observer.configure', changes: { mode: 'suggest' } });
    await until(() => standIn.open === 0, 1_000, 'the link to close');
    expect(standIn.lines.at(-1)).toBe('spec_lock_to_accountid 0');
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
