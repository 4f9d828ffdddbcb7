/**
 * One server per data directory: a lock file holding the owner's pid, its start time and its port.
 * A lock whose process is gone (killed, crashed) is stale and taken over, so a kill -9 never leaves
 * the directory locked; the start time tells a reused pid from the server that wrote the lock.
 */
import { link, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataDirError, LOCK_FILE } from '../data-dir.ts';

interface LockInfo {
  pid: number;
  /** The process's start time from /proc (Linux), null elsewhere. */
  started: string | null;
  port: number | null;
}

export class DataDirLock {
  #released = false;

  private constructor(
    readonly file: string,
    private readonly info: LockInfo,
  ) {}

  /** Takes the lock of `dir`, or fails naming the directory and the running server's port. */
  static async acquire(dir: string): Promise<DataDirLock> {
    const file = join(dir, LOCK_FILE);
    const info: LockInfo = { pid: process.pid, started: await startTimeOf(process.pid), port: null };
    for (let attempt = 0; attempt < 3; attempt++) {
      // Written aside, then linked into place: the lock never exists without its content.
      const temp = `${file}.${process.pid}`;
      await writeFile(temp, `${JSON.stringify(info)}\n`, { mode: 0o600 });
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
        const port =
          holder.port === null ? 'its port is not known yet: it is starting' : `port ${holder.port}`;
        throw new DataDirError(
          `the data directory ${dir} is in use by another hud-automation server (pid ${holder.pid}, ${port}): ` +
            'stop it first, or give this one another --data-dir',
        );
      }
      // Stale: its process is gone.
      await rm(file, { force: true });
    }
    throw new DataDirError(`could not take the lock ${file}: other servers keep starting on ${dir}`);
  }

  /** Records the port once the server listens: a second server's refusal names it. */
  async setPort(port: number): Promise<void> {
    if (this.#released) return;
    this.info.port = port;
    const handle = await open(this.file, 'r+');
    try {
      await handle.truncate(0);
      await handle.write(`${JSON.stringify(this.info)}\n`, 0);
    } finally {
      await handle.close();
    }
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
    return { pid: info.pid, started: info.started ?? null, port: info.port ?? null };
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
