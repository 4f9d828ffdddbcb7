/**
 * Average damage per round, which the game does not send: the damage each player did in each round
 * the service saw (`round_totaldmg` of the round's last frame), over the rounds it saw live. A
 * server that starts mid-map counts from there; a new map or a restart (fewer rounds) starts over.
 */
export class AdrTracker {
  #map: string | null = null;
  #lastRound = -1;
  #rounds = new Set<number>();
  #damage = new Map<string, { done: number; current: number }>();

  /** Takes one frame's numbers; call before `adrOf`. */
  observe(map: string, round: number, live: boolean, damage: ReadonlyArray<[steamid: string, dmg: number]>) {
    if (map !== this.#map || round < this.#lastRound) {
      this.#map = map;
      this.#rounds.clear();
      this.#damage.clear();
    }
    this.#lastRound = round;
    if (live) this.#rounds.add(round);
    for (const [steamid, dmg] of damage) {
      const entry = this.#damage.get(steamid);
      if (!entry) this.#damage.set(steamid, { done: 0, current: dmg });
      // The game resets round_totaldmg when a round starts: what was there belongs to the last one.
      else if (dmg < entry.current) {
        entry.done += entry.current;
        entry.current = dmg;
      } else entry.current = dmg;
    }
  }

  adrOf(steamid: string): number | null {
    const entry = this.#damage.get(steamid);
    if (!entry || this.#rounds.size === 0) return null;
    return Math.round(((entry.done + entry.current) / this.#rounds.size) * 10) / 10;
  }
}
