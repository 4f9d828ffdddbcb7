import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from '../../src/persistence/data-dir.ts';
import { decodeRecords } from '../../src/persistence/journal-format.ts';
import type { EventMessage } from '../../src/protocol/websocket.ts';
import type { RunningServer } from '../../src/server.ts';
import { startServer } from '../../src/server.ts';
import { build, command, get, PROGRAM, tempDir } from '../helpers/build.ts';
import { post, startCli } from '../helpers/cli-process.ts';
import { FaultyFiles } from '../helpers/faulty-files.ts';
import { panelApi } from '../helpers/hud.ts';
import { pngOf } from '../helpers/logos.ts';
import { fillDisk, mountTmpfs, remount, tmpfsSkipReason } from '../helpers/tmpfs.ts';
import { connect } from '../helpers/ws-client.ts';

const teams = { teamA: { name: 'Vitality' }, teamB: { name: 'MOUZ' } };

/** Resolves with the storage status of the next HUD-state event that carries one matching `ok`. */
function storageEvent(server: RunningServer, ok: boolean): Promise<{ ok: boolean; reason: string | null }> {
  return new Promise((resolve) => {
    const listener = ({ event, data }: EventMessage) => {
      const storage = (data as { storage?: { ok: boolean; reason: string | null } }).storage;
      if (event !== 'hud.state' || storage?.ok !== ok) return;
      server.service.hub.emitter.off('event', listener);
      resolve(storage);
    };
    server.service.hub.emitter.on('event', listener);
  });
}

/** The event name in the last whole record of the journal on disk (a record holds the parts it changed). */
async function journaledEventName(dataDir: string): Promise<string | undefined> {
  const { records } = decodeRecords(await readFile(join(dataDir, JOURNAL_FILE)));
  const last = records.at(-1);
  return last ? JSON.parse(last.toString('utf8')).parts.match.eventName : undefined;
}

/** Lets every callback and I/O completion queued so far run. */
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('an answer waits for the truth it reports', () => {
  it('a command that changes nothing while the same change is being written answers only once it is written', async () => {
    const dataDir = await tempDir();
    const faults = new FaultyFiles();
    const server = await build({ dataDir, storeFiles: faults.wrap });
    const release = faults.hold();
    const started = faults.appendStarted();
    const first = command(server, 'set_event_name', { name: 'retried' });
    await started;
    // The retry finds the state already changed: without waiting it would answer at once.
    let answered = false;
    const retry = server.service.commands('set_event_name', { name: 'retried' }, PROGRAM).then((answer) => {
      answered = true;
      return answer;
    });
    await turns(5);
    expect(answered).toBe(false);
    expect(await journaledEventName(dataDir)).toBe(undefined);
    release();
    expect((await retry).ok).toBe(true);
    // Answered means written: the record is in the journal file now.
    expect(await journaledEventName(dataDir)).toBe('retried');
    expect((await first).status).toBe(200);
  });

  it('changes arriving while a write is in flight go out together in the next write', async () => {
    const dataDir = await tempDir();
    const faults = new FaultyFiles();
    const server = await build({ dataDir, storeFiles: faults.wrap });
    const release = faults.hold();
    const started = faults.appendStarted();
    const first = command(server, 'set_event_name', { name: 'first' });
    await started;
    const later = ['second', 'third', 'fourth'].map((name) =>
      server.service.commands('set_event_name', { name }, PROGRAM),
    );
    release();
    await Promise.all([first, ...later]);
    const { records } = decodeRecords(await readFile(join(dataDir, JOURNAL_FILE)));
    expect(records.map((record) => JSON.parse(record.toString('utf8')).parts.match.eventName)).toEqual([
      'first',
      'fourth',
    ]);
  });
});

describe('storage failures are errors, not logs', () => {
  for (const [code, words] of [
    ['EIO', 'input/output error'],
    ['EROFS', 'read-only'],
  ] as const) {
    it(`a write failing with ${code}: not acknowledged over HTTP and WebSocket, rolled back, shown in the state, recovered by itself`, async () => {
      const dataDir = await tempDir();
      const faults = new FaultyFiles();
      const server = await build({ dataDir, storeFiles: faults.wrap });
      expect((await command(server, 'set_event_name', { name: 'saved' })).status).toBe(200);
      const client = await connect(server.wsUrl);
      await client.next();

      faults.failWith = code;
      const failing = storageEvent(server, false);
      const failed = await command(server, 'set_event_name', { name: 'not saved' });
      expect(failed).toEqual({
        status: 507,
        body: { ok: false, error: 'storage_failed', message: expect.stringContaining(words) },
      });
      expect((await failing).reason).toContain(code);
      const { body } = await get(server, '/api/state');
      expect(body.state.storage).toEqual({ ok: false, reason: expect.stringContaining(words) });
      // Rolled back: memory holds the last durable state, and clients were told so.
      expect((await get(server, '/api/match')).body.match.eventName).toBe('saved');
      await client.waitFor((m) => m.event === 'match' && m.data.eventName === 'not saved');
      await client.waitFor((m) => m.event === 'match' && m.data.eventName === 'saved');
      await client.waitFor((m) => m.event === 'hud.state' && m.data.storage?.ok === false);

      client.send({ type: 'trigger', id: 'ws-1', action: 'set_teams', payload: teams });
      expect(await client.waitFor((m) => m.type === 'result' && m.id === 'ws-1')).toMatchObject({
        ok: false,
        status: 507,
        error: 'storage_failed',
      });
      expect((await get(server, '/api/match')).body.match.teamA).toBeNull();

      const recovered = storageEvent(server, true);
      faults.failWith = null;
      expect(await recovered).toEqual({ ok: true, reason: null });
      await client.waitFor((m) => m.event === 'hud.state' && m.data.storage?.ok === true);
      expect((await command(server, 'set_teams', teams)).status).toBe(200);
      client.close();
      await server.close();

      const again = await build({ dataDir });
      expect((await get(again, '/api/match')).body.match).toMatchObject({ eventName: 'saved', ...teams });
    });
  }

  it('a shutdown that cannot save says so and fails', async () => {
    const faults = new FaultyFiles();
    // Not build(): its clean-up would close the server a second time and see the same failure.
    const server = await startServer({
      port: 0,
      appPort: 0,
      headless: true,
      subscriptionActive: false,
      dataDir: await tempDir(),
      overrides: { obs: { enabled: false } },
      logger: pino({ level: 'silent' }),
      storeFiles: faults.wrap,
    });
    faults.failWith = 'EIO';
    await expect(server.close()).rejects.toThrow(/could not write the snapshot .*input\/output error/);
  });
});

const tmpfsSkip = tmpfsSkipReason();

describe.skipIf(tmpfsSkip)(
  `a real small disk${tmpfsSkip ? ` (skipped: ${tmpfsSkip})` : ''}: full, then read-only`,
  () => {
    it('on a full disk a command answers 507 and changes nothing, the token stays, and the service recovers once space is freed', async () => {
      const dataDir = mountTmpfs('1m');
      const server = await build({ dataDir });
      const token = (await get(server, '/internal/token')).body.token;
      const failing = storageEvent(server, false);
      const free = await fillDisk(join(dataDir, 'filler'));
      const failed = await command(server, 'set_teams', teams);
      expect(failed).toEqual({
        status: 507,
        body: { ok: false, error: 'storage_failed', message: expect.stringContaining('the disk is full') },
      });
      expect((await failing).reason).toContain('ENOSPC');
      expect((await get(server, '/api/match')).body.match.teamA).toBeNull();
      expect((await get(server, '/api/state')).body.state.storage.ok).toBe(false);
      const regenerated = await fetch(`${server.httpUrl}/internal/token/regenerate`, { method: 'POST' });
      expect(regenerated.status).toBe(507);
      expect(await regenerated.json()).toEqual({
        ok: false,
        error: 'storage_failed',
        message: expect.stringContaining('the current access token stays valid'),
      });
      expect((await get(server, '/internal/token')).body.token).toBe(token);
      const recovered = storageEvent(server, true);
      await free();
      await recovered;
      expect((await command(server, 'set_teams', teams)).status).toBe(200);
      await server.close();
      const again = await build({ dataDir });
      expect((await get(again, '/api/match')).body.match).toMatchObject(teams);
      await again.close();
    });

    it('SIGTERM on a full disk says the state could not be saved and exits 1', async () => {
      const dataDir = mountTmpfs('1m');
      const cli = await startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']);
      expect((await post(cli.httpUrl, 'set_event_name', { name: 'kept' })).status).toBe(200);
      await fillDisk(join(dataDir, 'filler'));
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toEqual({ code: 1, signal: null });
      expect(cli.output()).toMatch(/could not stop cleanly: could not write the snapshot .*the disk is full/);
    });

    it('a read-only data directory fails the start at once, naming the directory', async () => {
      const dataDir = mountTmpfs('1m');
      remount(dataDir, 'ro');
      await expect(
        startCli(['--headless', '--no-obs', '--data-dir', dataDir, '--log-level', 'warn']),
      ).rejects.toThrow(`cannot write to the data directory ${dataDir}: read-only file system (EROFS)`);
    });
  },
);

describe.skipIf(tmpfsSkip)(
  `an image upload on a real small disk${tmpfsSkip ? ` (skipped: ${tmpfsSkip})` : ''}`,
  () => {
    it('a full disk answers 507 in words, leaves no partial file, and the state is untouched', async () => {
      const dataDir = mountTmpfs('1m');
      const server = await build({ dataDir });
      const api = await panelApi(server);
      const revision = (await get(server, '/api/state')).body.state.revision;
      const free = await fillDisk(join(dataDir, 'filler'));
      // A real PNG of 256x256 whose bytes do not compress: larger than what the disk has left.
      const image = Buffer.concat([pngOf(256, 0x1d5fe0), randomBytes(200_000)]);
      const refused = await api.upload(image);
      expect(refused).toEqual({
        status: 507,
        body: {
          ok: false,
          error: 'storage_failed',
          message: expect.stringMatching(/^the image was not stored: the disk is full .*nothing was kept$/),
        },
      });
      expect(await readdir(join(dataDir, 'media')).catch(() => [])).toEqual([]);
      expect((await get(server, '/api/state')).body.state.revision).toBe(revision);
      await free();
      const stored = await api.upload(image);
      expect(stored.status).toBe(200);
      expect(await readdir(join(dataDir, 'media'))).toEqual([stored.body.media.id]);
      await server.close();
    });
  },
);
