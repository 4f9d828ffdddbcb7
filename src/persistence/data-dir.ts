/**
 * The data directory: where it is, and what start-up does to it before anything is read. It holds
 * secrets (the access token, the sign-in key, the game's cfg token; state.json and the journal hold the OBS password), so it is created
 * owner-only and the files in it are narrowed to owner-only.
 */
import { access, chmod, constants, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import envPaths from 'env-paths';
import { writeFileAtomic } from './atomic-file.ts';
import { describeFsError } from './errno-words.ts';
import { decodeRecords, HEADER_BYTES } from './journal-format.ts';

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
/** The database of teams and players (src/persistence/teams-file.ts). */
export const TEAMS_FILE = 'teams.json';
export const LOCK_FILE = 'server.lock';
/** From which revision a start goes on (src/persistence/revision-lease.ts). */
export const LEASE_FILE = 'revision.lease';

/** The files replaced whole through atomic-file.ts (and, before it, write-file-atomic). */
const SECRET_FILES = [
  TOKEN_FILE,
  SIGN_IN_KEY_FILE,
  VIEW_KEY_FILE,
  GAME_TOKEN_FILE,
  SESSIONS_FILE,
  TEAMS_FILE,
];
const escaped = (name: string) => name.replaceAll('.', '\\.');

/**
 * Temporary files of an interrupted write: atomic-file.ts's `<file>.tmp` (`state.json.tmp`,
 * `revision.lease.tmp`, `access-token.tmp` …), write-file-atomic's `access-token.<number>` and the
 * like from earlier versions, steno's `.state.json.tmp` from earlier still, the lock's
 * `server.lock.<pid>`, a copy kept aside being rewritten (`state.json.corrupt-<time>.tmp`, see
 * scrubOldCopies).
 */
const LEFTOVER = new RegExp(
  `^(?:(?:${STATE_FILE}|${JOURNAL_FILE})\\..+Z\\.tmp|(?:${SECRET_FILES.map(escaped).join('|')})\\.(?:\\d+|tmp)|${STATE_FILE}\\.tmp|\\.${STATE_FILE}\\.tmp|${LOCK_FILE}\\.\\d+|${LEASE_FILE}\\.tmp)$`,
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
 * Removes temporary files left by an interrupted write and makes the directory and everything in it
 * owner-only: a directory left 0755 and files left 0644 by an earlier version (steno wrote state.json
 * with the default mode, and a file moved or copied aside keeps its mode) are narrowed here. Only
 * under the directory's lock: another server's temporary files are not leftovers.
 */
export async function tidyDataDir(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (LEFTOVER.test(name)) await rm(join(dir, name), { force: true });
  }
  if (!POSIX) return;
  await narrow(dir, OWNER_ONLY_DIR);
  // Each entry is a stat (and a chmod at most) of its own: side by side, not one after another.
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(
    entries.map((entry) => {
      // Symbolic links are left alone: chmod would change what they point to, outside the directory.
      if (entry.isDirectory()) return narrow(join(dir, entry.name), OWNER_ONLY_DIR);
      if (entry.isFile()) return narrow(join(dir, entry.name), OWNER_ONLY);
      return undefined;
    }),
  );
}

async function narrow(path: string, mode: number): Promise<void> {
  try {
    if (((await stat(path)).mode & 0o077) !== 0) await chmod(path, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * A copy of the saved state kept aside at some start (`state.json.corrupt-<time>`,
 * `state.journal.as-found-<time>` …): the names of aside.ts, the same since the
 * first version.
 */
const ASIDE_COPY = new RegExp(
  String.raw`^(?:${STATE_FILE}|${JOURNAL_FILE})\.[a-z0-9-]+-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z$`,
);
/** A password in saved JSON, as the settings hold it (`"password":"…"`); its text in group 2. */
const PASSWORD_TEXT = /("password"\s*:\s*")((?:[^"\\]|\\.)*)"/g;

/** The copies of the saved state kept aside by earlier starts, before this start adds its own. */
export async function oldCopiesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && ASIDE_COPY.test(entry.name)).map(({ name }) => name);
}

/**
 * The copies kept aside hold the OBS password in clear, as it was when they were made. Once the
 * live state holds a password (`livePassword` not empty: what the operator set is saved in
 * state.json), every password in the copies `names` (made by earlier starts) is overwritten with as
 * many `*`, in place of the same bytes so that offsets named in a warning stay true; in a copy of
 * the journal, each record that was whole gets its checksum again, so it still reads. When the live
 * state has none (it started from defaults after damage), a copy may be the only record of what the
 * operator set, so it is kept as it is (owner-only). Returns the copies rewritten.
 */
export async function scrubOldCopies(dir: string, names: string[], livePassword: string): Promise<string[]> {
  if (livePassword === '') return [];
  const scrubbed: string[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const data = await readFile(file);
    // latin1: one character per byte, so a replacement keeps every byte offset.
    const text = data.toString('latin1');
    const masked = text.replace(
      PASSWORD_TEXT,
      (_, before: string, secret: string) => `${before}${'*'.repeat(secret.length)}"`,
    );
    if (masked === text) continue;
    const out = Buffer.from(masked, 'latin1');
    if (name.startsWith(JOURNAL_FILE)) {
      for (const record of decodeRecords(data).records) {
        const start = record.byteOffset - data.byteOffset;
        out.writeUInt32LE(crc32(out.subarray(start, start + record.length)), start - HEADER_BYTES + 4);
      }
    }
    await writeFileAtomic(file, out, { mode: OWNER_ONLY });
    scrubbed.push(file);
  }
  return scrubbed;
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
