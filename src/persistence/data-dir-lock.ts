/**
 * One server per data directory: a lock file holding the owner's pid, its start time and its ports.
 * A lock whose process is gone (killed, crashed) is stale and taken over, so a kill -9 never leaves
 * the directory locked; the start time tells a reused pid from the server that wrote the lock.
 * The same file tells other programs (`hud-automation app-url`) where the running server listens:
 * `readRunningServer`.
 */
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';
import { DataDirError, LOCK_FILE, OWNER_ONLY } from './data-dir.ts';

/** Where the server listens; null until it does (and `port` stays null while automation never opened). */
export interface ServerPorts {
  /** The automation server's port. */
  port: number | null;
  /** The application server's port (the operator app, the pages). */
  appPort: number | null;
}

interface LockInfo extends ServerPorts {
  pid: number;
  /** The process's start time from /proc (Linux), null elsewhere. */
  started: string | null;
}

/** The server that holds a data directory's lock, as its lock file says. */
export interface RunningServerInfo extends ServerPorts {
  pid: number;
}

/**
 * The server running on `dir`, or null when none does (no lock, an unreadable one, or a stale one
 * whose process is gone). Its ports are null while it is still starting.
 */
export async function readRunningServer(dir: string): Promise<RunningServerInfo | null> {
  const holder = await readHolder(join(dir, LOCK_FILE));
  if (!holder || !(await isRunning(holder))) return null;
  return { pid: holder.pid, port: holder.port, appPort: holder.appPort };
}

const describePorts = ({ port, appPort }: ServerPorts): string =>
  port === null && appPort === null
    ? 'its ports are not known yet: it is starting'
    : `port ${port ?? 'none (automation switched off)'}, application port ${appPort ?? 'not known yet'}`;

export class DataDirLock {
  #released = false;

  private constructor(
    readonly file: string,
    private readonly info: LockInfo,
  ) {}

  /** Takes the lock of `dir`, or fails naming the directory and the running server's port. */
  static async acquire(dir: string): Promise<DataDirLock> {
    const file = join(dir, LOCK_FILE);
    const info: LockInfo = {
      pid: process.pid,
      started: await startTimeOf(process.pid),
      port: null,
      appPort: null,
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      // Written aside, then linked into place: the lock never exists without its content.
      const temp = `${file}.${process.pid}`;
      await writeFile(temp, `${JSON.stringify(info)}\n`, { mode: OWNER_ONLY });
      try {
        await link(temp, file);
        return new DataDirLock(file, info);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        await rm(temp, { force: true });
      }
      const holder = await readHolder(file);
      if (holder && (await isRunning(holder))) {
        throw new DataDirError(
          `the data directory ${dir} is in use by another hud-automation server (pid ${holder.pid}, ${describePorts(holder)}): ` +
            'stop it first, or give this one another --data-dir',
        );
      }
      // Stale: its process is gone.
      await rm(file, { force: true });
    }
    throw new DataDirError(`could not take the lock ${file}: other servers keep starting on ${dir}`);
  }

  /** Records the ports once the server listens: a second server's refusal names them. */
  async setPorts({ port, appPort }: ServerPorts): Promise<void> {
    if (this.#released) return;
    this.info.port = port;
    this.info.appPort = appPort;
    // Written aside and renamed over the lock, as acquire writes it: a server starting meanwhile
    // never reads an empty lock (which it would take for a stale one).
    await writeFileAtomic(this.file, `${JSON.stringify(this.info)}\n`, {
      mode: OWNER_ONLY,
      temp: `${this.file}.${process.pid}`,
    });
  }

  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    await rm(this.file, { force: true });
  }
}

async function readHolder(file: string): Promise<LockInfo | null> {
  try {
    const info = JSON.parse(await readFile(file, 'utf8')) as Partial<LockInfo>;
    if (typeof info.pid !== 'number') return null;
    const portOf = (value: unknown) => (typeof value === 'number' ? value : null);
    return {
      pid: info.pid,
      started: typeof info.started === 'string' ? info.started : null,
      port: portOf(info.port),
      appPort: portOf(info.appPort),
    };
  } catch {
    // Unreadable or half-written (its writer was killed between create and write): the writer may
    // still be starting, but a lock without a pid cannot be checked, so it counts as stale.
    return null;
  }
}

async function isRunning({ pid, started }: LockInfo): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (started === null) return true;
  const now = await startTimeOf(pid);
  return now === null || now === started;
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
async function startTimeOf(pid: number): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
