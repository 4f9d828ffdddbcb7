/**
 * What one page is sent of the timeline. Every event is recorded (machine-watch.ts), but a game frame
 * fifty times a second reaches the game actor and the observer, and previewing, serialising and
 * writing each of those entries cost the server more than handling the frame. So, for an actor the
 * page does not show, entries driven by a game frame go out at most `perSecond` a second: a change of
 * state at once, otherwise the latest one, at the latest 1/perSecond after the previous one sent. Each
 * entry sent counts the entries of its actor that were not (`unsent`), so the page says "23 more"
 * rather than hiding them; the page that shows that actor gets them all.
 */
import type { ActorKey } from '../../core/hud-system.ts';
import type { Recorded } from './machine-watch.ts';

export type SendRecord = (record: Recorded, unsent: number) => void;

interface Thinned {
  /** When the last entry of this actor was sent, in ms since the epoch. */
  sentAt: number;
  /** The latest entry not sent yet: sent when its turn comes unless a newer one replaces it. */
  held: Recorded | null;
  /** Entries recorded since the last one sent and not sent (the held one not counted). */
  unsent: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export class StreamThinner {
  readonly #focus: ActorKey | null;
  readonly #interval: number;
  readonly #send: SendRecord;
  readonly #actors = new Map<ActorKey, Thinned>();
  /** Off while the kept timeline is replayed for `hello`: the held entries are drained there. */
  #timers = false;

  constructor(focus: ActorKey | null, perSecond: number, send: SendRecord) {
    this.#focus = focus;
    this.#interval = 1000 / perSecond;
    this.#send = send;
  }

  /** From now on a held entry is sent by a timer when its turn comes (live), not by `drain`. */
  live(): void {
    this.#timers = true;
  }

  offer(record: Recorded): void {
    const thinned = this.#actors.get(record.actor);
    if (!record.byFrame || record.actor === this.#focus) {
      // In order: what was held for this actor goes out first.
      if (thinned?.held) this.#release(thinned, record.at);
      this.#send(record, 0);
      return;
    }
    const state = thinned ?? { sentAt: -Infinity, held: null, unsent: 0, timer: null };
    this.#actors.set(record.actor, state);
    if (record.moved || record.at - state.sentAt >= this.#interval) {
      if (state.held) state.unsent++;
      state.held = record;
      this.#release(state, record.at);
      return;
    }
    if (state.held) state.unsent++;
    state.held = record;
    if (this.#timers && state.timer === null) {
      state.timer = setTimeout(
        () => {
          state.timer = null;
          if (state.held) this.#release(state, Date.now());
        },
        Math.max(0, state.sentAt + this.#interval - Date.now()),
      );
    }
  }

  /** Sends every entry still held (the end of the kept timeline, before going live). */
  drain(): void {
    for (const state of this.#actors.values()) if (state.held) this.#release(state, state.held.at);
  }

  close(): void {
    for (const state of this.#actors.values()) if (state.timer !== null) clearTimeout(state.timer);
    this.#actors.clear();
  }

  /** Sends the held entry; `now` starts the actor's next turn (a held entry goes out later than its `at`). */
  #release(state: Thinned, now: number): void {
    const record = state.held as Recorded;
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = null;
    state.held = null;
    state.sentAt = now;
    this.#send(record, state.unsent);
    state.unsent = 0;
  }
}
