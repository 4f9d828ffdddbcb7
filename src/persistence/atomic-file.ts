/**
 * The one way the service replaces a file whole: a temporary file beside it, its data to the disk,
 * a rename over the old one, then the directory to the disk. A reader, or a start after a crash or
 * a power cut, finds the old file or the new one, never half of one; and once the call returned, a
 * power cut does not bring the old one back (the rename is only durable once the directory is
 * synced, which write-file-atomic does not do: the state store truncates its journal behind a
 * snapshot, and a snapshot's rename lost with the journal already cut would lose the state).
 *
 * The temporary file's name is the caller's to choose when it must be recognisable (a start removes
 * leftovers of an interrupted write by name: data-dir.ts); by default `<file>.tmp`. Writes to one
 * file from this process land in the order they were asked for, one at a time, so two of them never
 * share the temporary file.
 */

import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's permissions (owner-only for everything in the data directory). */
  mode: number;
  /** The temporary file, in the same directory (a rename is atomic only within one file system). */
  temp?: string;
}

export const tempOf = (file: string) => `${file}.tmp`;

/** The write under way per file (absolute path), which the next write to it waits for. */
const pending = new Map<string, Promise<void>>();

/** Replaces `file` with `data`, atomically and durably. On a failure the old file is untouched. */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  { mode, temp = tempOf(file) }: AtomicWriteOptions,
): Promise<void> {
  const key = resolve(file);
  const write = (pending.get(key) ?? Promise.resolve()).then(() => replace(file, data, mode, temp));
  const settled = write.catch(() => {});
  pending.set(key, settled);
  void settled.then(() => {
    if (pending.get(key) === settled) pending.delete(key);
  });
  return write;
}

async function replace(file: string, data: string | Uint8Array, mode: number, temp: string): Promise<void> {
  try {
    const handle = await open(temp, 'w', mode);
    try {
      await handle.writeFile(data);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  await syncDirectory(dirname(file));
}

/**
 * The same, synchronously: for a write that must be on the disk before the caller goes on within
 * the same turn (the revision lease, taken while a revision is handed out).
 */
export function writeFileAtomicSync(
  file: string,
  data: string | Uint8Array,
  { mode, temp = tempOf(file) }: AtomicWriteOptions,
): void {
  try {
    writeFileSync(temp, data, { mode, flush: true });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  let dir: number;
  try {
    dir = openSync(dirname(file), 'r');
  } catch {
    return; // Windows cannot open a directory: the rename is still atomic there.
  }
  try {
    fsyncSync(dir);
  } catch (error) {
    if (!cannotSyncDirectory(error)) throw error;
  } finally {
    closeSync(dir);
  }
}

/** Makes a rename durable. Some platforms (Windows) cannot open a directory: the rename is still atomic. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!cannotSyncDirectory(error)) throw error;
  } finally {
    await handle.close();
  }
}

/** A file system that cannot sync a directory says so with one of these: the rename still happened. */
const cannotSyncDirectory = (error: unknown) =>
  ['EINVAL', 'EISDIR', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '');
