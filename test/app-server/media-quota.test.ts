/**
 * The media store's quota over the real application server, on the data directory on disk: a new
 * image over the count or the bytes makes room by removing images nothing uses and stored before the
 * grace, oldest first; an image the branding or the match names is never removed; when no room can
 * be made the upload is 507 in words and nothing is written. An image it has is always taken again,
 * and a restart counts what the folder holds.
 */
import { randomBytes } from 'node:crypto';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { netnsSkipReason } from '../helpers/netns.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, get, ok, tempDir } from '../helpers/build.ts';
import { panelApi } from '../helpers/hud.ts';
import { pngOf, settledLogo, startLogoServer } from '../helpers/logos.ts';

const MiB = 1024 * 1024;
const IN_USE = "(the branding's event logo, sponsors, talent photos and radar images, the teams' logos)";

/** A PNG of its own colour (its first bytes make it one), `extra` bytes larger. */
const image = (colour: number, extra = 0) => Buffer.concat([pngOf(16, colour), randomBytes(extra)]);

/** The operator app's uploads, the radar's included, and its settings. */
async function operator(server: RunningServer) {
  const api = await panelApi(server);
  const post = async (path: string, bytes: Buffer) => {
    const response = await fetch(`${server.applicationUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: api.cookie },
      body: JSON.stringify({ data: bytes.toString('base64') }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  /** An upload that must succeed: the image's id. */
  const stored = async (bytes: Buffer, path = '/api/panel/media') => {
    const answer = await post(path, bytes);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.media.id as string;
  };
  const settings = async (change: unknown) => {
    const answer = await api.settings(change);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };
  return { upload: (bytes: Buffer, path = '/api/panel/media') => post(path, bytes), stored, settings };
}

/** The images in the media folder, partial files included. */
const mediaOf = async (dataDir: string) => (await readdir(join(dataDir, 'media'))).sort();

const refusal = (message: string | RegExp) => ({
  status: 507,
  body: {
    ok: false,
    error: 'storage_failed',
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  },
});

describe('the media quota', () => {
  it('refuses a new image over the count in words and writes nothing; an image it has is taken again', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir, mediaQuota: { count: 3, bytes: MiB } });
    const { upload, stored } = await operator(server);
    const first = await stored(image(0x01));
    await stored(image(0x02));
    // The last place, asked for twice at once: one upload takes it.
    const race = await Promise.all([upload(image(0x03)), upload(image(0x04))]);
    expect(race.map((answer) => answer.status).sort()).toEqual([200, 507]);
    const held = await mediaOf(dataDir);
    expect(held).toHaveLength(3);

    const refused = await upload(image(0x05));
    expect(refused).toEqual(
      refusal(
        'the image was not stored: the media store keeps at most 3 images and 1 MiB, and holds 3 images ' +
          `(1 KiB): 0 in use ${IN_USE} and 3 stored in the last 10 minutes, which are kept. Remove an image ` +
          'from the branding or a team, then try again',
      ),
    );
    // The radar's uploads are kept in the same store, under the same quota.
    const radar = await upload(pngOf(256, 0x06), '/api/panel/media/radar');
    expect(radar.status).toBe(507);
    expect(await mediaOf(dataDir)).toEqual(held);

    // The same image again is no new image: it is taken, full or not.
    expect(await stored(image(0x01))).toBe(first);
    expect(await mediaOf(dataDir)).toEqual(held);
  });

  it('refuses a new image over the bytes, and one larger than the whole quota', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir, mediaQuota: { count: 100, bytes: 64 * 1024 } });
    const { upload, stored } = await operator(server);
    const id = await stored(image(0x01, 40 * 1024));
    expect(await upload(image(0x02, 40 * 1024))).toEqual(
      refusal(
        /^the image was not stored: the media store keeps at most 100 images and 64 KiB, and holds 1 image \(41 KiB\): 0 in use/,
      ),
    );
    expect(await upload(image(0x03, 70 * 1024))).toEqual(
      refusal(
        'the image was not stored: the media store keeps at most 100 images and 64 KiB, and it is 71 KiB',
      ),
    );
    expect(await mediaOf(dataDir)).toEqual([id]);
  });

  it('never removes an image the branding or the match names; removes one nothing names to make room', async () => {
    const dataDir = await tempDir();
    // No grace: an image nothing names may go at once.
    const server = await build({ dataDir, mediaQuota: { count: 4, bytes: MiB }, mediaGraceMs: 0 });
    const { upload, stored, settings } = await operator(server);
    const eventLogo = await stored(image(0x01));
    await settings({ branding: { eventLogo } });
    const sponsor = await stored(image(0x02));
    await settings({ branding: { sponsors: [{ name: 'Acme', image: sponsor }] } });
    const radar = await stored(pngOf(256, 0x03), '/api/panel/media/radar');
    await settings({ branding: { radarImages: { de_nuke: { image: radar } } } });
    const teamLogo = await stored(image(0x04));
    await ok(server, 'set_teams', {
      teamA: { name: 'Vitality', logo: `/media/${teamLogo}` },
      teamB: { name: 'MOUZ' },
    });
    const named = [eventLogo, sponsor, radar, teamLogo].sort();

    expect(await upload(image(0x05))).toEqual(
      refusal(
        /and holds 4 images \(\d+ KiB\): 4 in use .* and 0 stored in the last 0 minutes, which are kept/,
      ),
    );
    expect(await mediaOf(dataDir)).toEqual(named);

    // The team's logo taken off: the undo history still names it (undo puts it back on the team), so it
    // stays and there is still no room (issue 33).
    await ok(server, 'set_teams', { teamA: { name: 'Vitality' }, teamB: { name: 'MOUZ' } });
    expect(await upload(image(0x05))).toEqual(refusal(/4 in use/));
    expect(await mediaOf(dataDir)).toEqual(named);
    await ok(server, 'undo');
    expect((await get(server, '/api/match')).body.match.teamA.logo).toBe(`/media/${teamLogo}`);
    // The branding's radar image replaced by nothing: that one is named by nothing now, and makes room.
    await settings({ branding: { radarImages: {} } });
    const fresh = await stored(image(0x05));
    expect(await mediaOf(dataDir)).toEqual([eventLogo, sponsor, teamLogo, fresh].sort());
    // And the new one, named by nothing either, makes room for the next.
    const next = await stored(image(0x06));
    expect(await mediaOf(dataDir)).toEqual([eventLogo, sponsor, teamLogo, next].sort());
    const served = await fetch(`${server.applicationUrl}/media/${eventLogo}`);
    expect(served.status).toBe(200);
  });

  // The logo server stands on the local network (a network namespace): a logo on this machine is refused.
  it.skipIf(netnsSkipReason())('keeps a fetched team logo while the match names it; a logo that finds no room fails in words', { tags: ['edge'] }, async () => {
    const origin = await startLogoServer({
      '/a.png': { type: 'image/png', body: image(0x01) },
      '/b.png': { type: 'image/png', body: image(0x02) },
    });
    const dataDir = await tempDir();
    const server = await build({ dataDir, mediaQuota: { count: 2, bytes: MiB }, mediaGraceMs: 0 });
    const { stored, settings } = await operator(server);
    const teams = { teamA: { name: 'Vitality', logo: `${origin.url}/a.png` }, teamB: { name: 'MOUZ' } };
    await ok(server, 'set_teams', teams);
    const logo = await settledLogo(server, 'A');
    expect(logo).toMatchObject({ state: 'stored' });
    const fetched = (logo.src as string).replace('/media/', '');

    // Only the upload nothing names makes room, however often: the logo stays.
    await stored(image(0x03));
    const eventLogo = await stored(image(0x04));
    expect(await mediaOf(dataDir)).toEqual([fetched, eventLogo].sort());

    await settings({ branding: { eventLogo } });
    await ok(server, 'set_teams', { ...teams, teamB: { name: 'MOUZ', logo: `${origin.url}/b.png` } });
    expect(await settledLogo(server, 'B')).toEqual({
      state: 'failed',
      reason: expect.stringMatching(
        /^the logo loaded but could not be kept: the image was not stored: the media store keeps at most 2 images .*: 2 in use/,
      ),
    });
    expect(await mediaOf(dataDir)).toEqual([fetched, eventLogo].sort());
  });

  it('a restart counts what the folder holds, removes partial files, and makes room oldest first past the grace', async () => {
    const dataDir = await tempDir();
    const quota = { count: 3, bytes: MiB };
    const before = await build({ dataDir, mediaQuota: quota });
    const old = await operator(before);
    const oldest = await old.stored(image(0x01));
    const older = await old.stored(image(0x02));
    const recent = await old.stored(image(0x03));
    await before.close();
    const media = join(dataDir, 'media');
    // Stored two hours and one hour ago; a write a crash cut short.
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await utimes(join(media, oldest), ago(2), ago(2));
    await utimes(join(media, older), ago(1), ago(1));
    await writeFile(join(media, `.${oldest}.4242.k3j5`), 'half an image');

    const server = await build({ dataDir, mediaQuota: quota });
    expect(await mediaOf(dataDir)).toEqual([oldest, older, recent].sort());
    const { upload, stored } = await operator(server);
    const first = await stored(image(0x04));
    expect(await mediaOf(dataDir)).toEqual([older, recent, first].sort());
    const second = await stored(image(0x05));
    expect(await mediaOf(dataDir)).toEqual([recent, first, second].sort());
    // All three are within the grace now (10 minutes by default).
    expect(await upload(image(0x06))).toEqual(refusal(/: 0 in use .* and 3 stored in the last 10 minutes/));
    expect(await mediaOf(dataDir)).toEqual([recent, first, second].sort());
  });
});
