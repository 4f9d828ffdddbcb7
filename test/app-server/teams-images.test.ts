/**
 * Photos and logos of the database given as an http(s) address (issue 34): fetched once by the
 * server with the care of the team logo fetch into its media store, saved as /media/<id> and served
 * by the application server; an address on this machine or one with no image is refused in words and
 * nothing changes. The hosts are devices of a test local network (a namespace), as for team logos.
 */
import { describe, expect, it } from 'vitest';
import { build, command, get } from '../helpers/build.ts';
import { pngOf, startLogoServer } from '../helpers/logos.ts';
import { netnsSkipReason } from '../helpers/netns.ts';

const PHOTO = pngOf(48, 0x7a5cff);
const LOGO = pngOf(32, 0xf2c12e);
const skip = netnsSkipReason();

describe.skipIf(skip)(`photos and logos at an address${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('are fetched once, kept as /media/<id> and served; refused addresses change nothing', async () => {
    const origin = await startLogoServer({
      '/sasha.png': { type: 'image/png', body: PHOTO },
      '/navi.png': { type: 'image/png', body: LOGO },
    });
    const server = await build();
    const player = await command(server, 'save_player', { name: 'Саша', photo: `${origin.url}/sasha.png` });
    expect(player.status, JSON.stringify(player.body)).toBe(200);
    const photo = player.body.result.player.photo as string;
    expect(photo).toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
    const served = await fetch(`${server.applicationUrl}${photo}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PHOTO)).toBe(true);
    const team = await command(server, 'save_team', {
      name: 'Natus Vincere',
      logo: `${origin.url}/navi.png`,
    });
    expect(team.body.result.team.logo).toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
    expect(origin.requests).toEqual(['/sasha.png', '/navi.png']);

    const before = (await get(server, '/api/players')).body;
    const missing = await command(server, 'save_player', { name: 'x', photo: `${origin.url}/none.png` });
    expect(missing.status).toBe(502);
    expect(missing.body.message).toMatch(/no image at that address/);
    const here = await startLogoServer({ '/me.png': { type: 'image/png', body: PHOTO } }, 'this machine');
    const local = await command(server, 'save_player', { name: 'y', photo: `${here.url}/me.png` });
    expect(local.status).toBe(502);
    expect(local.body.message).toMatch(/refused/);
    expect(here.requests).toEqual([]);
    expect((await get(server, '/api/players')).body).toEqual(before);
  });
});
