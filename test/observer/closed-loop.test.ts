/**
 * The closed loop over a real TCP console (issue 32's proof): a stand-in game on 127.0.0.1 obeys only
 * one cut strategy, and the frames fed to the observer show whom that game was told to show (their
 * `player` block, derived from the real bots capture). On the actor's simulated clock, 50 ms a frame,
 * each step waits for the lines the socket wrote to arrive at the stand-in: no sleeps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Actor, createActor, SimulatedClock, waitFor } from 'xstate';
import type { GameDialect } from '../../machines/game-rules.ts';
import { type ObserverInput, observerStatusOf } from '../../machines/observer.machine.ts';
import { toDirectorFrame } from '../../src/observer/director-frame.ts';
import { isAllowedLine } from '../../src/observer/netcon-lines.ts';
import { createObserverLive } from '../../src/observer/netcon-socket.ts';
import { ConsoleStandIn, type Obeys } from '../helpers/console-stand-in.ts';
import { BOTS_DUST2, type Frame, fixture } from '../helpers/gsi.ts';

const FRAME_MS = 50;
const STEAMID64_BASE = 76_561_197_960_265_728n;
const hudSlot = (slot: number) => (slot >= 0 && slot <= 9 ? slot : null);
const raw: Frame = await fixture(BOTS_DUST2);
const KYLE = '76561197960265729';
const CRUSHER = '76561197960265735';
/** DERIVED from the capture: Kyle kills Wolf at 3 s, past the director's hold, so it picks Kyle. */
const KILL_AT = 3_000;

type LiveObserver = Actor<ReturnType<typeof createObserverLive>>;
let running: { actor: LiveObserver; standIn: ConsoleStandIn } | undefined;
afterEach(async () => {
  running?.actor.stop();
  await running?.standIn.close();
  running = undefined;
});

/** The capture's frame at `now`, its `player` block the one the stand-in game shows (Crusher, as captured, before any cut). */
function frameShowing(standIn: ConsoleStandIn, now: number, rename: Record<string, string> = {}) {
  const frame = structuredClone(raw);
  for (const [steamid, name] of Object.entries(rename)) frame.allplayers[steamid].name = name;
  if (now >= KILL_AT) {
    frame.allplayers[KYLE].state.round_kills = 1;
    frame.allplayers['2'].state.health = 0;
  }
  const shown = standIn.shown;
  const steamid =
    shown === null
      ? CRUSHER
      : 'name' in shown
        ? Object.keys(frame.allplayers).find((id) => frame.allplayers[id].name === shown.name)
        : String(STEAMID64_BASE + BigInt(shown.accountId));
  frame.player = { ...frame.allplayers[steamid as string], steamid };
  return toDirectorFrame(frame, { now, hudSlot });
}

async function liveGame(obeys: Obeys, dialect: GameDialect, rename: Record<string, string> = {}) {
  const standIn = new ConsoleStandIn({ obeys });
  const port = await standIn.listen();
  const written: string[] = [];
  const clock = new SimulatedClock();
  const input: ObserverInput = {
    settings: { enabled: true, mode: 'auto', cinematicEnabled: false },
    netcon: { host: '127.0.0.1', port },
  };
  const actor = createActor(createObserverLive({ onLine: (line) => written.push(line) }), { input, clock });
  running = { actor, standIn };
  actor.start();
  actor.send({ type: 'observer.subscription', active: true });
  await waitFor(actor, (snapshot) => snapshot.matches({ link: { session: 'connected' } }));
  const status = () => observerStatusOf(actor.getSnapshot());

  /** One frame of the game at `now`, then the simulated clock moves on; returns once the lines arrived. */
  async function step(now: number) {
    actor.send({ type: 'observer.frame', dialect, frame: frameShowing(standIn, now, rename) });
    await standIn.linesReceived(written.length);
    clock.increment(FRAME_MS);
    await standIn.linesReceived(written.length);
  }
  return { actor, standIn, written, status, step };
}

describe('the closed loop on a stand-in game that obeys one strategy', () => {
  it.each([
    ['name', 'cs2', 'name'],
    ['name_lock', 'cs2', 'name_lock'],
    ['csgo', 'csgo', 'csgo'],
  ] as const)(
    'a game obeying %s (%s frames): auto ends on the pick within 2 s and reports the strategy',
    async (obeys, dialect, strategy) => {
      const game = await liveGame(obeys, dialect);
      let followedAt: number | null = null;
      for (let now = 0; now <= 8_000 && followedAt === null; now += FRAME_MS) {
        await game.step(now);
        const status = game.status();
        const shows = frameShowing(game.standIn, now).observedSlot;
        if (
          status.suggestion?.steamid === KYLE &&
          status.cameraFollows === 'following' &&
          shows === status.suggestion.slot
        )
          followedAt = now;
      }
      const status = game.status();
      expect(followedAt).not.toBeNull();
      // From the frame that made Kyle the pick to the first frame showing him.
      expect((followedAt as number) - KILL_AT).toBeLessThanOrEqual(2_000);
      expect(status.camera).toMatchObject({ strategy, source: 'proven', exhausted: false });
      expect(status.cuts.at(-1)).toMatchObject({ strategy, outcome: 'followed', sent: true });
      expect(status.camera.text).toMatch(/^The camera follows: /);
      expect(game.written.every(isAllowedLine)).toBe(true);
      expect(game.standIn.lines).toEqual(game.written);
      console.log(
        `${obeys}: the game showed the pick ${(followedAt as number) - KILL_AT} ms after it was made, ${game.written.length} lines`,
      );
    },
  );

  it('a game obeying nothing: the camera does not follow, auto says so and stops after one try per strategy', async () => {
    const game = await liveGame('none', 'cs2');
    let exhaustedAt: number | null = null;
    for (let now = 0; now <= 8_000; now += FRAME_MS) {
      await game.step(now);
      if (exhaustedAt === null && game.status().camera.exhausted) exhaustedAt = now;
    }
    const status = game.status();
    expect(exhaustedAt).not.toBeNull();
    // Crusher, already shown (proves nothing); then Kyle by name (2 lines), name then lock (4), lock (1),
    // and nothing in the seconds after.
    expect(game.written).toEqual([
      'spec_autodirector 0',
      'spec_player "Crusher"',
      'spec_autodirector 0',
      'spec_player "Kyle"',
      'spec_autodirector 0',
      'spec_player "Kyle"',
      'spec_lock_to_accountid 1',
      'spec_mode 2',
      'spec_lock_to_accountid 1',
    ]);
    expect((exhaustedAt as number) - KILL_AT).toBeLessThanOrEqual(3 * 1_500 + FRAME_MS);
    expect(status).toMatchObject({ state: 'auto', cameraFollows: 'ignored', suggestion: { name: 'Kyle' } });
    expect(status.camera.exhausted).toBe(true);
    expect(status.camera.text).toMatch(/^The game did not follow any cut .* auto only suggests now/);
    expect(status.cuts.filter((cut) => cut.sent).map((cut) => [cut.name, cut.strategy, cut.outcome])).toEqual(
      [
        ['Crusher', 'name', 'already_shown'],
        ['Kyle', 'name', 'not_followed'],
        ['Kyle', 'name_lock', 'not_followed'],
        ['Kyle', 'lock', 'not_followed'],
      ],
    );

    // Probe again: one more round of tries, no more.
    game.actor.send({ type: 'observer.probeAgain' });
    for (let now = 8_050; now <= 14_000; now += FRAME_MS) await game.step(now);
    expect(game.written).toHaveLength(9 + 7);
    expect(game.status().camera.exhausted).toBe(true);
  });

  it('names with quotes, semicolons and newlines reach the console only as documented lines', async () => {
    // DERIVED: Kyle, the pick after 3 s, and Crusher, the first, renamed as a hostile player could.
    const rename = { [KYLE]: 'x"; quit; echo "', [CRUSHER]: 'evil\nexec autoexec' };
    const game = await liveGame('name', 'cs2', rename);
    for (let now = 0; now <= 6_000; now += FRAME_MS) await game.step(now);
    // Neither name can be quoted safely: both are cut to by their account, the name never sent.
    expect(game.written).toEqual(['spec_lock_to_accountid 7', 'spec_lock_to_accountid 1']);
    expect(game.standIn.raw).toBe('spec_lock_to_accountid 7\nspec_lock_to_accountid 1\n');
    // The lock was not followed by this game; the name strategies were skipped, not blamed.
    expect(
      game
        .status()
        .cuts.filter((cut) => cut.sent)
        .map((cut) => [cut.strategy, cut.outcome]),
    ).toEqual([
      ['lock', 'already_shown'],
      ['lock', 'not_followed'],
    ]);
    expect(game.status().camera).toMatchObject({ strategy: 'name', source: 'probing', exhausted: false });
  });
});
