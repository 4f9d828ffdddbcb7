/**
 * Team logos end to end over the real servers: a logo at an http(s) address is fetched once by the
 * server into its media store and served by the application server; the pages are told what to
 * load (the match summary's `logos`), or why there is nothing to load. The logo hosts are devices
 * of the local network (a test network's namespace): the server fetches from nowhere on this machine.
 */
import { describe, expect, it } from 'vitest';
import { LOGO_REASON_MAX_LENGTH } from '../../machines/team-logo.ts';
import { REMOTE_TEXT_MAX } from '../../src/net/network-errors.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, command, get, tempDir } from '../helpers/build.ts';
import { panelApi } from '../helpers/hud.ts';
import { logoNetwork, pngOf, settledLogo, startLogoServer, svgOf } from '../helpers/logos.ts';
import { netnsSkipReason } from '../helpers/netns.ts';
import { fixtureText, html, startSourceServer, unusedPort } from '../import/source-server.ts';

const PNG = pngOf(16, 0xf2c12e);

/** Without the netns harness there is no device of the local network to fetch a logo from. */
const skip = netnsSkipReason();

const REFUSED =
  /its address is refused \(the server never fetches from this machine, link-local or special addresses\)$/;

/** A match event or a hello snapshot: the match summary a page gets first, however it is sent. */
async function logosOnConnect(server: RunningServer) {
  return (await get(server, '/api/match')).body.match.logos;
}

describe.skipIf(skip)(`team logos at an http(s) address${skip ? ` (skipped: ${skip})` : ''}`, () => {
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

  it('an unreachable address on the local network: the logo failed, saying the connection was refused', async () => {
    // Nothing listens on the LAN device but the logo hosts of a test.
    const { lan } = await logoNetwork();
    const logo = `http://${lan.address}:8080/logo.png`;
    const server = await build();
    await command(server, 'set_teams', { teamA: { name: 'Spirit' }, teamB: { name: 'G2', logo } });
    const failed = await settledLogo(server, 'B');
    expect(failed).toEqual({
      state: 'failed',
      reason: expect.stringMatching(
        new RegExp(
          `could not reach the logo's server \\(${lan.address.replaceAll('.', '\\.')}:8080\\).*the connection was refused`,
        ),
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
      [
        '/scripted.svg',
        /the logo loaded but could not be kept: the SVG has an event handler \(onload on <svg>\)/,
      ],
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

describe.skipIf(skip)(
  `what the server fetches for a client: devices, never this machine (issue 37, defect 2)${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    /** set_teams with the logo on team A, as any automation client sends it, and its settled status. */
    async function logoStatus(server: RunningServer, logo: string) {
      const set = await command(server, 'set_teams', { teamA: { name: 'A', logo }, teamB: { name: 'B' } });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      return settledLogo(server, 'A');
    }

    it('a logo host on the local network, IPv4 and IPv6 unique local, is fetched and stored', async () => {
      const server = await build();
      for (const place of ['lan', 'lan6'] as const) {
        const origin = await startLogoServer({ '/logo.png': { type: 'image/png', body: PNG } }, place);
        expect(await logoStatus(server, `${origin.url}/logo.png`), place).toMatchObject({ state: 'stored' });
        expect(origin.requests).toEqual(['/logo.png']);
      }
    });

    it('a logo on this machine (loopback, a name for it, its own LAN addresses) is refused and never asked', async () => {
      const here = await startLogoServer({ '/secret.png': { type: 'image/png', body: PNG } }, 'this machine');
      const { lan, lan6 } = await logoNetwork();
      const server = await build();
      const addresses = [
        '127.0.0.1',
        'localhost',
        '[::1]',
        '[::ffff:127.0.0.1]',
        '0.0.0.0',
        '2130706433',
        '0x7f.1',
        // This machine's side of the LAN links: its own addresses on the local network.
        lan.serverAddress,
        `[${lan6.serverAddress}]`,
      ];
      for (const host of addresses) {
        // Without the rule each answers: the address is refused by the server, not by the network.
        expect((await fetch(`http://${host}:${here.port}/control`)).status, host).toBe(404);
        const failed = await logoStatus(server, `http://${host}:${here.port}/secret.png`);
        expect(failed, host).toEqual({ state: 'failed', reason: expect.stringMatching(REFUSED) });
      }
      expect(here.requests.filter((path) => path !== '/control')).toEqual([]);
    });

    it('the reason is the same whether something listens on the port or not: no map of this machine', async () => {
      const here = await startLogoServer({ '/logo.png': { type: 'image/png', body: PNG } }, 'this machine');
      const closed = await unusedPort();
      const server = await build();
      const listening = (await logoStatus(server, `http://127.0.0.1:${here.port}/logo.png`)).reason ?? '';
      const nothing = (await logoStatus(server, `http://127.0.0.1:${closed}/logo.png`)).reason ?? '';
      expect(listening.replaceAll(String(here.port), 'PORT')).toBe(
        nothing.replaceAll(String(closed), 'PORT'),
      );
      expect(nothing).toMatch(REFUSED);
      expect(here.requests).toEqual([]);
    });

    it('a link-local address (as the cloud metadata address) is refused, though a host answers there', async () => {
      const net = await logoNetwork();
      // 169.254.169.254 itself is the same range; one per test network keeps parallel files apart.
      const metadata = `169.254.${net.slot}.254`;
      await net.addAddress('lan', metadata);
      const origin = await startLogoServer(
        { '/latest/meta-data/': { type: 'image/png', body: PNG } },
        { address: metadata },
      );
      expect((await fetch(`${origin.url}/control`)).status).toBe(404);
      const server = await build();
      const failed = await logoStatus(server, `${origin.url}/latest/meta-data/`);
      expect(failed).toEqual({ state: 'failed', reason: expect.stringMatching(REFUSED) });
      expect(origin.requests).toEqual(['/control']);
    });

    it('a redirect is checked again: a LAN host that redirects into this machine gets nothing from it', async () => {
      const here = await startLogoServer({ '/secret.png': { type: 'image/png', body: PNG } }, 'this machine');
      const origin = await startLogoServer({
        '/moved.png': { status: 301, headers: { location: '/logo.png' }, body: '' },
        '/logo.png': { type: 'image/png', body: PNG },
        '/inward.png': {
          status: 302,
          headers: { location: `http://127.0.0.1:${here.port}/secret.png` },
          body: '',
        },
        '/loop.png': { status: 307, headers: { location: '/loop.png' }, body: '' },
      });
      const server = await build();
      // A redirect within the local network is followed.
      expect(await logoStatus(server, `${origin.url}/moved.png`)).toMatchObject({ state: 'stored' });
      const inward = await logoStatus(server, `${origin.url}/inward.png`);
      expect(inward).toEqual({ state: 'failed', reason: expect.stringMatching(REFUSED) });
      expect(inward.reason).toContain(`redirected to 127.0.0.1:${here.port}`);
      expect(here.requests).toEqual([]);
      expect(await logoStatus(server, `${origin.url}/loop.png`)).toEqual({
        state: 'failed',
        reason: expect.stringMatching(/redirected the logo request more than 5 times/),
      });
    });
  },
);

describe.skipIf(skip)(
  `what a logo server writes is kept within a bound (issue 37, defect 11)${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    it('a 6,000-character status text or content type becomes a short reason, on the wire and after a restart', async () => {
      const long = `Teapot ${'x'.repeat(6000)}`;
      const origin = await startLogoServer({
        '/status.png': { status: 500, statusText: long, body: '' },
        '/type.png': { type: `text/${long}`, body: 'no image' },
      });
      const dataDir = await tempDir();
      const server = await build({ dataDir });
      const reasons: string[] = [];
      for (const path of ['/status.png', '/type.png']) {
        await command(server, 'set_teams', {
          teamA: { name: 'A', logo: `${origin.url}${path}` },
          teamB: { name: 'B' },
        });
        const { reason = '' } = await settledLogo(server, 'A');
        // The server's text is quoted, cut to its bound; the whole reason has a bound of its own.
        const quoted = /answered 500 (Teapot x+…)|it says (text\/Teapot x+…)/.exec(reason);
        expect(quoted, reason).not.toBeNull();
        expect(quoted?.[1] ?? quoted?.[2]).toHaveLength(REMOTE_TEXT_MAX);
        expect(reason.length).toBeLessThanOrEqual(LOGO_REASON_MAX_LENGTH);
        reasons.push(reason);
      }
      await server.close();
      const again = await build({ dataDir });
      expect((await get(again, '/api/match')).body.match.logos.A).toEqual({
        state: 'failed',
        reason: reasons[1],
      });
    });
  },
);

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
