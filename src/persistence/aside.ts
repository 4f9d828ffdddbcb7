/**
 * Files of the data directory that cannot be used, kept for a person to look at: moved aside
 * (`state.json.corrupt-<time>`), or copied aside as found before what cannot be read is left out
 * (`teams.json.as-found-<time>`). The saved state and the teams file share the names and the steps.
 */
import { copyFile, open, rename } from 'node:fs/promises';
import type { Logger } from 'pino';

/** `<file>.<reason>-<time>`: the names data-dir.ts recognises, the same since the first version. */
export const asideName = (file: string, reason: string) =>
  `${file}.${reason}-${new Date().toISOString().replaceAll(':', '-')}`;

/** Whose file it is and what the start does without it, for the log lines. */
export interface AsideWords {
  /** "saved state", "teams and players". */
  what: string;
  /** What the start does instead: "starting from defaults". */
  instead: string;
  /** Said when the file could not be moved (what happens to it then), if anything. */
  notMoved?: string;
}

/** Moves an unusable file aside; false when it is still there (it could not be moved). */
export async function moveAside(
  file: string,
  reason: string,
  log: Logger,
  detail: string,
  words: AsideWords,
): Promise<boolean> {
  const aside = asideName(file, reason);
  try {
    await rename(file, aside);
    log.warn(
      { file, movedTo: aside, reason: detail },
      `${words.what} ${file} is not usable (${detail}): moved aside to ${aside}, ${words.instead}`,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    log.error(
      { err: error, file },
      `${words.what} ${file} is not usable (${detail}) and could not be moved aside${words.notMoved ? `; ${words.notMoved}` : ''}`,
    );
    return false;
  }
  return true;
}

/** A copy of `file`, synced so that it outlasts the file written next; false (logged) if it could not be made. */
export async function syncedCopy(file: string, copy: string, log: Logger, what: string): Promise<boolean> {
  try {
    await copyFile(file, copy);
    const handle = await open(copy, 'r+');
    await handle.sync().finally(() => handle.close());
    return true;
  } catch (error) {
    log.error({ err: error, file, copy }, `${what} ${file}: could not keep a copy of it at ${copy}`);
    return false;
  }
}
