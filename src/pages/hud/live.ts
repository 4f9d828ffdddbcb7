/**
 * The live game as the overlay draws it: small computed signals picked from the `game` messages
 * (common/game-store.ts) and the HUD state's sides. Each one changes only when what it holds
 * changes (a number, a string, or the same player object while the server sent nothing new for
 * that player), so a frame re-renders only the boxes whose values moved, and the same frame twice
 * re-renders nothing.
 */
import type { ReadonlySignal } from '@preact/signals';
import { computed } from '@preact/signals';
import { samePlayerBesidesPlace } from '../../protocol/game-compare.ts';
import type { GamePlayer, RoundEndReason } from '../../protocol/index.ts';
import type { Side } from '../common/broadcast.ts';
import { SLOTS, slotsOf, teams } from '../common/broadcast.ts';
import { gameLive } from '../common/game-store.ts';
import { state } from '../common/store.ts';
import { lossBonus } from './loss-bonus.ts';

export { mainWeapon } from './loadout.ts';

export type GameSide = 'CT' | 'T';

/** Game data arrives and carries a map: the overlay shows the live game instead of the map score. */
export const gameOn = computed(() => state.value?.gameReceiving === true && gameLive.value.map !== null);

/** The game side a team plays now (HUD state's sides: from the game data or as the operator set). */
export const sideOfTeam = (team: Side): GameSide | null =>
  (team === 'A' ? state.value?.sides?.teamA : state.value?.sides?.teamB) ?? null;

/** Game data with a map has arrived (and may have stopped since): the last values stand. */
export const hasLiveMap = computed(() => gameLive.value.map !== null);

/** The team (A or B) playing a game side. */
export const teamOfSide = (side: GameSide): Side | null => {
  const a = state.value?.sides?.teamA;
  if (!a) return null;
  return a === side ? 'A' : 'B';
};

const liveMap = computed(() => gameLive.value.map);
const liveRound = computed(() => gameLive.value.round);

/** The live round score of team A and team B: the score of the side each team plays. */
export const liveScore = {
  A: computed(() => {
    const map = liveMap.value;
    if (!map) return 0;
    return sideOfTeam('A') === 'T' ? map.tScore : map.ctScore;
  }),
  B: computed(() => {
    const map = liveMap.value;
    if (!map) return 0;
    return sideOfTeam('A') === 'T' ? map.ctScore : map.tScore;
  }),
};

/** What the top bar's clock says (data-phase). */
export type Phase =
  | 'none'
  | 'warmup'
  | 'freezetime'
  | 'live'
  | 'bomb'
  | 'defuse'
  | 'over'
  | 'halftime'
  | 'gameover'
  | 'timeout'
  | 'paused';

export const phase = computed<Phase>(() => {
  const map = liveMap.value;
  if (!map) return 'none';
  if (map.phase === 'warmup') return 'warmup';
  if (map.phase === 'gameover') return 'gameover';
  if (map.phase === 'intermission') return 'halftime';
  const round = liveRound.value?.phase ?? '';
  switch (round) {
    case 'freezetime':
    case 'bomb':
    case 'defuse':
    case 'over':
    case 'paused':
    case 'warmup':
      return round;
    default:
      return round.startsWith('timeout') ? 'timeout' : 'live';
  }
});

/**
 * The round being played (or just ended): the game's `map.round` counts the rounds played, and
 * moves at a round's end, so during the round-end pause it is that round's number.
 */
export const roundNumber = computed(() => {
  const map = liveMap.value;
  if (!map) return null;
  const current = phase.value;
  return current === 'over' || current === 'gameover' || current === 'halftime' ? map.round : map.round + 1;
});

/** Seconds left in the phase, as the game said in its last frame. */
const clockSeconds = computed(() => liveRound.value?.clock ?? null);

/** The clock as shown: m:ss, and tenths under ten seconds of a bomb or a defuse. */
export const clockText = computed(() => {
  const seconds = clockSeconds.value;
  if (seconds === null) return '';
  const current = phase.value;
  if ((current === 'bomb' || current === 'defuse') && seconds < 10) return seconds.toFixed(1);
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
});

/**
 * The top bar's bomb timer fill (1 full, 0 exploded) while it ticks: C4 is 40 s in competitive play.
 * The bomb's own time (explodesIn), which goes on through a defuse: the phase clock then counts the
 * defuse.
 */
export const BOMB_SECONDS = 40;
export const bombFill = computed(() => {
  if (phase.value !== 'bomb' && phase.value !== 'defuse') return null;
  const left = gameLive.value.bomb?.explodesIn ?? null;
  if (left === null) return null;
  return Math.max(0, Math.min(1, left / BOMB_SECONDS));
});

/** The words under the clock. */
export const phaseText = computed(() => {
  const current = phase.value;
  const round = liveRound.value;
  const bomb = gameLive.value.bomb?.state ?? null;
  switch (current) {
    case 'warmup':
      return 'Warm-up';
    case 'freezetime':
      return 'Freeze time';
    case 'bomb':
      return 'Bomb planted';
    case 'defuse':
      return 'Defusing';
    case 'halftime':
      return 'Half time';
    case 'gameover':
      return 'Map over';
    case 'paused':
      return 'Paused';
    case 'timeout': {
      const side = round?.phase === 'timeout_ct' ? 'CT' : round?.phase === 'timeout_t' ? 'T' : null;
      const team = side ? teamOfSide(side) : null;
      return team ? `Timeout · ${teams.value[team].name}` : 'Timeout';
    }
    case 'over': {
      const team = round?.winner ? teamOfSide(round.winner) : null;
      const how = bomb === 'defused' ? 'Bomb defused' : bomb === 'exploded' ? 'Bomb exploded' : null;
      const who = team ? `${teams.value[team].name} win` : 'Round over';
      return how ? `${how} · ${who}` : who;
    }
    default:
      return '';
  }
});

/** The phases of a round being fought: the players alive count, a clutch can happen. */
const FIGHTING: ReadonlySet<Phase> = new Set(['live', 'bomb', 'defuse']);

function aliveOf(team: Side): number | null {
  const side = sideOfTeam(team);
  if (!gameOn.value || !side) return null;
  let alive = 0;
  for (const player of Object.values(gameLive.value.players))
    if (player.side === side && player.health > 0) alive++;
  return alive;
}

/** How many players of each team are alive (the side it plays); null without live game data. */
export const aliveCount: Record<Side, ReadonlySignal<number | null>> = {
  A: computed(() => aliveOf('A')),
  B: computed(() => aliveOf('B')),
};

/**
 * A clutch: while a round is fought, a team down to its last player against one or more; the number
 * of players that one faces (1v3 is 3), null otherwise. In a 1v1 both teams have it.
 */
function clutchOf(team: Side): number | null {
  if (!FIGHTING.has(phase.value)) return null;
  const mine = aliveCount[team].value;
  const theirs = aliveCount[team === 'A' ? 'B' : 'A'].value;
  return mine === 1 && theirs !== null && theirs >= 1 ? theirs : null;
}

export const clutchAgainst: Record<Side, ReadonlySignal<number | null>> = {
  A: computed(() => clutchOf('A')),
  B: computed(() => clutchOf('B')),
};

/** The live players by HUD slot: one pass per frame, read by every slot's signal below. */
const playersBySlot = computed(() => {
  const slots = new Map<number, GamePlayer>();
  for (const player of Object.values(gameLive.value.players))
    if (player.slot !== null && !slots.has(player.slot)) slots.set(player.slot, player);
  return slots;
});

const bySlot = new Map<number, ReadonlySignal<GamePlayer | null>>(
  SLOTS.map((slot) => [slot, computed(() => playersBySlot.value.get(slot) ?? null)]),
);

/** The live values of the player in a HUD slot (the same object until the server sends a change). */
export const playerInSlot = (slot: number): ReadonlySignal<GamePlayer | null> =>
  bySlot.get(slot) ?? computed(() => null);

/** A player's values without where the player stands and looks (the radar's, and what changes in nearly every frame of a round). */
export type PlayerStats = Omit<GamePlayer, 'position' | 'facing'>;

/**
 * A player's values without where the player stands and looks: the same object while only those
 * moved, so the boxes, the scoreboard's rows and the stats panel re-render for a hit or a purchase,
 * not for each step a player takes (its `position` and `facing` may be stale: the radar reads
 * `playerInSlot`).
 */
function stableBesidesPlace(source: ReadonlySignal<GamePlayer | null>): ReadonlySignal<PlayerStats | null> {
  let last: GamePlayer | null = null;
  return computed(() => {
    const player = source.value;
    if (player && last && samePlayerBesidesPlace(last, player)) return last;
    last = player;
    return player;
  });
}

const boxBySlot = new Map<number, ReadonlySignal<PlayerStats | null>>(
  SLOTS.map((slot) => [slot, stableBesidesPlace(playerInSlot(slot))]),
);

/** The values a player's box, row or stats show, in a HUD slot: `playerInSlot` without the place. */
export const playerStatsInSlot = (slot: number): ReadonlySignal<PlayerStats | null> =>
  boxBySlot.get(slot) ?? computed(() => null);

/** The HUD slot of the observed (spectated) player. */
export const observedSlot = computed(() => gameLive.value.observed?.slot ?? null);

const observedBySlot = new Map<number, ReadonlySignal<boolean>>(
  SLOTS.map((slot) => [slot, computed(() => observedSlot.value === slot)]),
);
export const isObserved = (slot: number): boolean => observedBySlot.get(slot)?.value === true;

/**
 * The HUD slot of the player carrying the bomb (or planting it), as the game's bomb section says;
 * the player's own weapons (weapon_c4) say it too, and a box shows the bomb when either does.
 */
const bombCarrierSlot = computed(() => {
  const bomb = gameLive.value.bomb;
  return bomb && (bomb.state === 'carried' || bomb.state === 'planting') ? bomb.playerSlot : null;
});
const carrierBySlot = new Map<number, ReadonlySignal<boolean>>(
  SLOTS.map((slot) => [slot, computed(() => bombCarrierSlot.value === slot)]),
);
export const carriesBomb = (slot: number): boolean => carrierBySlot.get(slot)?.value === true;

/** The observed player's live values. */
export const observedPlayer = computed(() => {
  const slot = observedSlot.value;
  return slot === null ? null : playerInSlot(slot).value;
});

/** The observed player's values without the place (`playerStatsInSlot`): the observed box's. */
export const observedPlayerStats = computed(() => {
  const slot = observedSlot.value;
  return slot === null ? null : playerStatsInSlot(slot).value;
});

/** The weapon in the player's hands. */
export const activeWeapon = (player: Pick<GamePlayer, 'weapons'>) =>
  player.weapons.find((w) => w.active) ?? null;

const WEAPON_NAMES: Record<string, string> = {
  ak47: 'AK-47',
  m4a1: 'M4A4',
  m4a1_silencer: 'M4A1-S',
  awp: 'AWP',
  ssg08: 'SSG 08',
  sg556: 'SG 553',
  aug: 'AUG',
  famas: 'FAMAS',
  galilar: 'Galil AR',
  scar20: 'SCAR-20',
  g3sg1: 'G3SG1',
  mac10: 'MAC-10',
  mp9: 'MP9',
  mp7: 'MP7',
  mp5sd: 'MP5-SD',
  ump45: 'UMP-45',
  p90: 'P90',
  bizon: 'PP-Bizon',
  nova: 'Nova',
  xm1014: 'XM1014',
  mag7: 'MAG-7',
  sawedoff: 'Sawed-Off',
  negev: 'Negev',
  m249: 'M249',
  glock: 'Glock-18',
  hkp2000: 'P2000',
  usp_silencer: 'USP-S',
  p250: 'P250',
  elite: 'Dual Berettas',
  fiveseven: 'Five-SeveN',
  tec9: 'Tec-9',
  cz75a: 'CZ75-Auto',
  deagle: 'Desert Eagle',
  revolver: 'R8 Revolver',
  taser: 'Zeus x27',
  c4: 'C4',
  hegrenade: 'HE Grenade',
  flashbang: 'Flashbang',
  smokegrenade: 'Smoke',
  molotov: 'Molotov',
  incgrenade: 'Incendiary',
  decoy: 'Decoy',
};

/** weapon_ak47 → AK-47; a knife is a knife whatever its skin. */
export function weaponLabel(name: string | null): string {
  if (!name) return '';
  const short = name.replace(/^weapon_/, '');
  if (short.startsWith('knife') || short.startsWith('bayonet')) return 'Knife';
  return WEAPON_NAMES[short] ?? short.replace(/_/g, ' ').toUpperCase();
}

/** $4,150 */
export const money = (amount: number) => `$${amount.toLocaleString('en-US')}`;

/**
 * The HUD slots of a team's players: while the game is live, the slots of the players on the side
 * the team plays (the game's slots follow its own order, not team A and team B); otherwise the
 * roster's halves (1-5 team A, 6-9 and 0 team B). Kept as the same array while it holds the same slots.
 */
function teamSlots(team: Side): ReadonlySignal<readonly number[]> {
  const key = computed(() => {
    const side = sideOfTeam(team);
    if (!gameOn.value || !side) return slotsOf(team).join(',');
    const slots = SLOTS.filter((slot) => playersBySlot.value.get(slot)?.side === side);
    return slots.length > 0 ? slots.join(',') : slotsOf(team).join(',');
  });
  return computed(() => key.value.split(',').map(Number));
}

export const slotsOfTeam: Record<Side, ReadonlySignal<readonly number[]>> = {
  A: teamSlots('A'),
  B: teamSlots('B'),
};

/** A team's economy at freeze time: the players of the side it plays, and that side's losses in a row. */
export interface TeamEconomy {
  side: GameSide;
  /** Every player's money, added up. */
  money: number;
  /** Every player's equipment value (equip_value), added up. */
  equipment: number;
  /** The side's loss counter as the game sends it (consecutive_round_losses). */
  losses: number;
  /** What each player gets for losing the coming round (loss-bonus.ts). */
  lossBonus: number;
}

function economyOf(team: Side): TeamEconomy | null {
  const side = sideOfTeam(team);
  const map = liveMap.value;
  if (!side || !map) return null;
  let cash = 0;
  let equipment = 0;
  for (const player of Object.values(gameLive.value.players)) {
    if (player.side !== side) continue;
    cash += player.money;
    equipment += player.equipValue;
  }
  const losses = side === 'CT' ? map.ctLosses : map.tLosses;
  return { side, money: cash, equipment, losses, lossBonus: lossBonus(losses) };
}

/** Freeze time of a live map: the time the economy is shown. */
export const inFreezetime = computed(() => gameOn.value && phase.value === 'freezetime');

/**
 * Both teams' economy during freeze time, null otherwise: outside freeze time nothing here changes,
 * so a frame of a live round re-renders nothing of the economy.
 */
export const economy = computed<Record<Side, TeamEconomy | null> | null>(() =>
  inFreezetime.value ? { A: economyOf('A'), B: economyOf('B') } : null,
);

/** How the round that is over ended, and who won it: the round banner. */
export interface RoundResult {
  side: GameSide;
  /** The team playing the winning side; null before the sides are known. */
  team: Side | null;
  reason: RoundEndReason | null;
}

const roundResultKey = computed(() => {
  const round = liveRound.value;
  if (!gameOn.value || round?.phase !== 'over' || !round.winner) return '';
  return `${round.winner}|${teamOfSide(round.winner) ?? ''}|${round.reason ?? ''}`;
});

/** The round that is over (round phase `over`), null while a round runs: kept the same while it holds. */
export const roundResult = computed<RoundResult | null>(() => {
  const key = roundResultKey.value;
  if (!key) return null;
  const [side, team, reason] = key.split('|');
  return {
    side: side as GameSide,
    team: (team || null) as Side | null,
    reason: (reason || null) as RoundEndReason | null,
  };
});
