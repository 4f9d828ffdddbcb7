import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOURNAL_FILE, STATE_FILE } from '../../src/persistence/data-dir.ts';
import { encodeRecord } from '../../src/persistence/journal-format.ts';
import type { SavedState } from '../../src/persistence/saved-state.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { FaultyFiles } from '../helpers/faulty-files.ts';

/** A saved document as a clean shutdown writes it. */
async function savedDocument(): Promise<SavedState> {
  const dataDir = await tempDir();
  const server = await build({ dataDir });
  await command(server, 'set_teams', { teamA: { name: 'Vitality' }, teamB: { name: 'MOUZ' } });
  await server.close();
  return JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8'));
}

/** A record as the store writes it: the parts one write changed. */
const changeRecord = (revision: number, parts: Partial<SavedState>) =>
  encodeRecord(Buffer.from(JSON.stringify({ revision, savedAt: new Date().toISOString(), parts })));

const asideOf = async (dataDir: string, label: string) =>
  (await readdir(dataDir)).filter((name) => name.startsWith(`${JOURNAL_FILE}.${label}-`));

describe('a damaged journal costs what is damaged, no more', () => {
  it('a flipped byte in a middle record costs that record: the 21 valid records after it apply, the file is kept aside', async () => {
    const doc = await savedDocument();
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(doc));
    const shown = { ...doc.panels, scoreboard: { visible: true, hideAt: null } };
    const hidden = { ...doc.panels, scoreboard: { visible: false, hideAt: null } };
    const damaged = changeRecord(13, { panels: hidden, match: { ...doc.match, eventName: 'damaged' } });
    damaged[40] = (damaged[40] as number) ^ 0x01;
    const later = Array.from({ length: 21 }, (_, index) =>
      changeRecord(14 + index, { match: { ...doc.match, eventName: `later ${index + 1}` } }),
    );
    const journal = Buffer.concat([
      changeRecord(11, { match: { ...doc.match, eventName: 'first' } }),
      changeRecord(12, { panels: shown }),
      damaged,
      ...later,
    ]);
    await writeFile(join(dataDir, JOURNAL_FILE), journal);
    const logs: string[] = [];
    const server = await build({ dataDir, logSink: (line) => logs.push(line) });
    // The match from the last record that holds it; the panels, changed only in the damaged record,
    // as the record before it left them.
    expect((await get(server, '/api/match')).body.match).toMatchObject({
      eventName: 'later 21',
      teamA: { name: 'Vitality' },
    });
    expect((await get(server, '/api/state')).body.state).toMatchObject({
      revision: 34,
      scoreboardVisible: true,
    });
    const copies = await asideOf(dataDir, 'damaged');
    expect(copies).toHaveLength(1);
    expect(await readFile(join(dataDir, copies[0] as string))).toEqual(journal);
    const warning = logs.find((line) => line.includes('torn or damaged record'));
    expect(warning).toContain(join(dataDir, JOURNAL_FILE));
    expect(warning).toContain(`${damaged.length} bytes at ${journal.indexOf(damaged)}`);
    expect(warning).toContain(copies[0]);
    // What the start made of it is saved: the next start has the same.
    await server.close();
    const again = await build({ dataDir });
    expect((await get(again, '/api/match')).body.match.eventName).toBe('later 21');
  });

  it('a record with a valid checksum that is not JSON costs that record: the rest applies, the file is kept as found', async () => {
    const doc = await savedDocument();
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(doc));
    const shown = { ...doc.panels, scoreboard: { visible: true, hideAt: null } };
    const journal = Buffer.concat([
      changeRecord(11, { match: { ...doc.match, eventName: 'first' } }),
      encodeRecord(Buffer.from('{"revision":12,"parts":{"match":')),
      changeRecord(13, { panels: shown }),
    ]);
    await writeFile(join(dataDir, JOURNAL_FILE), journal);
    const logs: string[] = [];
    const server = await build({ dataDir, logSink: (line) => logs.push(line) });
    expect((await get(server, '/api/match')).body.match.eventName).toBe('first');
    expect((await get(server, '/api/state')).body.state).toMatchObject({
      revision: 13,
      scoreboardVisible: true,
    });
    const copies = await asideOf(dataDir, 'as-found');
    expect(copies).toHaveLength(1);
    expect(await readFile(join(dataDir, copies[0] as string))).toEqual(journal);
    expect(logs.some((line) => line.includes('record 2: not JSON') && line.includes(JOURNAL_FILE))).toBe(
      true,
    );
  });

  it('a journal that is a directory is moved aside, named; the service starts from the snapshot', async () => {
    const doc = await savedDocument();
    const dataDir = await tempDir();
    await writeFile(
      join(dataDir, STATE_FILE),
      JSON.stringify({ ...doc, match: { ...doc.match, eventName: 'snapshot' } }),
    );
    await mkdir(join(dataDir, JOURNAL_FILE));
    await writeFile(join(dataDir, JOURNAL_FILE, 'inside'), 'kept');
    const logs: string[] = [];
    const server = await build({ dataDir, logSink: (line) => logs.push(line) });
    expect((await get(server, '/api/match')).body.match.eventName).toBe('snapshot');
    const aside = await asideOf(dataDir, 'unreadable');
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dataDir, aside[0] as string, 'inside'), 'utf8')).toBe('kept');
    expect(
      logs.some(
        (line) => line.includes(`${join(dataDir, JOURNAL_FILE)} is not usable`) && line.includes('EISDIR'),
      ),
    ).toBe(true);
    await command(server, 'set_event_name', { name: 'after' });
    await server.close();
    const again = await build({ dataDir });
    expect((await get(again, '/api/match')).body.match.eventName).toBe('after');
  });

  it('a start that cannot write its files fails naming the file', async () => {
    const dataDir = await tempDir();
    const faults = new FaultyFiles();
    faults.failWith = 'EIO';
    await expect(build({ dataDir, storeFiles: faults.wrap })).rejects.toThrow(
      `cannot write ${join(dataDir, STATE_FILE)}: the disk reported an input/output error (EIO)`,
    );
  });
});
