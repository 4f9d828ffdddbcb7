/**
 * The one way a file is replaced whole (src/persistence/atomic-file.ts): the mode asked for, writes
 * to one file in the order asked, a failed write leaves the old file and no temporary one.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../src/persistence/atomic-file.ts';
import { tempDir } from '../helpers/build.ts';

describe('writeFileAtomic', () => {
  it('replaces the file whole with the mode asked for, and leaves no temporary file', async () => {
    const dir = await tempDir();
    const file = join(dir, 'state.json');
    await writeFileAtomic(file, 'old', { mode: 0o600 });
    await writeFileAtomic(file, Buffer.from('new'), { mode: 0o600 });
    expect(await readFile(file, 'utf8')).toBe('new');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('lands writes to one file in the order they were asked for', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sessions.json');
    const texts = Array.from({ length: 20 }, (_, i) => `${'x'.repeat(100_000 - i * 1000)}${i}`);
    await Promise.all(texts.map((text) => writeFileAtomic(file, text, { mode: 0o600 })));
    expect(await readFile(file, 'utf8')).toBe(texts.at(-1));
    expect(await readdir(dir)).toEqual(['sessions.json']);
  });

  it('keeps the old file and removes its temporary one when the write fails', async () => {
    const dir = await tempDir();
    const file = join(dir, 'view-key');
    await writeFileAtomic(file, 'kept', { mode: 0o600 });
    // A directory where the rename would put the file: the rename fails after the data was written.
    const blocked = join(dir, 'blocked');
    await mkdir(blocked);
    await expect(writeFileAtomic(blocked, 'lost', { mode: 0o600 })).rejects.toThrow(
      /EISDIR|EEXIST|ENOTEMPTY/,
    );
    expect(await readdir(dir)).toEqual(['blocked', 'view-key']);
    expect(await readFile(file, 'utf8')).toBe('kept');
    // The next write to the same file is not held up by the failed one.
    await writeFileAtomic(file, 'next', { mode: 0o600 });
    expect(await readFile(file, 'utf8')).toBe('next');
  });

  it('writes through the temporary file the caller names, synchronously too', async () => {
    const dir = await tempDir();
    const file = join(dir, 'revision.lease');
    writeFileAtomicSync(file, '{"startAt":4096}\n', { mode: 0o600 });
    expect(await readFile(file, 'utf8')).toBe('{"startAt":4096}\n');
    const blocked = join(dir, 'blocked');
    await mkdir(blocked);
    expect(() => writeFileAtomicSync(blocked, 'x', { mode: 0o600, temp: join(dir, 'aside') })).toThrow();
    expect((await readdir(dir)).sort()).toEqual(['blocked', 'revision.lease']);
  });
});
