/**
 * The killfeed, inferred from consecutive frames: game state integration sends no kill events, only
 * each player's counters. Between two frames of the same map and round a death is a player whose
 * `deaths` went up; a killer one whose `kills` went up (down by one for a teamkill); an assister one
 * whose `assists` went up; a headshot a killer's `round_killhs` going up (it may go up a frame before
 * the kill: it is kept until the kill comes). The rules for several deaths between two frames, and
 * what stays unknown (wallbangs), are in docs/game-data.md, "The killfeed".
 */
import type { GameKill, GameKillPlayer, GamePlayer } from '../protocol/game.ts';

/** The feed holds the round's newest entries, at most this many. */
export const KILLFEED_LENGTH = 8;

/** What the feed reads of a player in a frame. */
export interface KillfeedPlayer
  extends Pick<
    GamePlayer,
    | 'steamid'
    | 'name'
    | 'side'
    | 'health'
    | 'kills'
    | 'deaths'
    | 'assists'
    | 'roundDamage'
    | 'position'
    | 'weapons'
  > {
  /** Headshot kills this round (round_killhs). */
  roundHeadshots: number;
}

/** Where a frame is in the match, as a feed reads it: when it starts again, which round an entry is in. */
export interface FeedRound {
  map: string;
  round: number;
  roundPhase: string | null;
}

export interface KillfeedFrame extends FeedRound {
  players: readonly KillfeedPlayer[];
}

/**
 * Whether a feed starts again at `frame` after `before`: a new map, a count gone back (a restart),
 * or freeze time. The round's count moves with the kill that ends it, in the same frame: a round is
 * told by freeze time, not by the count.
 */
export const startsAgain = (before: FeedRound, frame: FeedRound): boolean =>
  before.map !== frame.map || frame.round < before.round || frame.roundPhase === 'freezetime';

const playerOf = (player: KillfeedPlayer): GameKillPlayer => ({
  steamid: player.steamid,
  name: player.name,
  side: player.side,
});

const activeWeapon = (player: KillfeedPlayer | undefined): string | null =>
  player?.weapons.find((weapon) => weapon.active)?.name ?? null;

const distance = (a: KillfeedPlayer | undefined, b: KillfeedPlayer | undefined): number => {
  if (!a?.position || !b?.position) return Number.POSITIVE_INFINITY;
  return Math.hypot(
    a.position[0] - b.position[0],
    a.position[1] - b.position[1],
    a.position[2] - b.position[2],
  );
};

interface Killer {
  player: KillfeedPlayer;
  kills: number;
  /** Damage dealt since the frame before: a killer's damage is close to his victims' health. */
  damage: number;
}

/**
 * Gives each victim one of the killers of the other side (each killer as many victims as his kills
 * went up): of all the ways, the one whose killers' damage since the frame before is closest to the
 * health their victims had then; a tie goes to the killers nearest their victims. Victims left over
 * (a fall, the bomb, a suicide) get no killer.
 */
function pairKillers(victims: KillfeedPlayer[], killers: Killer[], before: Map<string, KillfeedPlayer>) {
  const assigned = new Map<string, Killer | null>();
  let best: { cost: number; spread: number; choice: Array<Killer | null> } | null = null;
  const choice: Array<Killer | null> = [];
  const left = new Map(killers.map((killer) => [killer, killer.kills]));
  const walk = (index: number) => {
    if (index === victims.length) {
      let cost = 0;
      let spread = 0;
      for (const killer of killers) {
        let health = 0;
        choice.forEach((chosen, i) => {
          if (chosen !== killer) return;
          const victim = victims[i] as KillfeedPlayer;
          health += before.get(victim.steamid)?.health ?? 0;
          spread += distance(before.get(killer.player.steamid), before.get(victim.steamid));
        });
        cost += Math.abs(killer.damage - health);
      }
      // Every kill counted is used before a victim goes without a killer.
      const unused = [...left.values()].reduce((sum, n) => sum + n, 0);
      cost += unused * 10_000;
      if (!best || cost < best.cost || (cost === best.cost && spread < best.spread))
        best = { cost, spread, choice: [...choice] };
      return;
    }
    const victim = victims[index] as KillfeedPlayer;
    for (const killer of killers) {
      const remaining = left.get(killer) ?? 0;
      if (remaining === 0 || killer.player.side === victim.side) continue;
      left.set(killer, remaining - 1);
      choice.push(killer);
      walk(index + 1);
      choice.pop();
      left.set(killer, remaining);
    }
    choice.push(null);
    walk(index + 1);
    choice.pop();
  };
  // A side's deaths (five at most, one each) against its enemies' killers: 6^5 ways at the very
  // worst. More (a server with more players) are paired in order, nearest first, not searched.
  if (victims.length > 5 || killers.length > 5) {
    const left2 = new Map(killers.map((killer) => [killer, killer.kills]));
    for (const victim of victims) {
      const near = (killer: Killer) =>
        distance(before.get(killer.player.steamid), before.get(victim.steamid));
      const killer =
        killers.filter((k) => (left2.get(k) ?? 0) > 0).sort((a, b) => near(a) - near(b))[0] ?? null;
      if (killer) left2.set(killer, (left2.get(killer) ?? 0) - 1);
      assigned.set(victim.steamid, killer);
    }
    return assigned;
  }
  walk(0);
  const found = (best as { choice: Array<Killer | null> } | null)?.choice ?? [];
  victims.forEach((victim, i) => {
    assigned.set(victim.steamid, found[i] ?? null);
  });
  return assigned;
}

export class Killfeed {
  #before: KillfeedFrame | null = null;
  #entries: GameKill[] = [];
  readonly #nextId: () => number;
  /** Headshots counted before their kill came (round_killhs can go up a frame early), by steamid. */
  #pendingHeadshots = new Map<string, number>();

  /** `nextId`: the entries' ids, shared with HLAE's feed (hlae-killfeed.ts). */
  constructor(nextId: () => number) {
    this.#nextId = nextId;
  }

  get entries(): GameKill[] {
    return this.#entries;
  }

  /**
   * The database of teams and players changed: the entries made go on under each player's name now
   * (`nameOf`; null keeps the name the entry has). An entry untouched stays the same object.
   */
  rename(nameOf: (steamid: string) => string | null): GameKill[] {
    const renamed = (player: GameKillPlayer | null): GameKillPlayer | null => {
      if (!player) return player;
      const name = nameOf(player.steamid) ?? player.name;
      return name === player.name ? player : { ...player, name };
    };
    let changed = false;
    const entries = this.#entries.map((entry) => {
      const killer = renamed(entry.killer);
      const victim = renamed(entry.victim) as GameKillPlayer;
      const assister = renamed(entry.assister);
      if (killer === entry.killer && victim === entry.victim && assister === entry.assister) return entry;
      changed = true;
      return { ...entry, killer, victim, assister };
    });
    if (changed) this.#entries = entries;
    return this.#entries;
  }

  /** One frame (a spectator's): the feed after it. */
  observe(frame: KillfeedFrame): GameKill[] {
    const before = this.#before;
    this.#before = frame;
    // The first frame, or the feed starts again: nothing to compare.
    if (before === null || startsAgain(before, frame)) {
      this.#pendingHeadshots.clear();
      if (this.#entries.length > 0) this.#entries = [];
      return this.#entries;
    }
    const made = this.#infer(before, frame);
    if (made.length > 0) this.#entries = [...this.#entries, ...made].slice(-KILLFEED_LENGTH);
    return this.#entries;
  }

  #infer(previous: KillfeedFrame, frame: KillfeedFrame): GameKill[] {
    const before = new Map(previous.players.map((player) => [player.steamid, player]));
    const victims: KillfeedPlayer[] = [];
    const killers: Killer[] = [];
    const teamkillers: KillfeedPlayer[] = [];
    const assisters: KillfeedPlayer[] = [];
    for (const player of frame.players) {
      const was = before.get(player.steamid);
      if (!was) continue;
      const headshots = player.roundHeadshots - was.roundHeadshots;
      if (headshots > 0)
        this.#pendingHeadshots.set(
          player.steamid,
          (this.#pendingHeadshots.get(player.steamid) ?? 0) + headshots,
        );
      // One death at most: nobody dies twice in a round (a jump of the counter is a restart or a gap).
      if (player.deaths > was.deaths) victims.push(player);
      const kills = player.kills - was.kills;
      if (kills > 0) killers.push({ player, kills, damage: player.roundDamage - was.roundDamage });
      // A teamkill costs the killer a kill; a suicide does too, but he is among the dead then.
      if (kills < 0 && player.deaths === was.deaths) teamkillers.push(player);
      if (player.assists > was.assists) assisters.push(player);
    }
    if (victims.length === 0) return [];
    // Each side's deaths with the other side's killers: two small searches, not one of all ten.
    const pairs = new Map<string, Killer | null>();
    for (const side of ['CT', 'T'] as const) {
      const mine = victims.filter((victim) => victim.side === side);
      if (mine.length === 0) continue;
      const theirs = killers.filter((killer) => killer.player.side !== side);
      for (const [steamid, killer] of pairKillers(mine, theirs, before)) pairs.set(steamid, killer);
    }
    // A teamkiller's victim: the nearest team-mate who died without an enemy credited.
    const teamkilled = new Map<string, KillfeedPlayer>();
    for (const mate of teamkillers) {
      const near = (player: KillfeedPlayer) => distance(before.get(mate.steamid), before.get(player.steamid));
      const victim = victims
        .filter(
          (player) =>
            player.side === mate.side &&
            player.steamid !== mate.steamid &&
            !pairs.get(player.steamid) &&
            !teamkilled.has(player.steamid),
        )
        .sort((a, b) => near(a) - near(b))[0];
      if (victim) teamkilled.set(victim.steamid, mate);
    }
    const made: GameKill[] = [];
    const usedAssists = new Set<string>();
    for (const victim of victims) {
      const mate = teamkilled.get(victim.steamid) ?? null;
      const killer = pairs.get(victim.steamid)?.player ?? mate;
      const teamkill = mate !== null;
      // An assist goes to a death of the assister's enemies, one each.
      const assister =
        assisters.find(
          (player) =>
            player.side !== victim.side &&
            player.steamid !== killer?.steamid &&
            !usedAssists.has(player.steamid),
        ) ?? null;
      if (assister) usedAssists.add(assister.steamid);
      const pending = killer ? (this.#pendingHeadshots.get(killer.steamid) ?? 0) : 0;
      if (killer && pending > 0) this.#pendingHeadshots.set(killer.steamid, pending - 1);
      made.push({
        id: this.#nextId(),
        // The round played: the count is of rounds over, and takes this one in once it is over.
        round: frame.roundPhase === 'over' || frame.round > previous.round ? frame.round : frame.round + 1,
        killer: killer ? playerOf(killer) : null,
        victim: playerOf(victim),
        assister: assister ? playerOf(assister) : null,
        // The weapon in hand in the frame before: the frame of the kill may already show another
        // (a knife drawn, a grenade gone).
        weapon: killer ? (activeWeapon(before.get(killer.steamid)) ?? activeWeapon(killer)) : null,
        headshot: pending > 0,
        wallbang: null,
        noscope: null,
        throughSmoke: null,
        attackerBlind: null,
        flashAssist: null,
        teamkill,
        source: 'frames',
      });
    }
    return made;
  }
}
