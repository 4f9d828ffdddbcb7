/**
 * Team logos end to end over the real servers: a logo at an http(s) address is fetched once by the
 * server into its media store and served by the application server; the pages are told what to
 * load (the match summary's `logos`), or why there is nothing to load.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { panelApi } from '../helpers/hud.ts';
import { pngOf, settledLogo, startLogoServer, svgOf } from '../helpers/logos.ts';
import { fixtureText, html, startSourceServer, unusedPort } from '../import/source-server.ts';

const PNG = pngOf(16, 0xf2c12e);

/** A match event or a hello snapshot: the match summary a page gets first, however it is sent. */
async function logosOnConnect(server: RunningServer) {
  return (await get(server, '/api/match')).body.match.logos;
}

describe('team logos at an http(s) address', () => {
  it('a good logo is fetched once, stored, served by the application server and kept through a restart with its origin gone', async () => {
    const origin = await startLogoServer({ '/navi.png': { type: 'image/png', body: PNG } });
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    const logo = `${origin.url}/navi.png`;

    const set = await command(server, 'set_teams', {
      teamA: { name: 'Natus Vincere', logo, tag: 'NAVI' },
      teamB: { name: 'FaZe Clan' },
    });
    expect(set.status).toBe(200);
    // The Team on the wire is what was sent; what the pages load is beside it.
    expect(set.body.result.teamA).toEqual({ name: 'Natus Vincere', logo, tag: 'NAVI' });
    const stored = await settledLogo(server, 'A');
    expect(stored).toEqual({ state: 'stored', src: expect.stringMatching(/^\/media\/[0-9a-f]{32}\.png$/) });
    expect((await logosOnConnect(server)).B).toBeNull();

    const served = await fetch(`${server.applicationUrl}${stored.src}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    // The same address again, on the other team: nothing is fetched again.
    await command(server, 'set_teams', {
      teamA: { name: 'FaZe Clan' },
      teamB: { name: 'Natus Vincere', logo },
    });
    expect((await logosOnConnect(server)).B).toEqual(stored);
    expect(origin.requests).toEqual(['/navi.png']);

    await origin.close();
    await server.close();
    const again = await build({ dataDir });
    expect((await get(again, '/api/match')).body.match.logos.B).toEqual(stored);
    const after = await fetch(`${again.applicationUrl}${stored.src}`);
    expect(Buffer.from(await after.arrayBuffer()).equals(PNG)).toBe(true);
    expect(origin.requests).toEqual(['/navi.png']);
  });

  it('an address answering 404: the logo failed, in words; the command answered at once and changed the teams', async () => {
    const origin = await startLogoServer({});
    const server = await build();
    const logo = `${origin.url}/gone.png`;
    const set = await command(server, 'set_teams', {
      teamA: { name: 'Vitality', logo },
      teamB: { name: 'MOUZ' },
    });
    expect(set.status).toBe(200);
    expect(set.body.result.logos.A).toEqual({ state: 'fetching' });
    const failed = await settledLogo(server, 'A');
    expect(failed.state).toBe('failed');
    expect(failed.src).toBeUndefined();
    expect(failed.reason).toMatch(
      /answered 404 Not Found to the logo request: there is no image at that address/,
    );
    expect(origin.requests).toEqual(['/gone.png']);
  });

  it('an unreachable address: the logo failed, saying the connection was refused', async () => {
    const logo = `http://127.0.0.1:${await unusedPort()}/logo.png`;
    const server = await build();
    await command(server, 'set_teams', { teamA: { name: 'Spirit' }, teamB: { name: 'G2', logo } });
    const failed = await settledLogo(server, 'B');
    expect(failed).toEqual({
      state: 'failed',
      reason: expect.stringMatching(
        /could not reach the logo's server \(127\.0\.0\.1:\d+\).*the connection was refused/,
      ),
    });
  });

  it('a page, an SVG with a script, an empty answer and an image over 2 MiB are not stored, each said so', async () => {
    const origin = await startLogoServer({
      '/page': { type: 'text/html', body: '<p>not a logo</p>' },
      '/scripted.svg': {
        type: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>',
      },
      '/empty.png': { type: 'image/png', body: '' },
      '/huge.png': { type: 'image/png', body: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]) },
    });
    const server = await build();
    const cases = [
      ['/page', /not a PNG, JPEG, GIF, WebP or script-free SVG image \(it says text\/html\)/],
      ['/scripted.svg', /not a PNG, JPEG, GIF, WebP or script-free SVG image \(it says image\/svg\+xml\)/],
      ['/empty.png', /answered with nothing/],
      ['/huge.png', /with more than 2 MB/],
    ] as const;
    for (const [path, reason] of cases) {
      await command(server, 'set_teams', {
        teamA: { name: 'A', logo: `${origin.url}${path}` },
        teamB: { name: 'B' },
      });
      expect(await settledLogo(server, 'A')).toEqual({
        state: 'failed',
        reason: expect.stringMatching(reason),
      });
    }
  });

  it('a logo server that never answers: the command does not wait, the fetch gives up at its deadline', async () => {
    const origin = await startLogoServer({ '/slow.png': 'hang' });
    const server = await build({ logoTimeoutMs: 300 });
    const set = await command(server, 'set_teams', {
      teamA: { name: 'FURIA', logo: `${origin.url}/slow.png` },
      teamB: { name: 'paiN' },
    });
    expect(set.status).toBe(200);
    expect(set.body.result.logos.A).toEqual({ state: 'fetching' });
    expect(await settledLogo(server, 'A')).toEqual({
      state: 'failed',
      reason: expect.stringMatching(/the logo did not finish within 0\.3 s/),
    });
  });

  it('a failed logo is fetched again when it is sent again, and shows once it loads', async () => {
    const routes: Parameters<typeof startLogoServer>[0] = {};
    const origin = await startLogoServer(routes);
    const server = await build();
    const teams = {
      teamA: { name: 'Astralis', logo: `${origin.url}/astralis.png` },
      teamB: { name: 'Heroic' },
    };
    await command(server, 'set_teams', teams);
    expect((await settledLogo(server, 'A')).state).toBe('failed');
    routes['/astralis.png'] = { type: 'image/png', body: PNG };
    await command(server, 'set_teams', teams);
    expect((await settledLogo(server, 'A')).state).toBe('stored');
    expect(origin.requests).toEqual(['/astralis.png', '/astralis.png']);
  });

  it('an SVG logo is stored and served with a policy that runs nothing in it', async () => {
    const origin = await startLogoServer({
      '/liquid.svg': { type: 'image/svg+xml', body: svgOf('TL', '#0a2240') },
    });
    const server = await build();
    await command(server, 'set_teams', {
      teamA: { name: 'Team Liquid', logo: `${origin.url}/liquid.svg` },
      teamB: { name: 'B' },
    });
    const stored = await settledLogo(server, 'A');
    expect(stored.src).toMatch(/\.svg$/);
    const served = await fetch(`${server.applicationUrl}${stored.src}`);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(served.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
  });

  it('an imported match: its teams’ logos are fetched once like any other', async () => {
    const page = fixtureText(
      'hltv_match_2388127_furia-vs-natus-vincere_bo3_quarterfinal__qa-hltv-parser__teamsbox-and-maps.html',
    );
    const path = '/matches/2388127/furia-vs-natus-vincere-starladder-budapest-major-2025';
    const routes: Parameters<typeof startLogoServer>[0] = {};
    const logos = await startLogoServer(routes);
    // The page's logos are on HLTV's image host: here, on the local logo host, which answers each path.
    const local = page.replace(
      /https:\/\/img-cdn\.hltv\.org(\/teamlogo\/[^"?\s]+)[^"\s]*/g,
      (_all, file: string) => {
        routes[file] = file.endsWith('.svg')
          ? { type: 'image/svg+xml', body: svgOf('T', '#333333') }
          : { type: 'image/png', body: PNG };
        return `${logos.url}${file}`;
      },
    );
    const source = await startSourceServer({ [path]: html(local) });
    try {
      const server = await build({
        overrides: { sources: { faceitUrl: source.url, faceitDataApiUrl: source.url, hltvUrl: source.url } },
      });
      const imported = await command(server, 'import_match_veto', { url: `https://www.hltv.org${path}` });
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(await settledLogo(server, 'A')).toMatchObject({ state: 'stored' });
      expect(await settledLogo(server, 'B')).toMatchObject({ state: 'stored' });
      // One request for each logo the teams use, however often the page prints it.
      expect(new Set(logos.requests).size).toBe(logos.requests.length);
    } finally {
      await source.close();
    }
  });
});

describe('team logos the operator uploads, and tags', () => {
  it('set_teams takes an uploaded image as /media/<id>: the pages load it as it is', async () => {
    const server = await build();
    const api = await panelApi(server);
    const upload = await api.upload(PNG);
    expect(upload.status).toBe(200);
    const logo = upload.body.media.url as string;
    const set = await command(server, 'set_teams', {
      teamA: { name: 'NAVI', logo },
      teamB: { name: 'FaZe' },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.result.teamA).toEqual({ name: 'NAVI', logo });
    expect(set.body.result.logos.A).toEqual({ state: 'stored', src: logo });
  });

  it('refuses a logo that is neither a URL nor an uploaded image, and a tag outside 1 to 6 characters, changing nothing', async () => {
    const server = await build();
    await command(server, 'set_teams', { teamA: { name: 'Vitality', tag: 'VIT' }, teamB: { name: 'MOUZ' } });
    const before = (await get(server, '/api/match')).body.match;
    const revision = (await get(server, '/api/state')).body.state.revision;
    const refusals = [
      [{ name: 'A', logo: '/media/nothing.png' }, 'teamA.logo: must be an http, https or data URL'],
      [{ name: 'A', logo: '/etc/passwd' }, 'teamA.logo: must be an http, https or data URL'],
      [{ name: 'A', tag: 'SEVENCH' }, 'teamA.tag: at most 6 characters'],
      [{ name: 'A', tag: '' }, 'teamA.tag: must not be empty'],
      [{ name: 'A', tag: '   ' }, 'teamA.tag: must not be blank'],
      [
        { name: 'A', logoStatus: 'stored' },
        'unknown field logoStatus in teamA; known fields: name, logo, tag',
      ],
    ] as const;
    for (const [teamA, message] of refusals) {
      const answer = await command(server, 'set_teams', { teamA, teamB: { name: 'B' } });
      expect(answer.status, JSON.stringify(teamA)).toBe(400);
      expect(answer.body).toEqual({ ok: false, error: 'invalid_payload', message: `set_teams: ${message}` });
    }
    expect((await get(server, '/api/match')).body.match).toEqual(before);
    expect((await get(server, '/api/state')).body.state.revision).toBe(revision);
  });

  it('a tag is saved with the match and survives a restart', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    await command(server, 'set_teams', {
      teamA: { name: 'The MongolZ', tag: 'MGLZ' },
      teamB: { name: 'Eternal Fire', tag: 'EF' },
    });
    await server.close();
    const again = await build({ dataDir });
    const { match } = (await get(again, '/api/match')).body;
    expect([match.teamA, match.teamB]).toEqual([
      { name: 'The MongolZ', tag: 'MGLZ' },
      { name: 'Eternal Fire', tag: 'EF' },
    ]);
  });
});
