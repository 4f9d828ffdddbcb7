/**
 * The data directory: where it is, and what start-up does to it before anything is read. It holds
 * secrets (the access token, the sign-in key, the game's cfg token; state.json and the journal hold the OBS password), so it is created
 * owner-only and the files in it are narrowed to owner-only.
 */
import { access, chmod, constants, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';
import { describeFsError } from './errno-words.ts';

/** The mode of every file in the data directory that holds a secret or the state: the owner's alone. */
export const OWNER_ONLY = 0o600;
/** The data directory's own mode. */
const OWNER_ONLY_DIR = 0o700;

export const STATE_FILE = 'state.json';
export const JOURNAL_FILE = 'state.journal';
export const TOKEN_FILE = 'access-token';
export const SIGN_IN_KEY_FILE = 'sign-in-key';
/** The view key: read-only pages and devices (the HUD, the scenes) carry it in their address. */
export const VIEW_KEY_FILE = 'view-key';
/** The operator app's sessions (src/access/sessions.ts). */
export const SESSIONS_FILE = 'sessions.json';
/** The auth token of the game's cfg file (Game State Integration). */
export const GAME_TOKEN_FILE = 'gsi-token';
export const LOCK_FILE = 'server.lock';

/** Files that hold a secret: readable by their owner only. */
const SECRET_FILES = [STATE_FILE, JOURNAL_FILE, TOKEN_FILE, SIGN_IN_KEY_FILE, VIEW_KEY_FILE, GAME_TOKEN_FILE];

/**
 * Temporary files of an interrupted write: write-file-atomic's `access-token.<number>`,
 * `sign-in-key.<number>`, `view-key.<number>` and `gsi-token.<number>`, the store's
 * `state.json.tmp`, steno's `.state.json.tmp` from earlier versions.
 */
const LEFTOVER = new RegExp(
  `^(?:${TOKEN_FILE}\\.\\d+|${SIGN_IN_KEY_FILE}\\.\\d+|${VIEW_KEY_FILE}\\.\\d+|${GAME_TOKEN_FILE}\\.\\d+|${STATE_FILE}\\.tmp|\\.${STATE_FILE}\\.tmp|${LOCK_FILE}\\.\\d+)$`,
);

// Windows has no POSIX modes: there the files rely on the ACL of the user's profile folder.
const POSIX = process.platform !== 'win32';

/** The per-user data directory of the platform (XDG on Linux, Application Support on macOS, AppData on Windows). */
export const defaultDataDir = (): string => envPaths('hud-automation', { suffix: '' }).data;

/** A data directory the service cannot use: the message names it and the cause. */
export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}

/**
 * Creates the directory (owner-only) or checks the existing one. Fails at once, naming the
 * directory, when it cannot be created or written.
 */
export async function createDataDir(dir: string): Promise<void> {
  try {
    await makeDirectory(dir);
  } catch (error) {
    throw new DataDirError(`cannot create the data directory ${dir}: ${describeFsError(error)}`);
  }
  try {
    if (!(await stat(dir)).isDirectory())
      throw new DataDirError(`the data directory ${dir} is not a directory`);
    await access(dir, constants.W_OK);
  } catch (error) {
    if (error instanceof DataDirError) throw error;
    throw new DataDirError(`cannot write to the data directory ${dir}: ${describeFsError(error)}`);
  }
}

/**
 * Removes temporary files left by an interrupted write and narrows the secret files to owner-only.
 * Only under the directory's lock: another server's temporary files are not leftovers.
 */
export async function tidyDataDir(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (LEFTOVER.test(name)) await rm(join(dir, name), { force: true });
  }
  if (!POSIX) return;
  for (const name of SECRET_FILES) {
    const file = join(dir, name);
    try {
      if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, OWNER_ONLY);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * `mkdir -p` with mode 0700. Not Node's `recursive: true`: on a path whose file system refuses the
 * name (ENOENT under /proc) it retries for ever instead of failing.
 */
async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir, { mode: OWNER_ONLY_DIR });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && (await stat(dir)).isDirectory()) return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir || (await exists(parent))) throw error;
    await makeDirectory(parent);
    await mkdir(dir, { mode: OWNER_ONLY_DIR });
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
