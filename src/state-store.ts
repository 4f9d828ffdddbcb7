import { open, readFile, rename } from 'node:fs/promises';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Logger } from 'pino';
import { Writer } from 'steno';
import type { SavedState } from './saved-state.ts';
import { SAVED_STATE_VERSION, SavedStateSchema } from './saved-state.ts';

const checkSavedState = TypeCompiler.Compile(SavedStateSchema);

/** How long a written state may wait for fsync: a kill loses nothing, a power cut at most this much. */
const FSYNC_DELAY_MS = 1_000;

/**
 * The state file. Writes are atomic (steno writes a temporary file and renames it) and grouped:
 * every change made before the next turn of the event loop goes out in one write, and a command
 * answers only once its change has been handed to the operating system.
 */
export class StateStore {
  readonly #writer: Writer;
  #pending: Promise<void> | null = null;
  #writing: Promise<void> = Promise.resolve();
  #fsyncTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly file: string,
    private readonly collect: () => SavedState,
    private readonly log: Logger,
  ) {
    this.#writer = new Writer(file);
  }

  /** Loads the saved state; a corrupt, unreadable or other-version file is moved aside, never fatal. */
  static async load(file: string, log: Logger): Promise<SavedState | null> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      await moveAside(file, 'unreadable', log, (error as Error).message);
      return null;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      await moveAside(file, 'corrupt', log, `not JSON: ${(error as Error).message}`);
      return null;
    }
    const version = (data as { version?: unknown } | null)?.version;
    if (version !== SAVED_STATE_VERSION) {
      await moveAside(
        file,
        `v${String(version)}`,
        log,
        `format version ${String(version)}, this build reads ${SAVED_STATE_VERSION}`,
      );
      return null;
    }
    if (!checkSavedState.Check(data)) {
      const error = checkSavedState.Errors(data).First();
      await moveAside(
        file,
        'invalid',
        log,
        `${error?.path || '/'}: ${error?.message ?? 'does not match the format'}`,
      );
      return null;
    }
    return data;
  }

  /**
   * Asks for a write of the current state; resolves once that state is with the operating system.
   * One write at a time: the next one starts when the previous has finished and takes every change
   * made meanwhile. (Handing steno a write while one runs would chain the first caller's promise to
   * every write queued behind it, so under steady load an answer could wait for seconds.)
   */
  requestSave(): Promise<void> {
    this.#pending ??= this.#writing
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        this.#pending = null;
        this.#writing = this.#write();
        return this.#writing;
      });
    return this.#pending;
  }

  /** Resolves when every change requested so far has been written. */
  saved(): Promise<void> {
    return this.#pending ?? this.#writing;
  }

  /** Writes now and syncs to disk: on shutdown. */
  async flush(): Promise<void> {
    await this.saved();
    await this.#write();
    await this.#fsync();
  }

  async #write(): Promise<void> {
    try {
      await this.#writer.write(`${JSON.stringify(this.collect(), null, 1)}\n`);
      this.#fsyncTimer ??= setTimeout(() => void this.#fsync(), FSYNC_DELAY_MS).unref();
    } catch (error) {
      this.log.error({ err: error, file: this.file }, 'could not save the state');
    }
  }

  async #fsync(): Promise<void> {
    if (this.#fsyncTimer) clearTimeout(this.#fsyncTimer);
    this.#fsyncTimer = null;
    try {
      const handle = await open(this.file, 'r');
      await handle.sync().finally(() => handle.close());
    } catch (error) {
      this.log.warn({ err: error, file: this.file }, 'could not sync the state file to disk');
    }
  }
}

export async function moveAside(file: string, reason: string, log: Logger, detail: string): Promise<void> {
  const aside = `${file}.${reason}-${new Date().toISOString().replaceAll(':', '-')}`;
  try {
    await rename(file, aside);
    log.warn(
      { file, movedTo: aside, reason: detail },
      `saved state ${file} is not usable (${detail}): moved aside to ${aside}, starting from defaults`,
    );
  } catch (error) {
    log.error(
      { err: error, file },
      `saved state ${file} is not usable (${detail}) and could not be moved aside`,
    );
  }
}
