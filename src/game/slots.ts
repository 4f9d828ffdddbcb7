/**
 * `observer_slot` to HUD slot. The spec's HUD slots are 1 to 9, then 0 (the number keys an
 * observer presses). CS:GO numbered observer_slot the same way; CS2 numbers it 0 to 9, where 0 is
 * the first player (key 1). So CS2's slot s is HUD slot (s + 1) mod 10.
 *
 * Which game sent a frame is told by `provider.version` where that is certain: CS:GO's builds ended
 * at 1.38.8.1 (version 13881, the csgo_legacy branch keeps it) and CS2's public builds are 1.40 and
 * later (14000 and up). Anything else (a build between, or no provider section) follows the
 * operator's setting, CS2 by default. docs/game-data.md has the rule and its sources.
 */
import type { SlotNumbering } from '../protocol/game.ts';

export const LAST_CSGO_VERSION = 13881;
export const FIRST_CS2_VERSION = 14000;

export interface Numbering {
  numbering: SlotNumbering;
  from: 'version' | 'setting';
}

export function numberingOf(version: number | undefined, setting: SlotNumbering): Numbering {
  if (version !== undefined && version <= LAST_CSGO_VERSION) return { numbering: 'csgo', from: 'version' };
  if (version !== undefined && version >= FIRST_CS2_VERSION) return { numbering: 'cs2', from: 'version' };
  return { numbering: setting, from: 'setting' };
}

/** The HUD slot (1..9, 0) of an observer_slot, or null when it is not one of the ten. */
export function hudSlot(observerSlot: number | undefined, numbering: SlotNumbering): number | null {
  if (observerSlot === undefined || !Number.isInteger(observerSlot)) return null;
  if (observerSlot < 0 || observerSlot > 9) return null;
  return numbering === 'cs2' ? (observerSlot + 1) % 10 : observerSlot;
}

/** The order of the roster: 1 to 9, then 0. */
export const slotOrder = (slot: number) => (slot === 0 ? 10 : slot);
