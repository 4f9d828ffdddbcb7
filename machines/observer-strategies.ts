/**
 * The ways of moving the game camera to a player, tried in order until the frames show one works
 * (docs/observer.md, "Cut strategies", lists each with its sources). Pure: the machine chooses a
 * strategy; src/observer/netcon-lines.ts turns it into checked console lines.
 */
import type { GameDialect } from './game-rules.ts';

/**
 * - `name`: `spec_player "<name>"` (cs2-observer-toolkit's live cut; observers' binds).
 * - `name_lock`: the choice by name, then the lock on the account and the first-person mode
 *   (HighlighterCS2's order, with the name where it had the slot).
 * - `lock`: `spec_lock_to_accountid <id>` alone (demoparser#103; the observer's line until issue 32).
 * - `csgo`: `spec_player_by_accountid <id>` then the lock (CS:GO only; gone in CS2).
 */
export const CUT_STRATEGIES = ['name', 'name_lock', 'lock', 'csgo'] as const;
export type CutStrategy = (typeof CUT_STRATEGIES)[number];

/** The order a game of each dialect is probed in: the strategies its sources support, likeliest first. */
export const STRATEGY_ORDER: Readonly<Record<GameDialect, readonly CutStrategy[]>> = {
  cs2: ['name', 'name_lock', 'lock'],
  csgo: ['csgo', 'name', 'lock'],
};

/** The player a cut names: the console takes the name (quoted) or the account, never anything else. */
export interface CutTarget {
  steamid: string;
  name: string;
}

/**
 * A name the console reads as one quoted argument and nothing more: letters, marks, digits, spaces
 * and punctuation other than the quote, the semicolon, the backslash, the slash and the apostrophe
 * (the console splits commands on `;` and newlines, ends the argument at `"`; `//` starts a comment).
 * Not starting with a digit: `spec_player` reads a leading number as a slot (observers' notes).
 * At most 64 characters, no space at either end.
 */
const QUOTABLE = /^(?![0-9])(?! )[\p{L}\p{M}\p{N} _\-.!?@#$%^&*()[\]{}|~+=<>,:]{1,64}(?<! )$/u;

export function isQuotableName(name: string): boolean {
  return typeof name === 'string' && QUOTABLE.test(name);
}

/** SteamID64 of account id 0 (individual account, public universe): SteamID64 = this + account id. */
const STEAMID64_BASE = 76_561_197_960_265_728n;

/**
 * The Steam account id of a SteamID64 ("76561198034202275" → 73936547), or null when it names no real
 * account (a bot's "2", id 0, anything below the individual accounts' base).
 */
export function accountIdOf(steamid: string): number | null {
  if (typeof steamid !== 'string' || !/^7656119[0-9]{10}$/.test(steamid)) return null;
  const id = BigInt(steamid) - STEAMID64_BASE;
  return id >= 1n && id <= 0xffff_ffffn ? Number(id) : null;
}

/** Whether the SteamID64 names a real account, one a lock line can name. */
export const hasAccountId = (steamid: string): boolean => accountIdOf(steamid) !== null;

/** Whether the strategy can name this player at all; a strategy that cannot skips him. */
export function canAddress(strategy: CutStrategy, target: CutTarget): boolean {
  switch (strategy) {
    case 'name':
      return isQuotableName(target.name);
    case 'name_lock':
      return isQuotableName(target.name) && hasAccountId(target.steamid);
    case 'lock':
    case 'csgo':
      return hasAccountId(target.steamid);
  }
}

/**
 * The strategy to use for a cut to `target`: the pinned one if the operator pinned one (or none if
 * it cannot name him), the one that worked this game session, else the first of the dialect's order
 * that has not failed yet and can name him (a player it cannot name is skipped, not held against it).
 */
export function strategyFor(
  target: CutTarget,
  choice: {
    dialect: GameDialect;
    pinned: CutStrategy | null;
    working: CutStrategy | null;
    failed: readonly CutStrategy[];
  },
): CutStrategy | null {
  const fixed = choice.pinned ?? choice.working;
  if (fixed) return canAddress(fixed, target) ? fixed : null;
  return (
    STRATEGY_ORDER[choice.dialect].find(
      (strategy) => !choice.failed.includes(strategy) && canAddress(strategy, target),
    ) ?? null
  );
}

/** The strategy a probe tries next, whoever the player (null: every one failed). */
export function nextUntried(dialect: GameDialect, failed: readonly CutStrategy[]): CutStrategy | null {
  return STRATEGY_ORDER[dialect].find((strategy) => !failed.includes(strategy)) ?? null;
}

/** The strategies in words, for the operator: each reads after "Cut to Kyle ". */
export const STRATEGY_TEXT: Readonly<Record<CutStrategy, string>> = {
  name: 'by name (spec_player "name")',
  name_lock: 'by name, then the lock on the account and first-person view',
  lock: 'by the lock on the account (spec_lock_to_accountid)',
  csgo: "by CS:GO's account command (spec_player_by_accountid)",
};
