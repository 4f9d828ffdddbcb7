/**
 * The only lines the game console ever receives from the observer, built from a whitelist of command
 * words and integers checked for range. Nothing from a frame or a user is copied into a line: a
 * player is named by his Steam account id, computed from the SteamID64 digits, never by the name the
 * game reports. docs/observer.md says why these commands.
 */

/** The console's dialect: CS2 (the default) or CS:GO (the csgo_legacy branch, for the recorded frames). */
export type ConsoleDialect = 'cs2' | 'csgo';

/** SteamID64 of account id 0 (individual account, public universe): SteamID64 = this + account id. */
const STEAMID64_BASE = 76_561_197_960_265_728n;
const ACCOUNT_ID_MAX = 0xffff_ffff;

/** Every command word the link may send, with the range of its one integer argument. */
export const COMMAND_WORDS = {
  /** CS:GO: moves the spectator camera to the player with that account id (Valve Developer Community). */
  spec_player_by_accountid: { min: 1, max: ACCOUNT_ID_MAX },
  /** CS:GO and CS2: keeps the camera on that account id; 0 lets the observer choose again. */
  spec_lock_to_accountid: { min: 0, max: ACCOUNT_ID_MAX },
} as const;
export type CommandWord = keyof typeof COMMAND_WORDS;

/** The Steam account id of a SteamID64 ("76561198034202275" → 73936547), or null if it is not one. */
export function accountIdOf(steamid: string): number | null {
  if (!/^7656119[0-9]{10}$/.test(steamid)) return null;
  const id = BigInt(steamid) - STEAMID64_BASE;
  return id >= 1n && id <= BigInt(ACCOUNT_ID_MAX) ? Number(id) : null;
}

/** One console line, or null when the word is not in the whitelist or the value out of its range. */
export function consoleLine(word: string, value: number): string | null {
  if (!Object.hasOwn(COMMAND_WORDS, word)) return null;
  const { min, max } = COMMAND_WORDS[word as CommandWord];
  if (!Number.isSafeInteger(value) || value < min || value > max) return null;
  return `${word} ${value}`;
}

const LINE = /^([a-z_]+) (0|[1-9][0-9]{0,9})$/;

/** The last gate before the socket: a line the whitelist would build, and nothing else. */
export function isAllowedLine(line: string): boolean {
  const match = LINE.exec(line);
  if (!match) return false;
  return consoleLine(match[1] as string, Number(match[2])) === line;
}

/**
 * The lines of one cut to `steamid`, or null when the player has no account id the console can take
 * (a bot's "2", a malformed id): the link then sends nothing rather than a guess.
 * - CS2: `spec_lock_to_accountid <id>`, the account-id command CS2 still has; `spec_player_by_accountid`
 *   is gone there (ValveSoftware/csgo-osx-linux#3596), and `spec_player <n>` wants the player's
 *   connection slot (user id + 1), which the game state data does not carry.
 * - CS:GO: `spec_player_by_accountid <id>` moves the camera, `spec_lock_to_accountid <id>` keeps it
 *   there (the pair cs-demo-manager uses for CS:GO).
 */
export function cutLines(steamid: string, dialect: ConsoleDialect): string[] | null {
  const id = accountIdOf(steamid);
  if (id === null) return null;
  const lines =
    dialect === 'csgo'
      ? [consoleLine('spec_player_by_accountid', id), consoleLine('spec_lock_to_accountid', id)]
      : [consoleLine('spec_lock_to_accountid', id)];
  return lines.every((line): line is string => line !== null) ? lines : null;
}

/** Hands the camera back to the human observer: sent when auto mode ends. */
export const RELEASE_LINE = consoleLine('spec_lock_to_accountid', 0) as string;
