import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TObject, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { isPlainObject } from '../core/coerce.ts';
import type { StorageStatus } from '../protocol/answers.ts';
import type { Check } from '../protocol/compiled-check.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { ServiceError } from '../protocol/errors.ts';
import { SettingsSchema } from '../protocol/settings.ts';
import type { AsideWords } from './aside.ts';
import { asideName, moveAside, syncedCopy } from './aside.ts';
import { JOURNAL_FILE, STATE_FILE } from './data-dir.ts';
import { describeFsError, reasonOf } from './errno-words.ts';
import { type DamagedRange, decodeRecords, encodeRecord } from './journal-format.ts';
import type { LoadedState, SavedState } from './saved-state.ts';
import { SAVED_STATE_VERSION, SavedStateSchema } from './saved-state.ts';
import type { JournalFile, StoreFiles } from './store-files.ts';

/** The saved state's files moved or copied aside (aside.ts): a start goes on from the defaults. */
const SAVED_STATE_ASIDE: AsideWords = { what: 'saved state', instead: 'starting from defaults' };

/** How long a written record may wait for fdatasync: a kill loses nothing, a power cut at most this much. */
const SYNC_DELAY_MS = 1_000;
/**
 * A journal longer than this is folded into a new snapshot and starts again. A compaction holds the
 * writes behind it for three fsyncs; a record holds the parts one write changed (about 250 bytes for
 * the panels, 1 KiB for the match), so this is one every 8,000 to 33,000 writes, and replaying 8 MiB at
 * start-up (checksums and JSON included) takes well under a second.
 */
const COMPACT_AT_BYTES = 8 * 1024 * 1024;
/** While storage fails, how often the store tries to write again by itself. */
const RETRY_MS = 500;

export const STORAGE_OK: StorageStatus = { ok: true, reason: null };

/** What the store has done since start: for the bench and the operator's curiosity. */
export interface StoreCounters {
  /** Journal records written (one per group commit). */
  appends: number;
  /** fsync/fdatasync calls: the journal's, and per snapshot the file's and its directory's. */
  syncs: number;
  /** Snapshots written (start, compaction, recovery, shutdown). */
  snapshots: number;
  /** Bytes in the journal now. */
  journalBytes: number;
}

interface Batch {
  promise: Promise<void>;
  resolve(): void;
  reject(error: ServiceError): void;
  settled: boolean;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: ServiceError) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A save nobody waits for (a timer's change) must not become an unhandled rejection: the failure
  // is reported through the storage status.
  promise.catch(() => {});
  const batch: Batch = {
    promise,
    settled: false,
    resolve: () => {
      batch.settled = true;
      resolve();
    },
    reject: (error) => {
      batch.settled = true;
      reject(error);
    },
  };
  return batch;
}

/**
 * The time a document is saved at, stamped by the store on the document it writes: collect() leaves
 * it empty. `new Date().toISOString()` costs about 1 µs, and most group commits of a busy toggle
 * write nothing (two toggles cancel out), so it is paid only for a write (issue 18). Set in place,
 * not by a copy: spreading the document into a new one with the time costs as much again.
 */
function stamp(doc: SavedState): SavedState {
  doc.savedAt = new Date().toISOString();
  return doc;
}

export interface StoreHooks {
  /** The current state as a new document, its `savedAt` left empty for the store to stamp (see stamp). */
  collect(): SavedState;
  /** A write failed: put memory back to this last durable state (synchronously). */
  rollback(durable: SavedState): void;
  /** Storage started or stopped failing. */
  status(status: StorageStatus): void;
}

/**
 * The saved state: a snapshot (state.json, replaced atomically) plus a journal of the changes since
 * (state.journal, one framed record per flush holding the parts that flush changed). Writes are grouped: every
 * change made while a flush is in flight goes out together in the next one, and a command answers
 * only once the flush holding its change has been handed to the operating system. A failed flush is
 * not acknowledged to anyone who waited for it, and memory goes back to the last durable state.
 * See docs/persistence.md.
 */
export class StateStore {
  readonly snapshotFile: string;
  readonly journalFile: string;
  #hooks: StoreHooks | null = null;
  #journal: JournalFile;
  /** Bytes of the journal known to hold whole records. */
  #size: number;
  /** A failed append may have left part of a record after #size: cut it before the next one. */
  #torn = false;
  #durable: SavedState | null = null;
  readonly #loaded: LoadedState | null;
  /** The batch taking changes; it is written once the one in flight is done. */
  #next: Batch | null = null;
  #writing: Batch | null = null;
  #tail: Promise<void> = Promise.resolve();
  /** Steps in the queue not finished yet: while there are any, a flush waits its turn behind them. */
  #queued = 0;
  #status: StorageStatus = STORAGE_OK;
  #syncTimer: NodeJS.Timeout | null = null;
  /** The journal's fdatasync in flight: it runs beside the writes, not in their queue. */
  #syncing: Promise<void> | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #closed = false;
  #counters = { appends: 0, syncs: 0, snapshots: 0 };
  #written = new WrittenParts();

  private constructor(
    dataDir: string,
    private readonly files: StoreFiles,
    private readonly log: Logger,
    journal: JournalFile,
    size: number,
    loaded: LoadedState | null,
  ) {
    this.snapshotFile = join(dataDir, STATE_FILE);
    this.journalFile = join(dataDir, JOURNAL_FILE);
    this.#journal = journal;
    this.#size = size;
    this.#loaded = loaded;
  }

  /**
   * Start-up: the snapshot, then every whole record of the journal in order. A torn or damaged
   * record costs itself only (the journal as found is copied aside); a corrupt, unreadable or
   * other-version file is moved aside; an error that still stops the start names its file.
   */
  static async open(dataDir: string, files: StoreFiles, log: Logger): Promise<StateStore> {
    const snapshotFile = join(dataDir, STATE_FILE);
    const journalFile = join(dataDir, JOURNAL_FILE);
    let loaded = await loadSnapshot(snapshotFile, log);
    let size = 0;
    const data = await readJournal(journalFile, log);
    if (data) {
      const { records, validBytes, damaged } = decodeRecords(data);
      size = validBytes;
      if (damaged.length > 0) await keepDamaged(journalFile, log, damaged, records.length);
      if (records.length > 0) {
        const replayed = replay(loaded, records);
        if (typeof replayed === 'string') {
          await moveAside(journalFile, 'invalid', log, replayed, SAVED_STATE_ASIDE);
          size = 0;
        } else if (replayed) {
          if (replayed.lost.length > 0) {
            await keepCopy(journalFile, log, replayed.lost, 'each part keeps its value before that change');
          }
          loaded = replayed.state;
        }
      }
    }
    const journal = await naming(journalFile, 'open', files.openJournal(journalFile));
    // Damage in the middle stays until start() folds the journal into a snapshot (the copy kept it).
    if (data && size < data.length) await naming(journalFile, 'cut', journal.truncate(size));
    return new StateStore(dataDir, files, log, journal, size, loaded);
  }

  /** The state found at start-up (null: start from the defaults; a part it lacks starts from its own). */
  get loaded(): LoadedState | null {
    return this.#loaded;
  }

  /** The state as saved now: what the running service writes, or, before start, the state loaded. */
  current(): SavedState | LoadedState | null {
    return this.#hooks ? this.#hooks.collect() : this.#loaded;
  }

  get status(): StorageStatus {
    return this.#status;
  }

  get counters(): StoreCounters {
    return { ...this.#counters, journalBytes: this.#size };
  }

  /**
   * Connects the store to the running service and writes a fresh snapshot (the journal starts
   * empty): the state the service starts from is durable, and a data directory that cannot be
   * written fails here, at start-up.
   */
  async start(hooks: StoreHooks): Promise<void> {
    this.#hooks = hooks;
    const doc = stamp(hooks.collect());
    this.#durable = doc;
    this.#written.remember(doc);
    await naming(this.snapshotFile, 'write', this.#compact());
  }

  /** The state changed: resolves once the flush holding the change reached the operating system. */
  requestSave(): Promise<void> {
    if (!this.#next) {
      const batch = newBatch();
      this.#next = batch;
      // After the event loop's poll phase: every request read in this turn of the loop has made its
      // change by then, and they all go out in this one write (the write itself is synchronous, so
      // without this each command would have a write of its own).
      setImmediate(() => this.#startFlush(batch));
    }
    return this.#next.promise;
  }

  /**
   * What an answer waits for: the flush that makes the current in-memory state durable, or null when
   * it already is. A command that changed nothing still waits for the write of the state it reports.
   */
  durable(): Promise<void> | null {
    return (this.#next ?? this.#writing)?.promise ?? null;
  }

  /** The saved state cannot be used after all: both files are moved aside, the service starts from defaults. */
  async discard(label: string, detail: string): Promise<void> {
    await this.#syncing;
    await this.#journal.close();
    await moveAside(this.snapshotFile, label, this.log, detail, SAVED_STATE_ASIDE);
    await moveAside(this.journalFile, label, this.log, detail, SAVED_STATE_ASIDE);
    this.#journal = await this.files.openJournal(this.journalFile);
    this.#size = 0;
    this.#durable = null;
    this.#written = new WrittenParts();
  }

  /** Start-up failed: lets go of the journal without writing. */
  async abandon(): Promise<void> {
    this.#closed = true;
    this.#clearTimers();
    await this.#syncing;
    await this.#journal.close().catch(() => {});
  }

  /**
   * The last state, written and synced, as a snapshot. Throws, saying what is lost, when the last
   * state or the snapshot could not be written.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearTimers();
    const last = this.requestSave();
    // The last write is queued on the next turn of the loop: wait for it, then for the queue.
    await last.then(
      () => {},
      () => {},
    );
    await this.#tail;
    let lastFailed: ServiceError | null = null;
    await last.catch(
      () =>
        (lastFailed = new ServiceError(
          'storage_failed',
          `could not save the last state at shutdown: ${this.#status.reason}; ` +
            'changes not acknowledged to a client are lost, every acknowledged one is saved',
        )),
    );
    try {
      await this.#compact();
    } catch (error) {
      lastFailed ??= new ServiceError(
        'storage_failed',
        `could not write the snapshot ${this.snapshotFile}: ${reasonOf(error, this.snapshotFile)}; ` +
          `every acknowledged change is in the journal ${this.journalFile}`,
      );
    } finally {
      await this.#syncing;
      await this.#journal.close().catch(() => {});
    }
    if (lastFailed) throw lastFailed;
  }

  #enqueue(step: () => Promise<void>): void {
    this.#queued++;
    const run = () =>
      step().finally(() => {
        this.#queued--;
      });
    this.#tail = this.#tail.then(run, run);
  }

  /**
   * A group commit. With nothing queued (no compaction, retry or unfinished write) the record is
   * written and the batch answered right here, in the setImmediate callback: the write is
   * synchronous, and the chain of promises that used to carry it through the queue cost more than
   * the write itself (issue 18). Otherwise it waits its turn, so writes still go out in order.
   */
  #startFlush(batch: Batch): void {
    if (this.#queued > 0) {
      this.#enqueue(async () => this.#flush(batch));
      return;
    }
    const pending = this.#flush(batch);
    // A write that could not finish at once (a torn record cut first, a test's held write): what is
    // queued after it waits for it.
    if (pending) this.#enqueue(() => pending);
  }

  /** Writes the batch's record; returns a promise only when the write could not finish at once. */
  #flush(batch: Batch): Promise<void> | undefined {
    if (this.#next === batch) this.#next = null;
    // Rejected already: it held changes built on a write that failed.
    if (batch.settled) return;
    this.#writing = batch;
    let wrote: boolean | Promise<boolean>;
    try {
      wrote = this.#append();
    } catch (error) {
      this.#flushFailed(batch, error);
      return;
    }
    if (typeof wrote === 'boolean') {
      this.#flushed(batch, wrote);
      return;
    }
    return wrote.then(
      (done) => this.#flushed(batch, done),
      (error: unknown) => this.#flushFailed(batch, error),
    );
  }

  #flushed(batch: Batch, wrote: boolean): void {
    this.#writing = null;
    batch.resolve();
    // Only a write proves the disk works again (a batch with nothing new to write proves nothing).
    if (wrote && !this.#status.ok) this.#setStatus(STORAGE_OK);
    // Queued: the writes asked for from now on wait behind the new snapshot.
    if (this.#size >= COMPACT_AT_BYTES)
      this.#enqueue(() => this.#compact().catch((error) => this.#failed(error)));
  }

  #flushFailed(batch: Batch, error: unknown): void {
    this.#failed(error, batch);
    this.#writing = null;
  }

  /**
   * Appends the current state unless it is the durable one: whether it wrote, or a promise of that
   * when the write could not finish at once.
   */
  #append(): boolean | Promise<boolean> {
    const hooks = this.#hooks;
    if (!hooks) throw new Error('the state store is not started');
    const doc = hooks.collect();
    // Only the parts that differ from the last write go into the record.
    const changes = this.#written.changes(doc);
    if (changes.length === 0) return false;
    // Rare (only after a failed write): a promise is fine here.
    if (this.#torn) {
      return this.#journal.truncate(this.#size).then(() => {
        this.#torn = false;
        return this.#write(doc, changes);
      });
    }
    return this.#write(doc, changes);
  }

  #write(doc: SavedState, changes: PartChange[]): true | Promise<true> {
    stamp(doc);
    const parts = changes.map(({ key, json }) => `${JSON.stringify(key)}:${json}`).join(',');
    const text = `{"revision":${doc.revision},"savedAt":${JSON.stringify(doc.savedAt)},"parts":{${parts}}}`;
    const frame = encodeRecord(Buffer.from(text));
    let appending: void | Promise<void>;
    try {
      appending = this.#journal.append(frame);
    } catch (error) {
      this.#torn = true;
      throw error;
    }
    if (!appending) return this.#appended(doc, changes, frame.length);
    return appending.then(
      () => this.#appended(doc, changes, frame.length),
      (error: unknown) => {
        this.#torn = true;
        throw error;
      },
    );
  }

  /** The record of `changes` is with the operating system. */
  #appended(doc: SavedState, changes: PartChange[], bytes: number): true {
    this.#size += bytes;
    this.#counters.appends++;
    this.#durable = doc;
    this.#written.commit(changes);
    this.#syncTimer ??= setTimeout(() => this.#sync(), SYNC_DELAY_MS).unref();
    return true;
  }

  /**
   * fdatasync of the journal, beside the queue of writes: an fsync here takes 0.3 ms at the median
   * but 15 ms at p90 and 150 ms at p99 on a busy machine (docs/persistence.md), and a write waiting
   * behind it would hold its command's answer that long. A record appended while it runs is covered
   * by this sync or by the next one.
   */
  #sync(): void {
    this.#syncTimer = null;
    if (this.#closed) return;
    if (this.#syncing) {
      this.#syncTimer = setTimeout(() => this.#sync(), SYNC_DELAY_MS).unref();
      return;
    }
    this.#counters.syncs++;
    this.#syncing = this.#journal
      .sync()
      .catch((error: unknown) => this.#failed(error))
      .finally(() => {
        this.#syncing = null;
      });
  }

  /** Writes the durable state as the snapshot and empties the journal. */
  async #compact(): Promise<void> {
    const durable = this.#durable;
    if (!durable) return;
    if (this.#syncTimer) clearTimeout(this.#syncTimer);
    this.#syncTimer = null;
    this.#counters.syncs += 3;
    this.#counters.snapshots++;
    await this.files.writeSnapshot(this.snapshotFile, `${JSON.stringify(durable, null, 1)}\n`);
    // A crash between the rename and this truncation leaves records whose last is the snapshot.
    await this.#journal.truncate(0);
    await this.#journal.sync();
    this.#size = 0;
    this.#torn = false;
  }

  /**
   * A write failed: nobody who waited for it (or for the batch queued behind it) is acknowledged,
   * memory goes back to the last durable state, and the store keeps trying until the disk takes
   * writes again.
   */
  #failed(error: unknown, batch?: Batch): void {
    const reason = reasonOf(error, this.journalFile);
    // Once per cause, not once per retry.
    if (reason !== this.#status.reason) this.log.error({ err: error }, `storage is failing: ${reason}`);
    const failure = storageFailed(reason);
    this.#setStatus({ ok: false, reason });
    if (batch) {
      const later = this.#next;
      this.#next = null;
      batch.reject(failure);
      later?.reject(failure);
      if (this.#durable && !this.#closed && this.#hooks) {
        this.#hooks.rollback(this.#durable);
        // Memory is the durable state now, though its documents may list fields in another order
        // (the machines rebuild their context from it): without this the next flush would see a
        // change, fail again and roll back again, for ever.
        this.#written.remember(this.#hooks.collect());
      }
    }
    if (!this.#closed)
      this.#retryTimer ??= setTimeout(() => this.#enqueue(() => this.#retry()), RETRY_MS).unref();
  }

  async #retry(): Promise<void> {
    this.#retryTimer = null;
    if (this.#status.ok || this.#closed) return;
    try {
      await this.#compact();
      this.log.info('storage works again');
      this.#setStatus(STORAGE_OK);
    } catch (error) {
      this.#failed(error);
    }
  }

  #setStatus(status: StorageStatus): void {
    if (status.ok === this.#status.ok && status.reason === this.#status.reason) return;
    this.#status = status;
    // A fault of whoever shows the status is not the disk's: it is logged, and it can neither undo a
    // write that succeeded nor escape a write's setImmediate callback (that would end the process).
    try {
      this.#hooks?.status(status);
    } catch (error) {
      this.log.error({ err: error }, 'showing the storage status failed');
    }
  }

  #clearTimers(): void {
    if (this.#syncTimer) clearTimeout(this.#syncTimer);
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#syncTimer = null;
    this.#retryTimer = null;
  }
}

type PartKey = Exclude<keyof SavedState, 'savedAt' | 'revision'>;

interface PartChange {
  key: PartKey;
  part: unknown;
  json: string;
}

/**
 * The parts of the saved state (settings, match, panels …) as last written, each with its JSON. The
 * machines never change a context in place, so a part that is the same object as last time did not
 * change and is not serialised again; one that is a new object is compared by its JSON.
 */
class WrittenParts {
  readonly #parts = new Map<PartKey, { part: unknown; json: string }>();

  /** Everything in `doc` is what is on disk (start, rollback). */
  remember(doc: SavedState): void {
    this.#parts.clear();
    for (const [key, part] of partsOf(doc)) this.#parts.set(key, { part, json: JSON.stringify(part) });
  }

  /** The parts of `doc` that differ from the written ones. */
  changes(doc: SavedState): PartChange[] {
    const changes: PartChange[] = [];
    // A loop over the document's own keys, not partsOf: no array of pairs on every group commit.
    for (const name in doc) {
      const key = name as keyof SavedState;
      const part = doc[key];
      if (!isPart(key, part)) continue;
      const written = this.#parts.get(key);
      if (written?.part === part) continue;
      const json = JSON.stringify(part);
      if (written?.json === json) {
        // The same content in a new object: compare this one by identity next time.
        written.part = part;
        continue;
      }
      changes.push({ key, part, json });
    }
    return changes;
  }

  /** These changes are on disk now. */
  commit(changes: PartChange[]): void {
    for (const { key, part, json } of changes) this.#parts.set(key, { part, json });
  }
}

/** The parts are what a record can hold: all but the revision and the time, which every record has. */
const isPart = (key: keyof SavedState, part: unknown): key is PartKey =>
  key !== 'savedAt' && key !== 'revision' && part !== undefined;

function partsOf(doc: SavedState): Array<[PartKey, unknown]> {
  const parts: Array<[PartKey, unknown]> = [];
  for (const key of Object.keys(doc) as Array<keyof SavedState>) {
    if (isPart(key, doc[key])) parts.push([key, doc[key]]);
  }
  return parts;
}

/**
 * The state the journal's records lead to from `start` (the snapshot, or null): a record holds the
 * parts a write changed (`{ revision, savedAt, parts }`), or, in journals of earlier versions, a
 * whole document.
 */
export function replay(start: LoadedState | null, records: Buffer[]): Checked | string | null {
  let doc: Record<string, unknown> | null = start;
  const lost: string[] = [];
  for (const [index, record] of records.entries()) {
    const data = parseJson(record.toString('utf8'));
    // A record that cannot be read at all costs that record: the parts it changed keep their value
    // before it, and the records after it apply (each holds the whole of every part it changes).
    if (data instanceof Error) {
      lost.push(`record ${index + 1}: ${data.message}`);
      continue;
    }
    const { parts, revision, savedAt } = (data ?? {}) as Record<string, unknown>;
    // A record of earlier versions is a whole document: a change of every part it holds.
    const changed = parts === undefined ? data : parts;
    if (!isPlainObject(changed) || !SAVED_PARTS.checks.get('revision')?.Check(revision)) {
      lost.push(`record ${index + 1}: not a record of changes (no parts or no revision)`);
      continue;
    }
    if (!doc && parts !== undefined) {
      return `record ${index + 1} holds changes, and there is no saved state before it`;
    }
    const before: Record<string, unknown> = doc ?? {};
    // A changed part that cannot be read keeps its value before the change (a setting: that setting).
    const notRead: string[] = [];
    const change = keepValid(SAVED_PARTS, changed, '', notRead, false);
    for (const key of Object.keys(NESTED_PARTS)) {
      const partly = key in change && !SAVED_PARTS.checks.get(key)?.Check(changed[key]);
      if (partly) change[key] = { ...(before[key] as object), ...(change[key] as object) };
    }
    lost.push(...notRead.map((problem) => `record ${index + 1}: ${problem}`));
    doc = { ...before, ...change, revision, savedAt };
  }
  if (doc === start) {
    if (start) return { state: start, lost };
    return lost.length > 0 ? lost.join('; ') : null;
  }
  const result = checked(doc);
  if (result instanceof Unusable) return result.problem;
  // What the snapshot lacked was named when it was read: here only what the records lack or broke.
  return { state: result.state, lost: start ? lost : [...lost, ...result.lost] };
}

export const storageFailed = (reason: string) =>
  new ServiceError(
    'storage_failed',
    `not saved: ${reason}. Nothing changed; the service retries by itself and takes commands again once the disk takes writes`,
  );

/**
 * The journal's bytes, or null when there is none. One that cannot be read (a directory, no
 * permission) is moved aside like any unusable file; if even that fails, the start fails naming it.
 */
async function readJournal(file: string, log: Logger): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    const problem = describeFsError(error);
    if (!(await moveAside(file, 'unreadable', log, `cannot be read: ${problem}`, SAVED_STATE_ASIDE))) {
      throw new Error(`the journal ${file} cannot be read (${problem}) nor moved aside`, { cause: error });
    }
    return null;
  }
}

/** A start-up step on `file`: its failure says which file and what was done to it. */
async function naming<T>(file: string, doing: string, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    throw new Error(`cannot ${doing} ${file}: ${describeFsError(error)}`, { cause: error });
  }
}

/**
 * The journal holds bytes that are not whole records: a torn tail (a crash or power cut in the
 * middle of an append) or damage. The file as found is copied aside before anything is cut or
 * folded, and the warning says where the bytes were and how many whole records are kept.
 */
async function keepDamaged(file: string, log: Logger, damaged: DamagedRange[], kept: number): Promise<void> {
  const copy = asideName(file, 'damaged');
  const where = damaged.map(({ at, bytes }) => `${bytes} bytes at ${at}`).join(', ');
  const copied = await syncedCopy(file, copy, log, SAVED_STATE_ASIDE.what);
  log.warn(
    { file, damaged, records: kept, ...(copied ? { copy } : {}) },
    `journal ${file} holds a torn or damaged record (${where}): dropped those bytes, kept the ${kept} whole records around them${copied ? ` (the file as it was: ${copy})` : ''}`,
  );
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch (error) {
    return new Error(`not JSON: ${(error as Error).message}`);
  }
};

/** Why a saved document cannot be used, and the label its file is moved aside with. */
class Unusable {
  constructor(
    readonly label: string,
    readonly problem: string,
  ) {}
}

/** A document a start can use: the parts of it that are valid, and those left out, with why. */
export interface Checked {
  state: LoadedState;
  lost: string[];
}

/** The parts of a document, each with its own check, and which of them a whole document must have. */
interface Parts {
  checks: ReadonlyMap<string, Check<TSchema>>;
  required: ReadonlySet<string>;
}
const checksOf = (schema: TObject): Parts => ({
  checks: new Map(Object.entries(schema.properties).map(([key, part]) => [key, compiledCheck(part)])),
  required: new Set(schema.required ?? []),
});
const SAVED_PARTS = checksOf(SavedStateSchema);
/** The parts of a part that are worth keeping one by one: the settings (OBS, sources, branding …). */
const NESTED_PARTS: Readonly<Record<string, Parts>> = { settings: checksOf(SettingsSchema) };

/**
 * The properties of `value` that pass their own check; each one that does not is left out and named
 * in `lost`, or, for a part with parts of its own, kept with its valid parts. Of a `whole` document
 * a missing part is named too; a change holds only what it changed.
 */
function keepValid(
  parts: Parts,
  value: Record<string, unknown>,
  at: string,
  lost: string[],
  whole: boolean,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, check] of parts.checks) {
    if (!(key in value)) {
      if (whole && parts.required.has(key)) lost.push(`${at}/${key}: missing`);
      continue;
    }
    const part = value[key];
    if (check.Check(part)) {
      kept[key] = part;
      continue;
    }
    const nested = at === '' ? NESTED_PARTS[key] : undefined;
    if (nested && isPlainObject(part)) {
      kept[key] = keepValid(nested, part, `/${key}`, lost, whole);
      continue;
    }
    const error = check.Errors(part).First();
    lost.push(`${at}/${key}${error?.path ?? ''}: ${error?.message ?? 'does not match the format'}`);
  }
  return kept;
}

/**
 * The document, or why it cannot be used. A part that cannot be read (a hand edit, a value a bug let
 * through) costs that part alone: the others are kept, and it starts from its default.
 */
function checked(data: unknown): Checked | Unusable {
  if (data instanceof Error) return new Unusable('corrupt', data.message);
  const version = (data as { version?: unknown } | null)?.version;
  if (version !== SAVED_STATE_VERSION) {
    return new Unusable(
      `v${String(version)}`,
      `format version ${String(version)}, this build reads ${SAVED_STATE_VERSION}`,
    );
  }
  // Checked twice a start at most (the snapshot, the state after the journal): TypeBox's interpreter
  // takes under a millisecond where compiling the check first took ten, in the start-up's path.
  if (Value.Check(SavedStateSchema, data)) return { state: data, lost: [] };
  const lost: string[] = [];
  const state = keepValid(SAVED_PARTS, data as Record<string, unknown>, '', lost, true);
  // Without its revision the clients' order would break: nothing of it can be trusted.
  if (!SAVED_PARTS.checks.get('revision')?.Check(state.revision)) {
    return new Unusable('invalid', `its revision cannot be read (${lost.join('; ')})`);
  }
  return { state: state as LoadedState, lost };
}

/**
 * Loads the snapshot; a corrupt, unreadable or other-version file is moved aside, never fatal. One
 * with parts that cannot be read is copied aside as it was, and its other parts are kept.
 */
async function loadSnapshot(file: string, log: Logger): Promise<LoadedState | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    await moveAside(file, 'unreadable', log, (error as Error).message, SAVED_STATE_ASIDE);
    return null;
  }
  const doc = checked(parseJson(text));
  if (doc instanceof Unusable) {
    await moveAside(file, doc.label, log, doc.problem, SAVED_STATE_ASIDE);
    return null;
  }
  if (doc.lost.length > 0) {
    await keepCopy(file, log, doc.lost, 'each starts from its default unless the journal sets it');
  }
  return doc.state;
}

/**
 * A file whose parts `lost` cannot be read and were left out: a copy of it as it was is kept beside
 * it (synced, so that it outlasts the snapshot written next), and the warning says what happened.
 */
async function keepCopy(file: string, log: Logger, lost: string[], outcome: string): Promise<void> {
  const copy = asideName(file, 'as-found');
  const kept = await syncedCopy(file, copy, log, SAVED_STATE_ASIDE.what);
  log.warn(
    { file, lost, ...(kept ? { copy } : {}) },
    `saved state ${file}: left out what cannot be read (${lost.join('; ')}): ${outcome}; the rest is kept${kept ? ` (the file as it was: ${copy})` : ''}`,
  );
}
