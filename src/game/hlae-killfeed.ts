/**
 * The killfeed from HLAE's game events: each `player_death` the game fires is one entry, exact where
 * the frames can only infer (who killed whom when several die at once, the wallbang). The players are
 * named and sided from the live view of the last frame (their on-air names): the event's players are
 * matched by the SteamID64 HLAE adds to `userid`, `attacker` and `assister` (hlae-pgl.ts).
 */
import type { GameKill, GameKillPlayer } from '../protocol/game.ts';
import type { PglValue } from './hlae-pgl.ts';
import type { FeedRound } from './killfeed.ts';
import { KILLFEED_LENGTH, startsAgain } from './killfeed.ts';

/** One player_death as the feed reads it. */
export interface PlayerDeath {
  victim: string;
  /** Null: no player (the world, the bomb, a fall) or one HLAE could not name. */
  attacker: string | null;
  assister: string | null;
  weapon: string | null;
  headshot: boolean;
  /** The bullet went through something (`penetrated` above 0). */
  wallbang: boolean;
  /** The event's `noscope`, `thrusmoke`, `attackerblind` and `assistedflash`. */
  noscope: boolean;
  throughSmoke: boolean;
  attackerBlind: boolean;
  flashAssist: boolean;
}

/** A SteamID64 of a player: HLAE sends 0 for none (no assister) and for a bot. */
const steamidOf = (value: PglValue | undefined): string | null =>
  typeof value === 'object' && value !== null && 'xuid' in value && value.xuid !== '0' ? value.xuid : null;

/**
 * The game names a weapon without its prefix (ak47, hegrenade) and a molotov's fire `inferno`; the
 * live view and the overlay's icons use GSI's names (weapon_ak47, weapon_molotov).
 */
function weaponOf(value: PglValue | undefined): string | null {
  if (typeof value !== 'string' || value === '' || value === 'world') return null;
  const name = value === 'inferno' ? 'molotov' : value;
  return name.startsWith('weapon_') ? name : `weapon_${name}`;
}

/** The death a `player_death`'s keys tell, or null when they do not name a victim. */
export function playerDeathOf(keys: Readonly<Record<string, PglValue>>): PlayerDeath | null {
  const victim = steamidOf(keys.userid);
  if (victim === null) return null;
  const attacker = steamidOf(keys.attacker);
  const penetrated = keys.penetrated;
  return {
    victim,
    // A suicide names the victim as his own attacker: the overlay shows it without a killer.
    attacker: attacker === victim ? null : attacker,
    assister: steamidOf(keys.assister),
    weapon: weaponOf(keys.weapon),
    headshot: keys.headshot === true,
    wallbang: typeof penetrated === 'number' && penetrated > 0,
    noscope: keys.noscope === true,
    throughSmoke: keys.thrusmoke === true,
    attackerBlind: keys.attackerblind === true,
    flashAssist: keys.assistedflash === true,
  };
}

export class HlaeKillfeed {
  #frame: FeedRound | null = null;
  #entries: GameKill[] = [];
  readonly #nextId: () => number;

  constructor(nextId: () => number) {
    this.#nextId = nextId;
  }

  get entries(): GameKill[] {
    return this.#entries;
  }

  /** A frame: the feed starts again where the inferred one does (killfeed.ts, Killfeed.observe). */
  observe(frame: FeedRound): GameKill[] {
    const before = this.#frame;
    this.#frame = frame;
    if ((before === null || startsAgain(before, frame)) && this.#entries.length > 0) this.#entries = [];
    return this.#entries;
  }

  /**
   * One death; `players` the live view's, by steamid. Null (nothing added) before the first frame or
   * when the victim is not among the players: nothing to name him by.
   */
  add(death: PlayerDeath, players: Readonly<Record<string, GameKillPlayer>>): GameKill | null {
    const frame = this.#frame;
    const victim = players[death.victim];
    if (!frame || !victim) return null;
    const named = (steamid: string | null): GameKillPlayer | null => {
      const player = steamid === null ? undefined : players[steamid];
      return player ? { steamid: player.steamid, name: player.name, side: player.side } : null;
    };
    const killer = named(death.attacker);
    const assister = named(death.assister);
    // What the killer did (or suffered) is said only of a killer; the flash only of an assister.
    const byKiller = (said: boolean) => killer !== null && said;
    const entry: GameKill = {
      id: this.#nextId(),
      // The count is of rounds over: the round played is the next, unless the frame says it is over.
      round: frame.roundPhase === 'over' ? Math.max(1, frame.round) : frame.round + 1,
      killer,
      victim: { steamid: victim.steamid, name: victim.name, side: victim.side },
      assister,
      weapon: killer ? death.weapon : null,
      headshot: byKiller(death.headshot),
      wallbang: byKiller(death.wallbang),
      noscope: byKiller(death.noscope),
      throughSmoke: byKiller(death.throughSmoke),
      attackerBlind: byKiller(death.attackerBlind),
      flashAssist: assister !== null && death.flashAssist,
      teamkill: killer !== null && killer.side === victim.side,
      source: 'hlae',
    };
    this.#entries = [...this.#entries, entry].slice(-KILLFEED_LENGTH);
    return entry;
  }
}
