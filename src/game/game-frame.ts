/**
 * One GSI frame as the service means it: the players by HUD slot on a playing side (coaches and
 * anyone without a slot left out), the map and its score by side, the round, the clock, the bomb
 * and the observed player. Pure: the same frame and numbering give the same view.
 */
import type { FrameMapFacts } from '../../machines/game-rules.ts';
import type { GameSide } from '../../machines/game-sides.ts';
import type { RosterEntry } from '../../machines/host.machine.ts';
import type { GameGrenade, GamePlayer, GamePoint, RoundEndReason, SlotNumbering } from '../protocol/game.ts';
import { ROUND_END_REASONS } from '../protocol/game.ts';
import type { LiveIdentity } from '../protocol/teams.ts';
import type { GsiAllPlayer, GsiGrenade, GsiPayload } from './gsi-payload.ts';
import { hudSlot, slotOrder } from './slots.ts';

export interface FramePlayer extends Omit<GamePlayer, 'adr'> {}

/** What the game actor's rules read of the map (FrameMapFacts), and the loss streaks for the economy. */
export interface FrameMap extends FrameMapFacts {
  ctLosses: number;
  tLosses: number;
  ctTimeouts: number | null;
  tTimeouts: number | null;
}

export interface GameFrame {
  /** The frame comes from a spectator or GOTV (it carries allplayers): a player's own view does not. */
  spectator: boolean;
  map: FrameMap | null;
  round: {
    phase: string;
    clock: number | null;
    winner: GameSide | null;
    reason: RoundEndReason | null;
  } | null;
  bomb: {
    state: string;
    countdown: number | null;
    playerSteamid: string | null;
    position: GamePoint | null;
  } | null;
  grenades: GameGrenade[];
  observedSteamid: string | null;
  /** The ten on the playing sides, in roster order. */
  players: FramePlayer[];
}

const sideOf = (team: string | undefined): GameSide | null => (team === 'CT' || team === 'T' ? team : null);

function seconds(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  const n = typeof value === 'number' ? value : Number.parseFloat(value);
  return Number.isFinite(n) ? Math.max(0, Math.round(n * 10) / 10) : null;
}

/** "x, y, z" as whole world units; null when it is not three numbers. */
export function pointOf(text: string | undefined): GamePoint | null {
  if (text === undefined) return null;
  const [x, y, z, extra] = text.split(',').map(Number);
  if (extra !== undefined || !Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) return null;
  return [Math.round(x as number), Math.round(y as number), Math.round(z as number)];
}

/** The direction a player looks, from `forward` ("x, y, z"): whole degrees on the map's plane. */
function facingOf(text: string | undefined): number | null {
  if (text === undefined) return null;
  const [x, y] = text.split(',').map(Number);
  if (!Number.isFinite(x) || !Number.isFinite(y) || (x === 0 && y === 0)) return null;
  return Math.round((Math.atan2(y as number, x as number) * 180) / Math.PI);
}

/** How the round that is over ended: its entry in map.round_wins ("ct_win_defuse" → defuse). */
function reasonOf(payload: GsiPayload): RoundEndReason | null {
  const map = payload.map;
  if (payload.round?.phase !== 'over' || map?.round === undefined) return null;
  const reason = map.round_wins?.[String(map.round)]?.split('_win_')[1];
  return ROUND_END_REASONS.find((known) => known === reason) ?? null;
}

let numberCollator: Intl.Collator | undefined;

/**
 * Text with numbers in number order. The collator is made with the first frame, not when the module
 * loads: a process's first collator costs 7 ms (ICU's data), a fortieth of the start-up.
 */
function byNumber(a: string, b: string): number {
  numberCollator ??= new Intl.Collator('en', { numeric: true });
  return numberCollator.compare(a, b);
}

function grenadeOf(id: string, raw: GsiGrenade): GameGrenade {
  return {
    id,
    type: raw.type ?? '',
    owner: raw.owner === undefined ? null : String(raw.owner),
    position: pointOf(raw.position),
    flames: Object.values(raw.flames ?? {})
      .map(pointOf)
      .filter((point): point is GamePoint => point !== null),
    lifetime: seconds(raw.lifetime),
    effect: seconds(raw.effecttime),
  };
}

/** weapon_0 … weapon_10 in number order: one collator, not one made by every comparison (45 µs a frame). */
const byWeaponKey = byNumber;

/** Who a live player is on air, by SteamID64 (the database of teams and players); null for one it does not know. */
export type IdentityOf = (steamid: string) => LiveIdentity | null;

/** Without a database: nobody is known, every player goes on air under the game's name. */
export const NOBODY_KNOWN: IdentityOf = () => null;

/** A live player's on-air fields: the database's when it knows him, the game's name otherwise. */
export function onAir(known: LiveIdentity | null, gameName: string) {
  return {
    name: known?.name ?? gameName,
    gameName,
    playerId: known?.playerId ?? null,
    realName: known?.realName ?? '',
    country: known?.country ?? null,
    photo: known?.photo ?? null,
  };
}

function playerOf(
  steamid: string,
  raw: GsiAllPlayer,
  numbering: SlotNumbering,
  identityOf: IdentityOf,
): FramePlayer | null {
  const side = sideOf(raw.team);
  const slot = hudSlot(raw.observer_slot, numbering);
  if (side === null || slot === null) return null;
  const state = raw.state ?? {};
  const stats = raw.match_stats ?? {};
  const weapons = Object.entries(raw.weapons ?? {})
    .sort(([a], [b]) => byWeaponKey(a, b))
    .map(([, weapon]) => ({
      name: weapon.name ?? '',
      type: weapon.type ?? '',
      active: weapon.state === 'active',
      ammoClip: weapon.ammo_clip ?? null,
      ammoReserve: weapon.ammo_reserve ?? null,
    }));
  return {
    steamid,
    // Once here, where the players are built: every on-air place reads `name`.
    ...onAir(identityOf(steamid), raw.name ?? ''),
    slot,
    side,
    health: state.health ?? 0,
    armor: state.armor ?? 0,
    helmet: state.helmet ?? false,
    defuseKit: state.defusekit ?? false,
    money: state.money ?? 0,
    equipValue: state.equip_value ?? 0,
    kills: stats.kills ?? 0,
    deaths: stats.deaths ?? 0,
    assists: stats.assists ?? 0,
    mvps: stats.mvps ?? 0,
    roundKills: state.round_kills ?? 0,
    roundDamage: state.round_totaldmg ?? 0,
    flashed: state.flashed ?? 0,
    weapons,
    position: pointOf(raw.position),
    facing: facingOf(raw.forward),
  };
}

export function parseFrame(
  payload: GsiPayload,
  numbering: SlotNumbering,
  identityOf: IdentityOf = NOBODY_KNOWN,
): GameFrame {
  const all = payload.allplayers;
  const players = Object.entries(all ?? {})
    .map(([steamid, raw]) => playerOf(steamid, raw, numbering, identityOf))
    .filter((player): player is FramePlayer => player !== null)
    .sort((a, b) => slotOrder(a.slot) - slotOrder(b.slot));
  const map = payload.map;
  const countdowns = payload.phase_countdowns;
  const round = payload.round;
  const observed = payload.player?.steamid;
  return {
    spectator: all !== undefined,
    map:
      map?.name !== undefined
        ? {
            name: map.name,
            phase: map.phase ?? '',
            round: map.round ?? 0,
            ctScore: map.team_ct?.score ?? 0,
            tScore: map.team_t?.score ?? 0,
            ctName: map.team_ct?.name ?? null,
            tName: map.team_t?.name ?? null,
            ctLosses: map.team_ct?.consecutive_round_losses ?? 0,
            tLosses: map.team_t?.consecutive_round_losses ?? 0,
            ctTimeouts: map.team_ct?.timeouts_remaining ?? null,
            tTimeouts: map.team_t?.timeouts_remaining ?? null,
          }
        : null,
    round:
      round || countdowns
        ? {
            // The clock's phase says more than the round's (bomb, defuse, timeout_ct …).
            phase: countdowns?.phase ?? round?.phase ?? '',
            clock: seconds(countdowns?.phase_ends_in),
            winner: sideOf(round?.win_team),
            reason: reasonOf(payload),
          }
        : null,
    bomb: payload.bomb?.state
      ? {
          state: payload.bomb.state,
          countdown: seconds(payload.bomb.countdown),
          playerSteamid: payload.bomb.player ?? null,
          position: pointOf(payload.bomb.position),
        }
      : null,
    grenades: Object.entries(payload.grenades ?? {})
      .sort(([a], [b]) => byNumber(a, b))
      .map(([id, raw]) => grenadeOf(id, raw)),
    // The spectated player (GOTV or an observer); the observer's own entry (free camera) is nobody.
    observedSteamid: observed !== undefined && all?.[observed] !== undefined ? observed : null,
    players,
  };
}

/** The roster: players by HUD slot, 1 to 9, then 0. */
export const rosterOfFrame = (frame: GameFrame): RosterEntry[] =>
  frame.players.map(({ slot, name }) => ({ slot, name }));
