/**
 * What GET /replay serves (issue 37, defect 1). Whatever answers at OBS's address can report any file
 * as a saved replay (a local account listens on 4455 while OBS is off, and this stand-in asks for no
 * password, as such a listener would not). Before the fix, /replay then served the access token,
 * state.json with the OBS password, and system files, and in LAN mode to any device of the network
 * with no credential. Now only a video container OBS writes, inside the folder OBS says it records
 * to, never a file of the data directory, and from the network only with the page's credential.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, tempDir } from '../helpers/build.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';
import { type ObsStandIn, startObsStandIn } from '../helpers/obs-stand-in.ts';
import { connect, type TestSocket } from '../helpers/ws-client.ts';

/** The first bytes of a Matroska file (EBML), then bytes enough to tell a served range. */
const clipBytes = () =>
  Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from('matroska clip '.repeat(40))]);

let obs: ObsStandIn;
beforeAll(async () => {
  obs = await startObsStandIn();
});
afterAll(async () => {
  await obs?.close();
});

async function serve(overrides: { lanMode?: boolean } = {}) {
  const server = await build({
    overrides: { ...overrides, obs: { url: obs.url, password: '', enabled: true } },
  });
  const client = await connect(server.wsUrl);
  const ready = (state: { obs?: { connection: string; replayBufferActive: boolean } } | undefined) =>
    state?.obs?.connection === 'connected' && state.obs.replayBufferActive;
  await client.waitFor(
    (m) => (m.type === 'event' && ready(m.data)) || (m.type === 'hello' && ready(m.snapshot.state)),
  );
  return { server, client };
}

/** Has the stand-in report `path` in `folder` as a saved replay; the event the service sends for it. */
async function report(server: RunningServer, client: TestSocket, path: string, folder: string) {
  obs.report({ path, folder });
  const saved = client.waitForNew(
    (m) => m.type === 'event' && (m.event === 'replay.saved' || m.event === 'replay.failed'),
  );
  expect((await command(server, 'save_replay')).status).toBe(200);
  return saved;
}

const replay = (server: RunningServer, path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.applicationUrl}/replay?path=${encodeURIComponent(path)}`, { headers });

describe('GET /replay serves only a clip OBS saved', () => {
  it('refuses the data directory, system files and anything not shaped like a video, whatever OBS reports', async () => {
    const { server, client } = await serve();
    const dataDir = server.service.dataDir;
    const token = server.service.secrets.token();
    const folder = await tempDir('hud-replays-');
    await writeFile(join(folder, 'token.mkv'), token);
    await symlink(join(dataDir, 'access-token'), join(folder, 'linked.mkv'));
    await symlink(join(dataDir, 'state.json'), join(folder, 'state.mp4'));
    await writeFile(join(folder, 'notes.txt'), clipBytes());

    const refusals: Array<[string, string, RegExp]> = [
      [join(dataDir, 'access-token'), dataDir, /data directory/],
      [join(dataDir, 'sign-in-key'), '/', /data directory/],
      [join(dataDir, 'state.json'), dataDir, /data directory/],
      ['/etc/passwd', '/', /a clip is a .*mkv/],
      ['/etc/passwd', '/etc', /a clip is a .*mkv/],
      [join(folder, 'token.mkv'), folder, /not a mkv video/],
      [join(folder, 'linked.mkv'), folder, /not in OBS's recording folder/],
      [join(folder, 'linked.mkv'), '/', /data directory/],
      [join(folder, 'state.mp4'), '/', /data directory/],
      [join(folder, 'notes.txt'), folder, /a clip is a/],
      ['relative/clip.mkv', folder, /absolute paths/],
    ];
    for (const [path, reportedFolder, why] of refusals) {
      const event = await report(server, client, path, reportedFolder);
      expect(event).toMatchObject({ event: 'replay.saved', data: { path, folder: reportedFolder } });
      const answer = await replay(server, path);
      const text = await answer.text();
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(text), path).toMatchObject({
        ok: false,
        error: 'not_found',
        message: expect.stringMatching(why),
      });
      expect(text).not.toContain(token);
      expect(text).not.toContain(server.service.secrets.signInKey());
    }
  });

  it('serves a clip in the recording folder, with byte ranges, and not one outside it', async () => {
    const { server, client } = await serve();
    const folder = await tempDir('hud-replays-');
    const elsewhere = await tempDir('hud-elsewhere-');
    const bytes = clipBytes();
    const clip = join(folder, 'sub', 'Replay 2026-11-28 17-00-00.mkv');
    await mkdir(join(folder, 'sub'));
    await writeFile(clip, bytes);
    await writeFile(join(elsewhere, 'Replay.mkv'), bytes);

    await report(server, client, clip, folder);
    const whole = await replay(server, clip);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/x-matroska');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
    const part = await replay(server, clip, { range: 'bytes=4-11' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(4, 12));

    await report(server, client, join(elsewhere, 'Replay.mkv'), folder);
    expect((await replay(server, join(elsewhere, 'Replay.mkv'))).status).toBe(404);
  });

  it('serves nothing when OBS names no recording folder', async () => {
    const { server, client } = await serve();
    const event = await report(server, client, '/etc/passwd', '');
    expect(event).toMatchObject({ event: 'replay.saved', data: { folder: '' } });
    const answer = await replay(server, '/etc/passwd');
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ message: expect.stringMatching(/absolute paths/) });
  });
});

const skipReason = netnsSkipReason();

describe.skipIf(skipReason)(
  `GET /replay from the network${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let net: TestNetwork;
    beforeAll(async () => {
      net = await createTestNetwork();
    });
    afterAll(async () => {
      await net?.close();
    });

    it('needs the view key or the access token, like the overlay that plays it', async () => {
      const { server, client } = await serve({ lanMode: true });
      const folder = await tempDir('hud-replays-');
      const clip = join(folder, 'Replay.mkv');
      const bytes = clipBytes();
      await writeFile(clip, bytes);
      await report(server, client, clip, folder);
      const port = server.applicationPort;
      const path = `/replay?path=${encodeURIComponent(clip)}`;

      const without = await net.http('lan', { port, path });
      expect(without.status).toBe(401);
      expect(without.json).toMatchObject({ ok: false, error: 'unauthorized' });
      expect((await net.http('lan', { port, path: `${path}&view=not-the-key` })).status).toBe(401);
      const viewKey = server.service.secrets.viewKey();
      const withView = await net.http('lan', { port, path: `${path}&view=${viewKey}` });
      expect(withView.status).toBe(200);
      expect(withView.body).toContain('matroska clip matroska clip');
      const token = server.service.secrets.token();
      expect((await net.http('lan', { port, path: `${path}&token=${token}` })).status).toBe(200);
      // This machine's OBS loads the overlay without a credential: so does its replay.
      expect((await replay(server, clip)).status).toBe(200);
    });
  },
);
