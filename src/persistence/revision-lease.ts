/**
 * The revision lease. A change's events go out when it is committed, before its record is written
 * (docs/persistence.md, "Events: before the write"), and changes that are not saved at all (the OBS
 * connection, the observer's director, the live game view) make revisions too. So after a kill -9 or
 * a power cut, clients may have seen revisions above the saved one. The lease file says from which
 * revision a start goes on: every revision sent is below it, and a start continues at
 * max(saved revision, lease). It is written ahead, a block of revisions at a time, so sending an
 * event costs no write but once a block.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { writeFileAtomicSync } from './atomic-file.ts';
import { LEASE_FILE, OWNER_ONLY } from './data-dir.ts';
import { describeFsError } from './errno-words.ts';

/**
 * Revisions per lease. A restart after a crash skips what is left of the block: at most this many
 * numbers of 2^53; at the game's 20 frames a second a block lasts about 14 hours.
 */
export const LEASE_BLOCK = 1_000_000;

interface LeaseDocument {
  /** No revision at or above it was sent; a start goes on from here at least. */
  startAt: number;
}

export class RevisionLease {
  readonly file: string;
  /** On disk (or being written): every revision sent is below it. */
  #startAt: number;
  #failed: string | null = null;

  private constructor(
    dataDir: string,
    startAt: number,
    private readonly block: number,
    private readonly log: Logger,
  ) {
    this.file = join(dataDir, LEASE_FILE);
    this.#startAt = startAt;
  }

  /**
   * Reads the lease: the revision a start goes on from, at least. None (a new data directory, or one of
   * an earlier version): 0. One that cannot be read: the saved revision plus a whole block, with a
   * warning naming it (a lease is written whole by a rename, so only damage makes it unreadable).
   */
  static async open(
    dataDir: string,
    savedRevision: number,
    log: Logger,
    block: number = LEASE_BLOCK,
  ): Promise<RevisionLease> {
    const file = join(dataDir, LEASE_FILE);
    let startAt = 0;
    try {
      const doc = JSON.parse(await readFile(file, 'utf8')) as Partial<LeaseDocument>;
      if (!Number.isSafeInteger(doc.startAt) || (doc.startAt as number) < 0)
        throw new Error('no startAt in it');
      startAt = doc.startAt as number;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        startAt = savedRevision + block;
        log.warn(
          { file, err: error },
          `revision lease ${file} cannot be read (${describeFsError(error)}): going on from revision ${startAt}, the saved one plus a whole block`,
        );
      }
    }
    return new RevisionLease(dataDir, startAt, block, log);
  }

  /** The revision a start goes on from, at least: every revision the last run sent is below it. */
  get startAt(): number {
    return this.#startAt;
  }

  /**
   * Start-up: a block above `revision` is taken, durably. Written at once, synchronously, like
   * `cover`: an actor may already send a revision at start (the OBS connection's first state), and
   * two writes of the lease must never be in flight together (they share the temporary file).
   */
  async take(revision: number): Promise<void> {
    const startAt = revision + 1 + this.block;
    writeLeaseSync(this.file, startAt);
    this.#startAt = startAt;
  }

  /**
   * Before `revision` is sent: it must be below the lease on disk. When the block is used up, the
   * next one is written at once, synchronously: one write and two fsyncs per block (a pause of
   * 0.3 ms, 150 ms on a very busy disk, once in a million revisions) buys an event path with no write
   * and no race between a lease being written and one being sent.
   */
  cover(revision: number): void {
    if (revision < this.#startAt) return;
    const startAt = revision + 1 + this.block;
    try {
      writeLeaseSync(this.file, startAt);
      this.#startAt = startAt;
      this.#failed = null;
    } catch (error) {
      // Events go out all the same (the show goes on); a kill before the disk takes the lease can
      // then reuse revisions. Said once per cause.
      const reason = describeFsError(error);
      if (reason !== this.#failed) {
        this.#failed = reason;
        this.log.error(
          { file: this.file, err: error },
          `could not write the revision lease ${this.file} (${reason}): after a crash now, revisions from ${this.#startAt} could be sent again`,
        );
      }
    }
  }

  /**
   * A clean stop: the snapshot holds the last revision sent and its state, so the next start goes
   * on from that revision itself.
   */
  async settle(revision: number): Promise<void> {
    writeLeaseSync(this.file, revision);
    this.#startAt = revision;
  }
}

const textOf = (startAt: number) => `${JSON.stringify({ startAt } satisfies LeaseDocument)}\n`;

/** Never torn, and it outlasts a power cut (atomic-file.ts); `revision.lease.tmp` on the way. */
function writeLeaseSync(file: string, startAt: number): void {
  writeFileAtomicSync(file, textOf(startAt), { mode: OWNER_ONLY });
}
