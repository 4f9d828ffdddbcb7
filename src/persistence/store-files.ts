/**
 * The file operations of the state store, behind one small interface: the store decides what to
 * write and when, this does the system calls. Tests wrap it to make a write fail the way a broken
 * disk does (EIO, EROFS) where a real file system cannot be made to.
 */

import { writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-file.ts';
import { OWNER_ONLY } from './data-dir.ts';

/** The journal, open for appending. */
export interface JournalFile {
  /**
   * Appends the whole buffer; a failure may leave part of it written. The real file writes at once
   * and returns nothing (a failure throws), so that a group commit costs no promise; a test's file
   * may return a promise to hold the write or fail it later.
   */
  append(data: Buffer): void | Promise<void>;
  truncate(size: number): Promise<void>;
  /** Data to the disk (fdatasync). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreFiles {
  openJournal(path: string): Promise<JournalFile>;
  /** Replaces `path` atomically and durably (atomic-file.ts), through `snapshotTempOf(path)`. */
  writeSnapshot(path: string, text: string): Promise<void>;
}

export const snapshotTempOf = (path: string) => `${path}.tmp`;

export const realFiles: StoreFiles = {
  async openJournal(path) {
    const handle = await open(path, 'a', OWNER_ONLY);
    return {
      // A synchronous write: a record of about 1 KiB into the page cache costs 4 µs of CPU this way
      // against 29 µs through libuv's thread pool (a thread woken and a completion queued), and one
      // is made per group commit, so up to one per command for a client that sends one at a time.
      append: (data) => {
        let offset = 0;
        while (offset < data.length) offset += writeSync(handle.fd, data, offset, data.length - offset);
      },
      truncate: (size) => handle.truncate(size),
      sync: () => handle.datasync(),
      close: () => handle.close(),
    };
  },
  writeSnapshot: (path, text) =>
    writeFileAtomic(path, text, { mode: OWNER_ONLY, temp: snapshotTempOf(path) }),
};
