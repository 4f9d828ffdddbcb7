import type { JournalFile, StoreFiles } from '../../src/persistence/store-files.ts';

/** A system call error as Node reports it. */
export const errnoError = (code: string, path: string) =>
  Object.assign(new Error(`${code}: simulated, write '${path}'`), { code, path, syscall: 'write' });

/**
 * The store's real file operations with two handles for tests: `failWith` makes every write fail
 * the way a broken disk does (EIO, EROFS), and `hold()` keeps the next appends waiting until released,
 * so a test can act while a write is in flight.
 */
export class FaultyFiles {
  failWith: string | null = null;
  #gate: Promise<void> | null = null;
  #appending: Array<() => void> = [];

  readonly wrap = (real: StoreFiles): StoreFiles => ({
    openJournal: async (path) => this.#journal(path, await real.openJournal(path)),
    writeSnapshot: async (path, text) => {
      this.#check(path);
      await real.writeSnapshot(path, text);
    },
  });

  /** Appends wait from now until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.#gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.#gate = null;
      release();
    };
  }

  /** Resolves when the next append has started (and waits at the gate, if held). */
  appendStarted(): Promise<void> {
    return new Promise<void>((resolve) => this.#appending.push(resolve));
  }

  #check(path: string): void {
    if (this.failWith) throw errnoError(this.failWith, path);
  }

  #journal(path: string, real: JournalFile): JournalFile {
    return {
      append: async (data) => {
        for (const wake of this.#appending.splice(0)) wake();
        await this.#gate;
        this.#check(path);
        await real.append(data);
      },
      truncate: async (size) => {
        this.#check(path);
        await real.truncate(size);
      },
      sync: async () => {
        this.#check(path);
        await real.sync();
      },
      close: () => real.close(),
    };
  }
}
