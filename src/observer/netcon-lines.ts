/**
 * The only lines the game console ever receives from the observer, built from a whitelist: command
 * words with integers checked for range, and `spec_player "<name>"` only for a name that cannot leave
 * its quotes (machines/observer-strategies.ts `isQuotableName`). Nothing else from a frame or a user is
 * copied into a line. docs/observer.md says why these commands, strategy by strategy.
 */
import {
  accountIdOf,
  type CutStrategy,
  type CutTarget,
  canAddress,
  isQuotableName,
} from '../../machines/observer-strategies.ts';

/** The console's dialect: CS2 (the default) or CS:GO (the csgo_legacy branch, for the recorded frames). */
export type ConsoleDialect = 'cs2' | 'csgo';

const ACCOUNT_ID_MAX = 0xffff_ffff;

/** Every command word the link may send with one integer, with the range of that integer. */
export const COMMAND_WORDS = {
  /** CS:GO: moves the spectator camera to the player with that account id (Valve Developer Community). */
  spec_player_by_accountid: { min: 1, max: ACCOUNT_ID_MAX },
  /** CS:GO and CS2: keeps the camera on that account id; 0 lets the observer choose again. */
  spec_lock_to_accountid: { min: 0, max: ACCOUNT_ID_MAX },
  /** 0 stops the game's own director taking the camera back (HighlighterCS2 sends it first). */
  spec_autodirector: { min: 0, max: 0 },
  /** CS2's first-person ("in-eye") mode is 2 (HighlighterCS2; CS:GO's was 4). */
  spec_mode: { min: 2, max: 2 },
} as const;
export type CommandWord = keyof typeof COMMAND_WORDS;

/** The account id of a SteamID64: one rule for the strategies and the lines (machines/observer-strategies.ts). */
export { accountIdOf };

/** One console line, or null when the word is not in the whitelist or the value out of its range. */
export function consoleLine(word: string, value: number): string | null {
  if (!Object.hasOwn(COMMAND_WORDS, word)) return null;
  const { min, max } = COMMAND_WORDS[word as CommandWord];
  if (!Number.isSafeInteger(value) || value < min || value > max) return null;
  return `${word} ${value}`;
}

/** `spec_player "<name>"`, or null when the name could leave its quotes or read as a slot. */
export function namedLine(name: string): string | null {
  return isQuotableName(name) ? `spec_player "${name}"` : null;
}

const LINE = /^([a-z_]+) (0|[1-9][0-9]{0,9})$/;
const NAMED = /^spec_player "([^"]*)"$/;

/** The last gate before the socket: a line the whitelist would build, and nothing else. */
export function isAllowedLine(line: string): boolean {
  if (typeof line !== 'string') return false;
  const named = NAMED.exec(line);
  if (named) return namedLine(named[1] as string) === line;
  const match = LINE.exec(line);
  if (!match) return false;
  return consoleLine(match[1] as string, Number(match[2])) === line;
}

/**
 * The lines of one cut to `target` by `strategy`, or null when the strategy cannot name this player
 * (a name that could leave its quotes, a bot without an account id): the link then sends nothing
 * rather than a guess. docs/observer.md lists each strategy's sources.
 */
export function cutLines(strategy: CutStrategy, target: CutTarget): string[] | null {
  if (!canAddress(strategy, target)) return null;
  const id = accountIdOf(target.steamid);
  const lines = (() => {
    switch (strategy) {
      case 'name':
        return [consoleLine('spec_autodirector', 0), namedLine(target.name)];
      case 'name_lock':
        return [
          consoleLine('spec_autodirector', 0),
          namedLine(target.name),
          id === null ? null : consoleLine('spec_lock_to_accountid', id),
          consoleLine('spec_mode', 2),
        ];
      case 'lock':
        return [id === null ? null : consoleLine('spec_lock_to_accountid', id)];
      case 'csgo':
        return id === null
          ? [null]
          : [consoleLine('spec_player_by_accountid', id), consoleLine('spec_lock_to_accountid', id)];
    }
  })();
  return lines.every((line): line is string => line !== null) ? lines : null;
}

/** Hands the camera back to the human observer: sent when auto mode ends, if a lock was sent. */
export const RELEASE_LINE = consoleLine('spec_lock_to_accountid', 0) as string;
