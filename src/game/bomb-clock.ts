/**
 * The bomb's two clocks. While a defuse runs the game sends only the defuse's countdown (the bomb's
 * `countdown` and the phase clock both turn into it), so the time the bomb has left is carried on
 * from the last frame that told it: that figure minus the time between the two frames on the game's
 * own clock (`provider.timestamp`, whole seconds; the server's clock when a frame has none). The
 * bomb's time during a defuse is therefore up to a second off, and right again at the next frame
 * that is not a defuse (docs/game-data.md, "The bomb").
 */
import type { GameFrame } from './game-frame.ts';

/** A defuse takes 10 s, 5 s with a kit. */
export const DEFUSE_SECONDS = 10;
export const KIT_DEFUSE_SECONDS = 5;

export interface BombClocks {
  /** Seconds until the bomb explodes: while planted or defused (kept through a defuse, frozen once defused), 0 once exploded. */
  explodesIn: number | null;
  /** Seconds left of the defuse while one runs. */
  defuseIn: number | null;
  /** How long the running defuse takes: 5 with a kit, 10 without. */
  defuseSeconds: number | null;
}

const NONE: BombClocks = { explodesIn: null, defuseIn: null, defuseSeconds: null };

const tenths = (seconds: number) => Math.max(0, Math.round(seconds * 10) / 10);

export class BombClock {
  /** The bomb's time left as a frame last told it, and when (seconds on the frames' clock). */
  #told: { left: number; at: number } | null = null;
  #last: BombClocks = NONE;

  /**
   * One frame's bomb: `at` is the frame's time in seconds (the game's clock), `phaseClock` the phase
   * countdown when the phase is `bomb` (the planted bomb's time, as the game says it).
   */
  observe(frame: Pick<GameFrame, 'bomb' | 'players'>, at: number, phaseClock: number | null): BombClocks {
    const bomb = frame.bomb;
    switch (bomb?.state) {
      case 'planted': {
        const left = bomb.countdown ?? phaseClock;
        if (left !== null) this.#told = { left, at };
        this.#last = { ...NONE, explodesIn: this.#leftAt(at) };
        return this.#last;
      }
      case 'defusing': {
        const defuser = frame.players.find((player) => player.steamid === bomb.playerSteamid);
        // The defuser's kit says the length; without the defuser, a countdown above 5 s says 10.
        const kit = defuser ? defuser.defuseKit : (bomb.countdown ?? 0) <= KIT_DEFUSE_SECONDS;
        this.#last = {
          explodesIn: this.#leftAt(at),
          defuseIn: bomb.countdown,
          defuseSeconds: kit ? KIT_DEFUSE_SECONDS : DEFUSE_SECONDS,
        };
        return this.#last;
      }
      case 'defused':
        // Frozen at the bomb's time when the defuse ended: the last frame of the defuse told it.
        this.#last = { ...NONE, explodesIn: this.#last.explodesIn };
        return this.#last;
      case 'exploded':
        this.#told = null;
        this.#last = { ...NONE, explodesIn: 0 };
        return this.#last;
      default:
        this.#told = null;
        this.#last = NONE;
        return NONE;
    }
  }

  #leftAt(at: number): number | null {
    const told = this.#told;
    if (!told) return null;
    return tenths(told.left - Math.max(0, at - told.at));
  }
}
