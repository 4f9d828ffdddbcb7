/**
 * A game frame (the GSI JSON the game POSTs, as validated by src/game/gsi-payload.ts) as the
 * director's input. Only the fields the director reads are declared here, so this file does not
 * depend on where the payload schema lives. The raw `allplayers` entries carry `position` and
 * `forward` as text ("1093.92, 2512.16, 96.03"), which the payload schema checks as three decimals;
 * this file parses them again on its own.
 */
import type {
  DirectorFrame,
  DirectorPlayer,
  DirectorSide,
  PlayerActivity,
  Vec3,
} from '../../machines/observer-director.ts';

interface RawPlayer {
  name?: unknown;
  observer_slot?: unknown;
  team?: unknown;
  position?: unknown;
  forward?: unknown;
  state?: { health?: unknown; flashed?: unknown; burning?: unknown; round_kills?: unknown };
  weapons?: unknown;
}

/** The part of a GSI frame the director reads. */
export interface RawGsiFrame {
  map?: { name?: unknown };
  round?: { phase?: unknown };
  phase_countdowns?: { phase?: unknown };
  bomb?: { state?: unknown; player?: unknown; position?: unknown };
  player?: { steamid?: unknown };
  allplayers?: Record<string, RawPlayer>;
}

export interface DirectorFrameOptions {
  /** When the frame arrived, in ms (the service's clock; tests give their own). */
  now: number;
  /** observer_slot → HUD slot for the game that sent the frame (src/game/slots.ts `hudSlot`). */
  hudSlot: (observerSlot: number) => number | null;
}

/** Far beyond any map (CS maps fit in ±16384 units): a bigger number is not a position. */
const COORDINATE_LIMIT = 65_536;

/** "x, y, z" → a vector, or null when the text is not three finite numbers in range. */
export function parseVector(value: unknown): Vec3 | null {
  if (typeof value !== 'string' || value.length > 96) return null;
  const parts = value.split(',');
  if (parts.length !== 3) return null;
  const [x, y, z] = parts.map((part) => (/^\s*-?\d+(\.\d+)?\s*$/.test(part) ? Number(part) : Number.NaN));
  if (![x, y, z].every((n) => n !== undefined && Number.isFinite(n) && Math.abs(n) <= COORDINATE_LIMIT))
    return null;
  return { x: x as number, y: y as number, z: z as number };
}

const int = (value: unknown, min: number, max: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, Math.round(value))) : 0;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const sideOf = (team: unknown): DirectorSide | null => (team === 'CT' || team === 'T' ? team : null);

function carriesBomb(weapons: unknown): boolean {
  if (!weapons || typeof weapons !== 'object') return false;
  return Object.values(weapons as Record<string, { name?: unknown }>).some(
    (weapon) => weapon?.name === 'weapon_c4',
  );
}

/**
 * The director's input from one frame. Players without a HUD slot or a playing side (coaches,
 * casters) are left out. A frame without `allplayers` (a player's own view) has no players: the
 * director then suggests nobody.
 */
export function toDirectorFrame(raw: RawGsiFrame, options: DirectorFrameOptions): DirectorFrame {
  const bombState = text(raw.bomb?.state);
  const bombSteamid = text(raw.bomb?.player);
  const activityOf = (steamid: string): PlayerActivity =>
    bombSteamid !== steamid
      ? null
      : bombState === 'planting'
        ? 'planting'
        : bombState === 'defusing'
          ? 'defusing'
          : null;

  const players: DirectorPlayer[] = [];
  for (const [steamid, player] of Object.entries(raw.allplayers ?? {})) {
    if (!player || typeof player !== 'object') continue;
    const side = sideOf(player.team);
    const observerSlot = player.observer_slot;
    const slot =
      typeof observerSlot === 'number' && Number.isInteger(observerSlot)
        ? options.hudSlot(observerSlot)
        : null;
    if (side === null || slot === null) continue;
    const state = player.state ?? {};
    players.push({
      slot,
      steamid,
      name: text(player.name) ?? '',
      side,
      health: int(state.health, 0, 100),
      position: parseVector(player.position),
      forward: parseVector(player.forward),
      flashed: int(state.flashed, 0, 255),
      burning: int(state.burning, 0, 255),
      roundKills: int(state.round_kills, 0, 10),
      // The bomb section names the carrier; the weapons list says it too when `bomb` is not sent.
      hasBomb: (bombState === 'carried' && bombSteamid === steamid) || carriesBomb(player.weapons),
      activity: activityOf(steamid),
    });
  }

  const observed = text(raw.player?.steamid);
  const observedSlot = players.find((player) => player.steamid === observed)?.slot ?? null;
  return {
    now: options.now,
    map: text(raw.map?.name),
    // The clock's phase says more than the round's (bomb, defuse …), as in src/game/game-frame.ts.
    phase: text(raw.phase_countdowns?.phase) ?? text(raw.round?.phase) ?? '',
    bomb: bombState
      ? { state: bombState, position: parseVector(raw.bomb?.position), steamid: bombSteamid }
      : null,
    observedSlot,
    players,
  };
}
