import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOURNAL_FILE, SESSIONS_FILE, STATE_FILE, TOKEN_FILE } from '../../src/persistence/data-dir.ts';
import { decodeRecords, encodeRecord } from '../../src/persistence/journal-format.ts';
import type { SavedState } from '../../src/persistence/saved-state.ts';
import { build, command, tempDir } from '../helpers/build.ts';

const PASSWORD = 'hunter2-obs-secret';
const OLDER_PASSWORD = 'an-older-secret';

/** A saved document as a clean shutdown writes it, with an OBS password set. */
async function savedDocument(): Promise<SavedState> {
  const dataDir = await tempDir();
  const server = await build({ dataDir });
  await command(server, 'set_teams', { teamA: { name: 'Vitality' }, teamB: { name: 'MOUZ' } });
  await server.close();
  const doc: SavedState = JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8'));
  return { ...doc, settings: { ...doc.settings, obs: { ...doc.settings.obs, password: PASSWORD } } };
}

const withPassword = (doc: SavedState, password: string) => ({
  ...doc,
  settings: { ...doc.settings, obs: { ...doc.settings.obs, password } },
});

describe.skipIf(process.platform === 'win32')('a data directory left by an earlier version', () => {
  it('is made owner-only with everything in it, and no old copy keeps the OBS password in clear', async () => {
    const doc = await savedDocument();
    const dataDir = join(await tempDir(), 'data');
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    const time = '2026-11-20T10-11-12.345Z';
    const files: Record<string, string | Buffer> = {
      // The live state, as steno wrote it (default mode).
      [STATE_FILE]: JSON.stringify(doc, null, 2),
      [TOKEN_FILE]: 'a'.repeat(43),
      [SESSIONS_FILE]: '[]',
      // Copies moved or kept aside by earlier starts: they kept the 0644 of what they copied.
      [`${STATE_FILE}.corrupt-${time}`]: `${JSON.stringify(withPassword(doc, OLDER_PASSWORD))}\n{`,
      [`${STATE_FILE}.v0-${time}`]: JSON.stringify(doc),
      [`${JOURNAL_FILE}.as-found-${time}`]: encodeRecord(
        Buffer.from(JSON.stringify({ revision: 3, savedAt: time, parts: { settings: doc.settings } })),
      ),
    };
    for (const [name, content] of Object.entries(files)) {
      await writeFile(join(dataDir, name), content, { mode: 0o644 });
      await chmod(join(dataDir, name), 0o644);
    }
    await mkdir(join(dataDir, 'media'), { mode: 0o755 });
    await chmod(join(dataDir, 'media'), 0o755);

    const server = await build({ dataDir });
    // What the operator set is kept: the password is still the live one.
    const settings = (await fetch(`${server.httpUrl}/internal/settings`).then((r) => r.json())) as any;
    expect(JSON.stringify(settings)).toContain('"passwordSet":true');
    await server.close();

    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const names = await readdir(dataDir);
    for (const name of Object.keys(files)) expect(names).toContain(name);
    for (const name of names) {
      const { mode } = await stat(join(dataDir, name));
      expect(mode & 0o777, name).toBe(name === 'media' ? 0o700 : 0o600);
      if (name === 'media') continue;
      const text = (await readFile(join(dataDir, name))).toString('latin1');
      expect(text, name).not.toContain(OLDER_PASSWORD);
      // The live state keeps the operator's password; nothing else holds it in clear.
      if (name === STATE_FILE) expect(text).toContain(PASSWORD);
      else expect(text, name).not.toContain(PASSWORD);
    }
    // A copy keeps everything but the password, byte for byte where it was.
    const copy = await readFile(join(dataDir, `${JOURNAL_FILE}.as-found-${time}`));
    expect(copy.length).toBe((files[`${JOURNAL_FILE}.as-found-${time}`] as Buffer).length);
    expect(copy.toString('latin1')).toContain(`"password":"${'*'.repeat(PASSWORD.length)}"`);
    expect(copy.toString('latin1')).toContain('"url"');
    // Its record still reads: the checksum was made again over the masked payload.
    expect(decodeRecords(copy).records).toHaveLength(1);

    const again = await build({ dataDir });
    const after = (await fetch(`${again.httpUrl}/internal/settings`).then((r) => r.json())) as any;
    expect(JSON.stringify(after)).toContain('"passwordSet":true');
  });
});
