/**
 * Whoever shows the storage status cannot break the store: a fault of the status listener when the
 * disk works again is logged, the write that succeeded stays acknowledged, and nothing is thrown out
 * of the write's callback (which would end the process).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { STATE_FILE } from '../../src/persistence/data-dir.ts';
import type { SavedState } from '../../src/persistence/saved-state.ts';
import { StateStore } from '../../src/persistence/state-store.ts';
import { realFiles } from '../../src/persistence/store-files.ts';
import { build, tempDir } from '../helpers/build.ts';
import { FaultyFiles } from '../helpers/faulty-files.ts';

describe('the storage status', () => {
  it('a listener that throws on "works again" is logged; the write stays acknowledged', async () => {
    // A real saved document, from a real server's data directory.
    const written = await tempDir();
    const server = await build({ dataDir: written });
    await server.close();
    const template = JSON.parse(await readFile(join(written, STATE_FILE), 'utf8')) as SavedState;

    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
    const faults = new FaultyFiles();
    const store = await StateStore.open(await tempDir(), faults.wrap(realFiles), logger);
    let doc: SavedState = { ...template, savedAt: '' };
    const statuses: boolean[] = [];
    await store.start({
      collect: () => ({ ...doc, savedAt: '' }),
      rollback: () => {},
      status: (status) => {
        statuses.push(status.ok);
        if (status.ok) throw new Error('the status panel broke');
      },
    });

    faults.failWith = 'EIO';
    doc = { ...doc, revision: doc.revision + 1, match: { ...doc.match, eventName: 'first' } };
    await expect(store.requestSave()).rejects.toMatchObject({ code: 'storage_failed' });
    expect(store.status.ok).toBe(false);

    faults.failWith = null;
    doc = { ...doc, revision: doc.revision + 1, match: { ...doc.match, eventName: 'second' } };
    await expect(store.requestSave()).resolves.toBeUndefined();
    expect(statuses).toEqual([false, true]);
    expect(store.status.ok).toBe(true);
    expect(lines.some((line) => line.includes('showing the storage status failed'))).toBe(true);
    await store.close();
  });
});
