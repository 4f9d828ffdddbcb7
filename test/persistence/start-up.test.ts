import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GAME_TOKEN_FILE,
  JOURNAL_FILE,
  LOCK_FILE,
  SIGN_IN_KEY_FILE,
  STATE_FILE,
  TOKEN_FILE,
  VIEW_KEY_FILE,
} from '../../src/persistence/data-dir.ts';
import { readRunningServer } from '../../src/persistence/data-dir-lock.ts';
import { decodeRecords, encodeRecord } from '../../src/persistence/journal-format.ts';
import type { SavedState } from '../../src/persistence/saved-state.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { post, startCli } from '../helpers/cli-process.ts';

const serve = (dataDir: string) => ['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn'];

/** A saved document as a clean shutdown writes it, with the event name given. */
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

/** A whole-document record, as journals of earlier versions hold them. */
const record = (doc: SavedState, eventName: string, revision: number) =>
  encodeRecord(Buffer.from(JSON.stringify({ ...doc, revision, match: { ...doc.match, eventName } })));

describe('start-up: snapshot + journal', () => {
  it('takes the last whole journal record over the snapshot and drops a torn last record', async () => {
    const doc = await savedDocument();
    const dataDir = await tempDir();
    await writeFile(
      join(dataDir, STATE_FILE),
      JSON.stringify({ ...doc, match: { ...doc.match, eventName: 'snapshot' } }),
    );
    const torn = record(doc, 'torn', 7);
    await writeFile(
      join(dataDir, JOURNAL_FILE),
      Buffer.concat([record(doc, 'first', 5), record(doc, 'second', 6), torn.subarray(0, torn.length - 9)]),
    );
    const logs: string[] = [];
    const server = await build({ dataDir, logSink: (line) => logs.push(line) });
    expect((await get(server, '/api/match')).body.match).toMatchObject({
      eventName: 'second',
      teamA: { name: 'Vitality' },
    });
    expect((await get(server, '/api/state')).body.state.revision).toBe(6);
    expect(logs.some((line) => line.includes('torn or damaged record') && line.includes(JOURNAL_FILE))).toBe(
      true,
    );
    // Start-up folded the journal into a new snapshot.
    expect(JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8')).match.eventName).toBe('second');
    expect((await stat(join(dataDir, JOURNAL_FILE))).size).toBe(0);
    // The next change goes after the last whole record, not after the torn bytes.
    await command(server, 'set_event_name', { name: 'after' });
    await server.close();
    const again = await build({ dataDir });
    expect((await get(again, '/api/match')).body.match.eventName).toBe('after');
  });

  it('a journal record with a damaged checksum costs that record: the records after it apply', async () => {
    const doc = await savedDocument();
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(doc));
    const damaged = record(doc, 'damaged', 9);
    damaged[damaged.length - 3] = 0x20;
    await writeFile(
      join(dataDir, JOURNAL_FILE),
      Buffer.concat([record(doc, 'kept', 8), damaged, record(doc, 'after damage', 10)]),
    );
    const server = await build({ dataDir });
    expect((await get(server, '/api/match')).body.match.eventName).toBe('after damage');
  });
});

describe('start-up: records of changed parts', () => {
  it('applies every whole record in order over the snapshot: each part from the last record that holds it', async () => {
    const doc = await savedDocument();
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(doc));
    const shown = { ...doc.panels, scoreboard: { visible: true, hideAt: null } };
    const torn = changeRecord(13, { match: { ...doc.match, eventName: 'torn' } });
    await writeFile(
      join(dataDir, JOURNAL_FILE),
      Buffer.concat([
        changeRecord(11, { match: { ...doc.match, eventName: 'Major' } }),
        changeRecord(12, { panels: shown }),
        torn.subarray(0, torn.length - 4),
      ]),
    );
    const server = await build({ dataDir });
    expect((await get(server, '/api/match')).body.match).toMatchObject({
      eventName: 'Major',
      teamA: { name: 'Vitality' },
    });
    expect((await get(server, '/api/state')).body.state).toMatchObject({
      revision: 12,
      scoreboardVisible: true,
    });
  });

  it('a journal change that cannot be read is left out: its part keeps the value before it, the rest applies', async () => {
    const saved = await savedDocument();
    // A setting that differs from its default, to tell "kept" from "reset".
    const doc = { ...saved, settings: { ...saved.settings, game: { slotNumbering: 'csgo' as const } } };
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(doc));
    const shown = { ...doc.panels, scoreboard: { visible: true, hideAt: null } };
    await writeFile(
      join(dataDir, JOURNAL_FILE),
      Buffer.concat([
        changeRecord(11, { match: { ...doc.match, eventName: 42 } as never }),
        changeRecord(12, { panels: shown, sceneWindow: { scene: 'versus' } }),
        // Of a settings change, only the setting that cannot be read is left out.
        changeRecord(13, {
          settings: {
            ...doc.settings,
            game: { slotNumbering: 'cs3' },
            obs: { ...doc.settings.obs, password: 'kept' },
          } as never,
        }),
      ]),
    );
    const logs: string[] = [];
    const server = await build({ dataDir, logSink: (line) => logs.push(line) });
    expect((await get(server, '/api/match')).body.match).toMatchObject({
      teamA: { name: 'Vitality' },
      eventName: '',
    });
    expect((await get(server, '/api/state')).body.state).toMatchObject({
      revision: 13,
      scoreboardVisible: true,
      senScene: 'versus',
    });
    expect(server.service.settings.current()).toMatchObject({
      game: { slotNumbering: 'csgo' },
      obs: { password: 'kept' },
    });
    expect(
      logs.some(
        (line) => line.includes('record 1: /match/eventName') && line.includes('record 3: /settings/game'),
      ),
    ).toBe(true);
    // The journal as it was stays beside the data for a look.
    const copies = (await readdir(dataDir)).filter((name) => name.startsWith(`${JOURNAL_FILE}.as-found-`));
    expect(copies).toHaveLength(1);
    expect(decodeRecords(await readFile(join(dataDir, copies[0] as string))).records).toHaveLength(3);
  });

  it('a snapshot part that cannot be read starts from its default; every other part, and every other setting, is kept', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    await command(first, 'set_teams', { teamA: { name: 'Vitality' }, teamB: { name: 'MOUZ' } });
    await command(first, 'show_scoreboard');
    await command(first, 'show_sen_scene', { scene: 'talents' });
    await first.close();
    const doc = JSON.parse(await readFile(join(dataDir, STATE_FILE), 'utf8')) as SavedState;
    // What a bug or a hand edit could leave: a negative score, a broken setting beside good ones.
    const broken = {
      ...doc,
      match: { ...doc.match, maps: [{ map: 'de_dust2', scoreA: -5 }] },
      settings: {
        ...doc.settings,
        obs: { url: 'ws://10.0.0.9:4455', password: 'secret', enabled: true },
        lanMode: 3,
      },
    };
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(broken));
    const logs: string[] = [];
    const server = await build({ dataDir, logSink: (line) => logs.push(line) });
    const match = (await get(server, '/api/match')).body.match;
    expect(match.teamA).toBeNull();
    expect((await get(server, '/api/state')).body.state).toMatchObject({
      revision: doc.revision,
      scoreboardVisible: true,
      senScene: 'talents',
    });
    expect(server.service.settings.current()).toMatchObject({
      lanMode: false,
      obs: { url: 'ws://10.0.0.9:4455', password: 'secret' },
    });
    expect(logs.some((line) => line.includes('/match') && line.includes('/settings/lanMode'))).toBe(true);
    const copies = (await readdir(dataDir)).filter((name) => name.startsWith(`${STATE_FILE}.as-found-`));
    expect(copies).toHaveLength(1);
    expect(JSON.parse(await readFile(join(dataDir, copies[0] as string), 'utf8'))).toEqual(broken);
    // What started is saved whole again: the next start reads every part.
    await server.close();
    const again = await build({ dataDir });
    expect((await get(again, '/api/state')).body.state.senScene).toBe('talents');
    expect(
      (await readdir(dataDir)).filter((name) => name.startsWith(`${STATE_FILE}.as-found-`)),
    ).toHaveLength(1);
  });

  it('a part missing from the snapshot is named and starts from its default; the file is kept as found', async () => {
    const doc = await savedDocument();
    const { settings: _gone, ...withoutSettings } = doc;
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(withoutSettings));
    // A good journal after it applies, and is not blamed for what the snapshot lacks.
    await writeFile(
      join(dataDir, JOURNAL_FILE),
      changeRecord(doc.revision + 1, { sceneWindow: { scene: 'versus' } }),
    );
    const logs: string[] = [];
    const server = await build({ dataDir, logSink: (line) => logs.push(line) });
    expect((await get(server, '/api/match')).body.match.teamA).toEqual({ name: 'Vitality' });
    expect((await get(server, '/api/state')).body.state.senScene).toBe('versus');
    expect((await readdir(dataDir)).some((name) => name.startsWith(`${JOURNAL_FILE}.as-found-`))).toBe(false);
    expect(server.service.settings.current().lanMode).toBe(false);
    expect(logs.some((line) => line.includes('/settings: missing'))).toBe(true);
    expect((await readdir(dataDir)).some((name) => name.startsWith(`${STATE_FILE}.as-found-`))).toBe(true);
  });

  it('a whole-document record (earlier versions) with a part that cannot be read keeps that part as before', async () => {
    const doc = await savedDocument();
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STATE_FILE), JSON.stringify(doc));
    const whole = {
      ...doc,
      revision: 20,
      match: { ...doc.match, eventName: 5 },
      sceneWindow: { scene: 'versus' },
    };
    await writeFile(join(dataDir, JOURNAL_FILE), encodeRecord(Buffer.from(JSON.stringify(whole))));
    const server = await build({ dataDir });
    expect((await get(server, '/api/match')).body.match.teamA).toEqual({ name: 'Vitality' });
    expect((await get(server, '/api/state')).body.state).toMatchObject({ revision: 20, senScene: 'versus' });
  });

  it('a server killed after changes to different parts starts with all of them', async () => {
    const dataDir = await tempDir();
    const first = await startCli(serve(dataDir));
    for (const [action, payload] of [
      ['set_teams', { teamA: { name: 'FaZe' }, teamB: { name: 'NAVI' } }],
      ['set_event_name', { name: 'Cologne' }],
      ['toggle_scoreboard', undefined],
      ['show_sen_scene', { scene: 'versus' }],
      ['set_event_name', { name: 'Cologne Major' }],
    ] as const) {
      expect((await post(first.httpUrl, action, payload)).status).toBe(200);
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const { records } = decodeRecords(await readFile(join(dataDir, JOURNAL_FILE)));
    // One record per answered change, each holding only what it changed: a change of the match with
    // the undo history's entry for it (issue 33).
    expect(records.map((bytes) => Object.keys(JSON.parse(bytes.toString('utf8')).parts))).toEqual([
      ['match', 'history'],
      ['match', 'history'],
      ['panels'],
      ['sceneWindow'],
      ['match', 'history'],
    ]);
    const again = await startCli(serve(dataDir));
    const state = (await (await fetch(`${again.httpUrl}/api/state`)).json()) as Record<string, any>;
    expect(state.state).toMatchObject({ scoreboardVisible: true, senScene: 'versus' });
    const match = (await (await fetch(`${again.httpUrl}/api/match`)).json()) as Record<string, any>;
    expect(match.match).toMatchObject({ eventName: 'Cologne Major', teamA: { name: 'FaZe' } });
    again.child.kill('SIGTERM');
    await again.exited;
  });
});

describe('GET /internal/storage', () => {
  it('counts journal writes and syncs, and shows the journal growing by one record per write', async () => {
    const server = await build({ dataDir: await tempDir() });
    const before = (await get(server, '/internal/storage')).body.storage;
    expect(before).toMatchObject({ ok: true, reason: null, appends: 0, snapshots: 1, journalBytes: 0 });
    await command(server, 'set_event_name', { name: 'one' });
    await command(server, 'set_event_name', { name: 'two' });
    const after = (await get(server, '/internal/storage')).body.storage;
    expect(after.appends).toBe(2);
    expect(after.journalBytes).toBeGreaterThan(0);
    // The same command again changes nothing: nothing is written.
    await command(server, 'set_event_name', { name: 'two' });
    expect((await get(server, '/internal/storage')).body.storage.appends).toBe(2);
  });
});

describe('one server per data directory', () => {
  it('a second server on the same directory refuses to start, naming the directory and the running ports', async () => {
    const dataDir = await tempDir();
    const first = await build({ dataDir });
    await expect(build({ dataDir })).rejects.toThrow(
      `the data directory ${dataDir} is in use by another hud-automation server (pid ${process.pid}, port ${first.port}, application port ${first.applicationPort})`,
    );
    expect(await readRunningServer(dataDir)).toEqual({
      pid: process.pid,
      port: first.port,
      appPort: first.applicationPort,
    });
    // The refused one changed nothing: the first still works and saves.
    expect((await command(first, 'set_event_name', { name: 'first' })).status).toBe(200);
    await first.close();
    const next = await build({ dataDir });
    expect((await get(next, '/api/match')).body.match.eventName).toBe('first');
  });

  it('as processes: the second exits 1 with the message; a killed server leaves no lock behind', async () => {
    const dataDir = await tempDir();
    const first = await startCli(serve(dataDir));
    const port = new URL(first.httpUrl).port;
    await expect(startCli(serve(dataDir))).rejects.toThrow(
      `hud-automation: the data directory ${dataDir} is in use by another hud-automation server (pid ${first.child.pid}, port ${port}, application port `,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    expect(JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: first.child.pid,
      port: Number(port),
    });
    // The lock of a killed server names nobody.
    expect(await readRunningServer(dataDir)).toBe(null);
    const second = await startCli(serve(dataDir));
    expect(await readRunningServer(dataDir)).toEqual({
      pid: second.child.pid,
      port: Number(new URL(second.httpUrl).port),
      appPort: expect.any(Number),
    });
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(await readdir(dataDir)).not.toContain(LOCK_FILE);
    expect(await readRunningServer(dataDir)).toBe(null);
  });
});

describe.skipIf(process.platform === 'win32')('the data directory', () => {
  it('is created owner-only; secret files are narrowed to owner-only and leftovers of interrupted writes removed', async () => {
    const parent = await tempDir();
    const fresh = join(parent, 'new', 'data');
    const server = await build({ dataDir: fresh });
    expect((await stat(fresh)).mode & 0o777).toBe(0o700);
    for (const file of [
      STATE_FILE,
      JOURNAL_FILE,
      TOKEN_FILE,
      SIGN_IN_KEY_FILE,
      VIEW_KEY_FILE,
      GAME_TOKEN_FILE,
    ]) {
      expect((await stat(join(fresh, file))).mode & 0o777, file).toBe(0o600);
    }
    await server.close();

    const old = join(parent, 'old');
    await mkdir(old);
    await writeFile(join(old, TOKEN_FILE), 'a'.repeat(43));
    await writeFile(join(old, GAME_TOKEN_FILE), 'c'.repeat(43));
    await writeFile(join(old, VIEW_KEY_FILE), 'd'.repeat(43));
    await writeFile(join(old, STATE_FILE), await readFile(join(fresh, STATE_FILE)));
    for (const file of [TOKEN_FILE, GAME_TOKEN_FILE, VIEW_KEY_FILE, STATE_FILE])
      await chmod(join(old, file), 0o644);
    const leftovers = [
      `${TOKEN_FILE}.2735104419`,
      `${VIEW_KEY_FILE}.77`,
      `${GAME_TOKEN_FILE}.1234`,
      `${STATE_FILE}.tmp`,
      `.${STATE_FILE}.tmp`,
    ];
    for (const file of leftovers) await writeFile(join(old, file), 'b'.repeat(43));
    const again = await build({ dataDir: old });
    const files = await readdir(old);
    for (const file of leftovers) expect(files).not.toContain(file);
    for (const file of [STATE_FILE, TOKEN_FILE, GAME_TOKEN_FILE, VIEW_KEY_FILE]) {
      expect((await stat(join(old, file))).mode & 0o777, file).toBe(0o600);
    }
    expect((await get(again, '/internal/token')).body.token).toBe('a'.repeat(43));
    expect(again.service.secrets.viewKey()).toBe('d'.repeat(43));
    expect(again.service.game.token).toBe('c'.repeat(43));
  });

  for (const [label, dir, cause] of [
    ['under /proc', '/proc/nope', 'cannot create the data directory /proc/nope'],
    ['a file', '/etc/hostname', 'cannot create the data directory /etc/hostname: a file of that name exists'],
  ] as const) {
    it(`one that cannot be created or written (${label}) fails the start at once with its path`, async () => {
      await expect(startCli(serve(dir))).rejects.toThrow(`hud-automation: ${cause}`);
    });
  }
});
