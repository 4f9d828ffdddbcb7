import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JOURNAL_FILE, STATE_FILE } from '../../src/data-dir.ts';
import { decodeRecords } from '../../src/persistence/journal-format.ts';
import type { SavedState } from '../../src/saved-state.ts';

const readIfPresent = (file: string) =>
  readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });

/** What a start would load from `dataDir`: the journal's last whole record, else the snapshot. */
export async function readSavedState(dataDir: string): Promise<SavedState | null> {
  const journal = await readIfPresent(join(dataDir, JOURNAL_FILE));
  const last = journal ? decodeRecords(journal).records.at(-1) : undefined;
  if (last) return JSON.parse(last.toString('utf8')) as SavedState;
  const snapshot = await readIfPresent(join(dataDir, STATE_FILE));
  return snapshot ? (JSON.parse(snapshot.toString('utf8')) as SavedState) : null;
}
