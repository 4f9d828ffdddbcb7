/**
 * Average damage per round, which the game does not send: the damage each player did in the rounds
 * of the map the service saw to their end, over the number of those rounds; not known (null) before
 * the first of them ends. `round_totaldmg` is the damage of the
 * round in play so far (the game sets it to 0 when the next round starts), so the last frame of a
 * round holds that round's whole damage, and a server that comes in mid-round still gets all of it.
 *
 * The rounds that are over are the figures (`MapFigures`), saved with the roster: a round joins them
 * with the first frame that says it is over, so they change once a round and a frame costs no write,
 * and a restart mid-map continues from them. The round in play is only here: the game sends its
 * damage again after a restart. Damage done after a round is over (before the next one starts) is
 * not counted: the round's figures are closed by then.
 */
import type { MapFigures } from '../../machines/host.machine.ts';

/** What the figures take from one frame. */
export interface RoundFrame {
  map: string;
  /** `map.round`: the rounds of the map that are over, as the game counts them. */
  round: number;
  /** `round.phase`: freezetime, live, over; null without the round section. */
  roundPhase: string | null;
  /** `map.phase`: warmup, live, intermission, gameover. */
  mapPhase: string;
  damage: ReadonlyArray<readonly [steamid: string, damage: number]>;
}

interface OpenRound {
  map: string;
  /** The round's number from 0: `map.round` while it is played, `map.round` - 1 once it is over. */
  index: number;
  /** Seen while played or once over, outside warm-up: its damage counts. */
  counted: boolean;
  damage: Map<string, number>;
}

/**
 * The game moves `map.round` on when a round ends (the frame with `round.phase` "over" already has
 * the new count, test/fixtures' round sequence), while `round_totaldmg` still holds the ended round's.
 */
const indexOf = (frame: RoundFrame) =>
  frame.roundPhase === 'over' ? Math.max(0, frame.round - 1) : frame.round;

/** A player's damage in the figures; their own keys only (a player keyed "toString" is no method). */
const savedDamage = (figures: MapFigures | null, steamid: string): number | undefined =>
  figures && Object.hasOwn(figures.damage, steamid) ? figures.damage[steamid] : undefined;

const counts = (frame: RoundFrame) =>
  (frame.roundPhase === 'live' || frame.roundPhase === 'over') && frame.mapPhase !== 'warmup';

export class AdrTracker {
  #figures: MapFigures | null;
  #open: OpenRound | null = null;
  /** The map and round count of the last frame: a count that goes back is the map started again. */
  #last: { map: string; round: number } | null;

  /** `saved`: the figures the service starts from (the saved state's), or null. */
  constructor(saved: MapFigures | null) {
    this.#figures = saved;
    this.#last = saved && { map: saved.map, round: saved.round };
  }

  /** The rounds that are over: a new object only when a round was added or the map changed. */
  get figures(): MapFigures | null {
    return this.#figures;
  }

  /** Takes one frame's numbers; call before `adrOf`. */
  observe(frame: RoundFrame): void {
    const last = this.#last;
    if (last && (last.map !== frame.map || frame.round < last.round)) {
      // Another map, or the same one started again (mp_restartgame): start over.
      this.#figures = null;
      this.#open = null;
    }
    this.#last = { map: frame.map, round: frame.round };
    const index = indexOf(frame);
    // A round already in the figures (a restart during its "over" frames), or a late frame of an
    // earlier round: its damage is counted already.
    if (this.#figures && index < this.#figures.round) return;
    if (this.#open && index < this.#open.index) return;
    if (!this.#open || index > this.#open.index) {
      this.#close();
      this.#open = { map: frame.map, index, counted: false, damage: new Map() };
    }
    const open = this.#open;
    if (counts(frame)) open.counted = true;
    for (const [steamid, damage] of frame.damage) open.damage.set(steamid, damage);
    // The round ended: its damage is final, and it joins the figures now, not at the next round's
    // start (a restart in between would otherwise lose it: the game does not send it again).
    if (frame.roundPhase === 'over') this.#close();
  }

  /**
   * ADR over the rounds seen to their end, one decimal; null (not yet known) before the first round
   * seen is over, and for a player not in the rounds seen. The round in play is not in it: early in a
   * round its damage is near 0, and a service started late would show a player with 18 kills an ADR
   * of 5 over the one round it had half seen (issue 35).
   */
  adrOf(steamid: string): number | null {
    const figures = this.#figures;
    const saved = savedDamage(figures, steamid);
    if (!figures || figures.rounds === 0 || saved === undefined) return null;
    return Math.round((saved / figures.rounds) * 10) / 10;
  }

  /** How many rounds ADR is over: the rounds of the map seen to their end. */
  get rounds(): number {
    return this.#figures?.rounds ?? 0;
  }

  /** The round in play is over: its damage joins the figures (a round that did not count is dropped). */
  #close(): void {
    const open = this.#open;
    this.#open = null;
    if (!open?.counted) return;
    // Through a Map: a key such as "__proto__" in a saved file stays a key.
    const damage = new Map(Object.entries(this.#figures?.damage ?? {}));
    for (const [steamid, dealt] of open.damage) damage.set(steamid, (damage.get(steamid) ?? 0) + dealt);
    this.#figures = {
      map: open.map,
      round: open.index + 1,
      rounds: (this.#figures?.rounds ?? 0) + 1,
      damage: Object.fromEntries(damage),
    };
  }
}
