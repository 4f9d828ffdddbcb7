import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JOURNAL_FILE, STATE_FILE } from '../../src/persistence/data-dir.ts';
import { decodeRecords } from '../../src/persistence/journal-format.ts';
import type { SavedState } from '../../src/persistence/saved-state.ts';
import { replay } from '../../src/persistence/state-store.ts';

const readIfPresent = (file: string) =>
  readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });

/** What a start would load from `dataDir`: the snapshot with the journal's whole records applied. */
export async function readSavedState(dataDir: string): Promise<SavedState | null> {
  const snapshotText = await readIfPresent(join(dataDir, STATE_FILE));
  const snapshot = snapshotText ? (JSON.parse(snapshotText.toString('utf8')) as SavedState) : null;
  const journal = await readIfPresent(join(dataDir, JOURNAL_FILE));
  const replayed = replay(snapshot, journal ? decodeRecords(journal).records : []);
  if (typeof replayed === 'string') throw new Error(`the journal in ${dataDir} is not usable: ${replayed}`);
  if (replayed && replayed.lost.length > 0) {
    throw new Error(
      `the saved state in ${dataDir} has parts that cannot be read: ${replayed.lost.join('; ')}`,
    );
  }
  return (replayed?.state as SavedState | undefined) ?? null;
}
