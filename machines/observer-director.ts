/**
 * The automatic observer's director: from each game frame and what it remembers of the recent ones,
 * it scores every living player and suggests whom to watch, with a reason in words. Pure and
 * deterministic: time comes from the frame (`now`), never from a clock, so the same frames give the
 * same cuts. docs/observer.md explains the weights and the hold.
 */

export type DirectorSide = 'CT' | 'T';

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** What a player is doing with the bomb, read from the frame's bomb section. */
export type PlayerActivity = 'planting' | 'defusing' | null;

/** One of the ten, as the director needs them. Built from GSI `allplayers` by src/observer/director-frame.ts. */
export interface DirectorPlayer {
  /** HUD slot: 1..9, then 0 (the observer's number keys). */
  slot: number;
  /** SteamID64 as the game writes it (bots have short ids such as "2"). */
  steamid: string;
  name: string;
  side: DirectorSide;
  /** 0 is dead. */
  health: number;
  /** null when the frame has no `allplayers_position`. */
  position: Vec3 | null;
  forward: Vec3 | null;
  /** 0..255: how white the player's screen is. */
  flashed: number;
  /** 0..255: standing in fire. */
  burning: number;
  roundKills: number;
  hasBomb: boolean;
  activity: PlayerActivity;
}

export interface DirectorFrame {
  /** Milliseconds, from the input (the time the frame arrived); the director never reads a clock. */
  now: number;
  /** The map's name (`de_dust2`, or `workshop/…/de_mirage`), for the bomb sites seen on it. */
  map: string | null;
  /** The round clock's phase: freezetime, live, bomb, defuse, over, warmup … */
  phase: string;
  bomb: { state: string; position: Vec3 | null; steamid: string | null } | null;
  /** The HUD slot the game shows now (the spectated player), null on a free camera. */
  observedSlot: number | null;
  players: DirectorPlayer[];
}

/** Why a player is worth watching, strongest first. */
export const REASONS = [
  'defusing',
  'planting',
  'clutch',
  'duel',
  'fresh_kill',
  'low_health_under_fire',
  'bomb_near_site',
  'under_fire',
  'burning',
  'flashed',
  'bomb_carrier',
  'alive',
] as const;
export type DirectorReason = (typeof REASONS)[number];

/**
 * The score of each reason. The numbers only matter relative to each other and to SWITCH_MARGIN:
 * docs/observer.md says why they are in this order.
 */
export const WEIGHTS: Record<DirectorReason, number> = {
  defusing: 100,
  planting: 95,
  clutch: 80,
  duel: 60,
  fresh_kill: 55,
  low_health_under_fire: 45,
  bomb_near_site: 40,
  under_fire: 30,
  burning: 28,
  flashed: 25,
  bomb_carrier: 12,
  alive: 0,
};

/** Reasons that cut at once, even inside the hold: a plant, a defuse, a clutch. */
export const CRITICAL: ReadonlySet<DirectorReason> = new Set(['defusing', 'planting', 'clutch']);

/** Reasons that also end the cinematic hold on a death: they do not wait. */
export const URGENT: ReadonlySet<DirectorReason> = new Set(['defusing', 'planting']);

/** A cut stays at least this long, so the picture does not flicker between players. */
export const MIN_HOLD_MS = 2_000;
/** After the hold, another player must score this much more to take the camera (hysteresis). */
export const SWITCH_MARGIN = 10;
/** A kill counts as fresh this long. */
export const KILL_WINDOW_MS = 3_000;
/** Health that dropped this recently means the player is under fire. */
export const HURT_WINDOW_MS = 2_000;
export const LOW_HEALTH = 40;
/** Enemies closer than this (game units; a player is 72 tall) and facing each other are a duel. */
export const DUEL_RANGE = 1_500;
/** cos 35°: how squarely a player must face the other to count as facing him. */
export const FACING_COS = 0.82;
/** The bomb carrier is "near a site" within this (2D) distance of a spot a bomb was planted. */
export const SITE_RANGE = 1_000;
export const FLASHED_AT = 100;
/**
 * Cinematic freeze camera: how long the camera stays on a watched player who died, so the game's
 * own death camera plays (Valve's competitive servers: `spec_freeze_time 2`,
 * `spec_freeze_deathanim_time 0`), plus a margin for the camera's travel to the killer.
 */
export const CINEMATIC_HOLD_MS = 2_500;

/**
 * Spots where a bomb was planted, by map, from the captures in test/fixtures: the round sequence on
 * de_dust2 (nodecg-csgo-manager, bomb site A) and NIP–NaVi on de_ancient (sces-csgo-hud-fe). The
 * director adds every plant it sees, so the other maps learn their sites during the match.
 */
export const KNOWN_SITES: Readonly<Record<string, readonly Vec3[]>> = {
  de_dust2: [{ x: 1093.91, y: 2512.16, z: 96.03 }],
  de_ancient: [{ x: 797.5, y: 5.0, z: 134.0 }],
};

/** Whom to watch and why. */
export interface Suggestion {
  slot: number;
  steamid: string;
  name: string;
  side: DirectorSide;
  reason: DirectorReason;
  /** The reason in words, for the operator. */
  text: string;
  score: number;
  /** `now` of the frame that made this suggestion. */
  since: number;
}

interface PlayerMemory {
  health: number;
  roundKills: number;
  lastKillAt: number | null;
  lastHurtAt: number | null;
}

export interface DirectorState {
  suggestion: Suggestion | null;
  /** The watched player died and the camera stays on the death until `until` (cinematic only). */
  freeze: { steamid: string; until: number } | null;
  memory: Record<string, PlayerMemory>;
  /** Plant spots seen during this session, by map (added to KNOWN_SITES). */
  sites: Record<string, Vec3[]>;
  /** Planted position already recorded this round (a planted bomb is seen in many frames). */
  lastPlant: Vec3 | null;
}

export interface DirectorOptions {
  cinematic: boolean;
}

export const initialDirectorState = (): DirectorState => ({
  suggestion: null,
  freeze: null,
  memory: {},
  sites: {},
  lastPlant: null,
});

interface Scored {
  player: DirectorPlayer;
  reason: DirectorReason;
  score: number;
  text: string;
}

const slotOrder = (slot: number) => (slot === 0 ? 10 : slot);

/** `workshop/123/de_mirage` is de_mirage. */
export const baseMapName = (map: string | null): string | null =>
  map ? (map.split('/').pop() ?? map) : null;

function distance2d(a: Vec3, b: Vec3): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Whether `a` looks at `b`: the angle between a's forward and the line to b is under ~35°. */
function faces(a: DirectorPlayer, b: DirectorPlayer): boolean {
  if (!a.position || !a.forward || !b.position) return false;
  const dx = b.position.x - a.position.x;
  const dy = b.position.y - a.position.y;
  const dz = b.position.z - a.position.z;
  const length = Math.hypot(dx, dy, dz);
  const fl = Math.hypot(a.forward.x, a.forward.y, a.forward.z);
  if (length === 0 || fl === 0) return false;
  return (a.forward.x * dx + a.forward.y * dy + a.forward.z * dz) / (length * fl) >= FACING_COS;
}

function sitesOf(state: DirectorState, map: string | null): readonly Vec3[] {
  const name = baseMapName(map);
  if (!name) return [];
  return [...(KNOWN_SITES[name] ?? []), ...(state.sites[name] ?? [])];
}

function text(reason: DirectorReason, player: DirectorPlayer, detail: string): string {
  switch (reason) {
    case 'defusing':
      return `${player.name} is defusing the bomb`;
    case 'planting':
      return `${player.name} is planting the bomb`;
    case 'clutch':
      return `${player.name} is the last alive: a clutch ${detail}`;
    case 'duel':
      return `${player.name} is in a duel with ${detail}`;
    case 'fresh_kill':
      return `${player.name} just got a kill (${detail} this round)`;
    case 'low_health_under_fire':
      return `${player.name} is under fire with ${detail} HP`;
    case 'bomb_near_site':
      return `${player.name} carries the bomb near a site`;
    case 'under_fire':
      return `${player.name} is taking damage`;
    case 'burning':
      return `${player.name} is in the fire`;
    case 'flashed':
      return `${player.name} is flashed`;
    case 'bomb_carrier':
      return `${player.name} carries the bomb`;
    case 'alive':
      return `${player.name} is alive`;
  }
}

/** Every reason that applies to a living player, with its score. */
function candidates(
  player: DirectorPlayer,
  frame: DirectorFrame,
  memory: PlayerMemory,
  alive: { CT: DirectorPlayer[]; T: DirectorPlayer[] },
  sites: readonly Vec3[],
): Scored[] {
  const out: Scored[] = [];
  const add = (reason: DirectorReason, bonus = 0, detail = '') =>
    out.push({ player, reason, score: WEIGHTS[reason] + bonus, text: text(reason, player, detail) });
  const { now } = frame;
  const enemies = player.side === 'CT' ? alive.T : alive.CT;
  const friends = player.side === 'CT' ? alive.CT : alive.T;
  const live = frame.phase !== 'over' && frame.phase !== 'freezetime' && frame.phase !== 'warmup';

  if (player.activity === 'defusing') add('defusing');
  if (player.activity === 'planting') add('planting');
  if (live && friends.length === 1 && enemies.length >= 1) {
    // 1v3 outranks 1v1: more enemies, more to win.
    add('clutch', 5 * enemies.length, `1v${enemies.length}`);
  }
  if (live) {
    let best: { enemy: DirectorPlayer; d: number } | null = null;
    for (const enemy of enemies) {
      if (!player.position || !enemy.position) continue;
      const d = distance2d(player.position, enemy.position);
      if (d > DUEL_RANGE || !faces(player, enemy) || !faces(enemy, player)) continue;
      if (!best || d < best.d) best = { enemy, d };
    }
    // Closer is hotter: up to 15 more at point-blank.
    if (best) add('duel', Math.round(15 * (1 - best.d / DUEL_RANGE)), best.enemy.name);
  }
  if (memory.lastKillAt !== null && now - memory.lastKillAt < KILL_WINDOW_MS) {
    // A multi-kill round keeps the camera: 5 more for every kill after the first.
    add('fresh_kill', 5 * Math.max(0, player.roundKills - 1), String(player.roundKills));
  }
  if (memory.lastHurtAt !== null && now - memory.lastHurtAt < HURT_WINDOW_MS) {
    if (player.health <= LOW_HEALTH) add('low_health_under_fire', 0, String(player.health));
    else add('under_fire');
  }
  if (player.hasBomb) {
    const near =
      live &&
      player.position !== null &&
      sites.some((site) => distance2d(site, player.position as Vec3) < SITE_RANGE);
    add(near ? 'bomb_near_site' : 'bomb_carrier');
  }
  if (player.burning > 0) add('burning');
  if (player.flashed >= FLASHED_AT) add('flashed');
  // Health as a tie-breaker between quiet players (0..4).
  add('alive', Math.round(player.health / 25));
  return out;
}

function bestOf(list: Scored[]): Scored | undefined {
  let best: Scored | undefined;
  for (const item of list) if (!best || item.score > best.score) best = item;
  return best;
}

function remember(previous: PlayerMemory | undefined, player: DirectorPlayer, now: number): PlayerMemory {
  if (!previous)
    return { health: player.health, roundKills: player.roundKills, lastKillAt: null, lastHurtAt: null };
  const killed = player.roundKills > previous.roundKills;
  const hurt = player.health < previous.health && player.health > 0;
  return {
    health: player.health,
    roundKills: player.roundKills,
    lastKillAt: killed ? now : player.roundKills < previous.roundKills ? null : previous.lastKillAt,
    lastHurtAt: hurt ? now : player.health > previous.health ? null : previous.lastHurtAt,
  };
}

const suggestionOf = (best: Scored, now: number): Suggestion => ({
  slot: best.player.slot,
  steamid: best.player.steamid,
  name: best.player.name,
  side: best.player.side,
  reason: best.reason,
  text: best.text,
  score: best.score,
  since: now,
});

/**
 * One step of the director: the new state after `frame`. The suggestion is always a living player
 * (or null when no one is alive); it changes only after the hold, unless the watched player died or
 * a plant, a defuse or a clutch starts.
 */
export function direct(state: DirectorState, frame: DirectorFrame, options: DirectorOptions): DirectorState {
  const { now } = frame;
  const players = [...frame.players].sort((a, b) => slotOrder(a.slot) - slotOrder(b.slot));

  const memory: Record<string, PlayerMemory> = {};
  for (const player of players) memory[player.steamid] = remember(state.memory[player.steamid], player, now);

  // Learn where bombs go down on this map.
  let sites = state.sites;
  let lastPlant = state.lastPlant;
  const mapName = baseMapName(frame.map);
  if (frame.bomb?.state === 'planted' && frame.bomb.position && mapName) {
    const spot = frame.bomb.position;
    if (!lastPlant || distance2d(lastPlant, spot) > 1) {
      lastPlant = spot;
      const known = sitesOf(state, frame.map);
      if (!known.some((site) => distance2d(site, spot) < SITE_RANGE / 2)) {
        sites = { ...sites, [mapName]: [...(sites[mapName] ?? []), spot] };
      }
    }
  } else if (frame.phase === 'freezetime') {
    lastPlant = null;
  }

  const living = players.filter((player) => player.health > 0);
  const alive = {
    CT: living.filter((player) => player.side === 'CT'),
    T: living.filter((player) => player.side === 'T'),
  };
  const siteList = sitesOf({ ...state, sites }, frame.map);
  const scored = new Map<string, Scored>();
  for (const player of living) {
    const best = bestOf(candidates(player, frame, memory[player.steamid] as PlayerMemory, alive, siteList));
    if (best) scored.set(player.steamid, best);
  }

  // The strongest; ties go to the player watched now, then to the lower HUD slot (players are sorted).
  const current = state.suggestion;
  let top: Scored | undefined;
  for (const player of living) {
    const item = scored.get(player.steamid) as Scored;
    if (!top || item.score > top.score || (item.score === top.score && player.steamid === current?.steamid))
      top = item;
  }

  const next = (suggestion: Suggestion | null, freeze: DirectorState['freeze']): DirectorState => ({
    suggestion,
    freeze,
    memory,
    sites,
    lastPlant,
  });

  if (!top) return next(null, null);

  // Nothing suggested yet: start from the player the game shows, if he is worth it, else the best.
  if (!current) {
    const observed = living.find((player) => player.slot === frame.observedSlot);
    const observedScore = observed ? scored.get(observed.steamid) : undefined;
    const pick = observedScore && observedScore.score + SWITCH_MARGIN > top.score ? observedScore : top;
    return next(suggestionOf(pick, now), null);
  }

  const watched = players.find((player) => player.steamid === current.steamid);
  const watchedScore = scored.get(current.steamid);

  // The watched player is dead (or gone): the suggestion moves on at once (it is never a dead
  // player). With the cinematic camera on, the camera stays on the death for CINEMATIC_HOLD_MS
  // unless a plant or a defuse needs it now; a clutch can wait for the death camera.
  if (!watched || watched.health <= 0 || !watchedScore) {
    const freeze =
      options.cinematic && watched && !URGENT.has(top.reason)
        ? { steamid: current.steamid, until: now + CINEMATIC_HOLD_MS }
        : null;
    return next(suggestionOf(top, now), freeze);
  }

  // Still alive: refresh the reason of the same player without restarting his hold.
  const refreshed = (): Suggestion => ({
    ...current,
    slot: watched.slot,
    name: watched.name,
    side: watched.side,
    reason: watchedScore.reason,
    text: watchedScore.text,
    score: watchedScore.score,
  });

  // A plant, a defuse or a clutch of another player cuts through the hold, unless the watched
  // player's own reason is as strong (a defuser is not left for a clutch).
  const outranks =
    CRITICAL.has(top.reason) &&
    (!CRITICAL.has(watchedScore.reason) || WEIGHTS[top.reason] > WEIGHTS[watchedScore.reason]);
  const freeze = state.freeze && now < state.freeze.until && !URGENT.has(top.reason) ? state.freeze : null;
  if (top.player.steamid === current.steamid) return next(refreshed(), freeze);
  if (outranks) return next(suggestionOf(top, now), freeze);
  if (now - current.since < MIN_HOLD_MS) return next(refreshed(), freeze);
  if (top.score >= watchedScore.score + SWITCH_MARGIN) return next(suggestionOf(top, now), null);
  return next(refreshed(), freeze);
}

/**
 * Where the camera should be: the suggestion, or null while the cinematic hold keeps it on the
 * death of the player it watched.
 */
export function cameraTargetOf(state: DirectorState): Suggestion | null {
  return state.freeze ? null : state.suggestion;
}
