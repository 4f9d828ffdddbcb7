import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAIN_WINDOW_GRACE_MS } from '../../src/core/main-window.ts';
import { build, command, tempDir } from '../helpers/build.ts';
import { connect } from '../helpers/ws-client.ts';

type Server = Awaited<ReturnType<typeof build>>;

/** A request to the application server; `cookie` signs it in. */
async function app(
  server: Server,
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${server.applicationUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  const body = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body };
}

/** Signs in by the sign-in address, as a browser opening it would; returns the session cookie. */
async function signIn(server: Server): Promise<string> {
  const { status, headers } = await app(
    server,
    'GET',
    new URL(server.signInUrl()).pathname + new URL(server.signInUrl()).search,
  );
  expect(status).toBe(303);
  const cookie = headers.get('set-cookie') ?? '';
  return cookie.split(';')[0] ?? '';
}

/** Resolves when a TCP connection to the port is accepted (true) or refused (false). */
const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = netConnect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('signing in to the operator app', () => {
  it('the sign-in address sets an HttpOnly SameSite=Strict cookie and drops the key from the address', async () => {
    const server = await build({ headless: false });
    const url = new URL(server.signInUrl());
    expect(url.port).toBe(String(server.applicationPort));
    const opened = await app(server, 'GET', `/${url.search}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/');
    expect(opened.headers.get('set-cookie')).toMatch(
      /^hud_session=[\w-]{12}\.[\w-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    const cookie = opened.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect((await app(server, 'GET', '/auth/status', { cookie })).body).toEqual({ ok: true, signedIn: true });
    expect((await app(server, 'GET', '/auth/status')).body).toEqual({ ok: true, signedIn: false });

    const wrong = await app(server, 'GET', '/?key=not-the-key');
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('by the form: a wrong key is 401 in words, the right one signs in; sign-out clears the cookie', async () => {
    const server = await build({ headless: false });
    const wrong = await app(server, 'POST', '/auth/sign-in', { body: { key: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      ok: false,
      error: 'unauthorized',
      message: expect.stringContaining('sign-in key'),
    });
    const key = new URL(server.signInUrl()).searchParams.get('key');
    const right = await app(server, 'POST', '/auth/sign-in', { body: { key } });
    expect(right.status).toBe(200);
    const cookie = right.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect((await app(server, 'GET', '/api/panel/token', { cookie })).body).toEqual({
      ok: true,
      token: server.service.secrets.token(),
    });
    const out = await app(server, 'POST', '/auth/sign-out', { cookie });
    expect(out.headers.get('set-cookie')).toMatch(/^hud_session=; Max-Age=0/);
    expect((await app(server, 'POST', '/auth/sign-in', { body: { kee: key } })).body.message).toBe(
      'sign-in: unknown field kee; did you mean key?',
    );
  });

  it('the panel API answers only a signed-in browser', async () => {
    const server = await build({ headless: false });
    for (const [method, path] of [
      ['GET', '/api/panel/token'],
      ['GET', '/api/panel/requests'],
      ['POST', '/api/panel/token/regenerate'],
      ['POST', '/api/panel/settings'],
      // The router decodes the path and ignores a trailing slash: so do the checks.
      ['GET', '/api/%70anel/token'],
      ['GET', '/api/panel/token/'],
      ['POST', '/api/%70anel/settings'],
    ] as const) {
      const answer = await app(server, method, path, method === 'POST' ? { body: {} } : {});
      expect(answer.status, path).toBe(401);
      expect(answer.body.error).toBe('unauthorized');
    }
  });

  it('serves the operator app page', async () => {
    const server = await build({ headless: false });
    const page = await app(server, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).toContain('<div id="app">');
  });
});

describe('the application server refuses other sites', () => {
  it('a foreign Origin cannot sign in, change settings or open the WebSocket; its own Origin can', async () => {
    const server = await build({ headless: false });
    const cookie = await signIn(server);
    const evil = { origin: 'http://evil.example' };
    expect((await app(server, 'POST', '/auth/sign-in', { body: { key: 'x' }, headers: evil })).status).toBe(
      403,
    );
    const settings = await app(server, 'POST', '/api/panel/settings', {
      cookie,
      body: { lanMode: true },
      headers: evil,
    });
    expect(settings.status).toBe(403);
    expect(server.service.settings.current().lanMode).toBe(false);
    await expect(
      connect(`${server.applicationUrl.replace('http', 'ws')}/ws`, { headers: { ...evil, cookie } }),
    ).rejects.toThrow('HTTP 403');
    const own = { origin: server.applicationUrl };
    const ok = await app(server, 'POST', '/api/panel/settings', {
      cookie,
      body: { lanMode: false },
      headers: own,
    });
    expect(ok.status).toBe(200);
    const socket = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws`, {
      headers: { ...own, cookie },
    });
    expect((await socket.next()).type).toBe('hello');
    socket.close();
  });

  it('a Host that is not this machine is refused (DNS rebinding)', async () => {
    const server = await build({ headless: false });
    // fetch will not send another Host: a raw request does, as a rebinding page's browser would.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.applicationUrl}/api/state`,
        { headers: { host: 'rebind.example:44554' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('the main window is a signed-in operator app page', () => {
  it('main-window commands answer 503 until a page is connected, and again soon after the last one goes', async () => {
    const server = await build({ headless: false });
    expect((await command(server, 'veto_status')).status).toBe(503);
    const cookie = await signIn(server);
    const watcher = await connect(server.wsUrl);
    await watcher.next();
    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=operator`, {
      headers: { cookie },
    });
    expect((await page.next()).type).toBe('hello');
    await watcher.waitFor((m) => m.event === 'hud.state' && m.data.mainWindowOpen === true);
    expect((await command(server, 'veto_status')).body).toMatchObject({
      ok: true,
      result: { active: false },
    });
    expect((await app(server, 'GET', '/api/state')).body.state.mainWindowOpen).toBe(true);

    const left = Date.now();
    page.close();
    await watcher.waitFor((m) => m.event === 'hud.state' && m.data.mainWindowOpen === false);
    const took = Date.now() - left;
    expect(took).toBeGreaterThanOrEqual(MAIN_WINDOW_GRACE_MS - 50);
    expect(took).toBeLessThan(2000);
    expect((await command(server, 'veto_status')).status).toBe(503);
  });

  it('a page that is not signed in does not open the main window; the panel events go to signed-in pages only', async () => {
    const server = await build({ headless: false });
    const overlay = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=operator`);
    expect((await overlay.next()).type).toBe('hello');
    expect((await command(server, 'veto_status')).status).toBe(503);
    const cookie = await signIn(server);
    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=operator`, {
      headers: { cookie },
    });
    await page.next();
    const status = await page.next();
    expect(status).toMatchObject({
      type: 'event',
      event: 'panel.status',
      data: {
        settings: { lanMode: false, automation: { enabled: true } },
        automation: {
          enabled: true,
          listening: true,
          port: server.port,
          httpUrls: [server.httpUrl],
          wsUrls: [server.wsUrl],
        },
        app: { appUrls: [server.applicationUrl] },
      },
    });
    // A program's request to the automation server shows in the operator app within a moment.
    await fetch(`${server.httpUrl}/api/state`);
    const request = await page.waitFor((m) => m.event === 'panel.request');
    expect(request.data.record).toMatchObject({
      transport: 'http',
      request: 'GET /api/state',
      status: 200,
      address: '127.0.0.1',
    });
    expect(overlay.received.some((m) => m.event?.startsWith('panel.'))).toBe(false);
  });

  it('a command from the operator app is the same command, recorded with its sender', async () => {
    const server = await build({ headless: false });
    const cookie = await signIn(server);
    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=operator`, {
      headers: { cookie },
    });
    await page.next();
    await page.waitFor((m) => m.event === 'hud.state' && m.data.mainWindowOpen === true);
    page.send({
      type: 'trigger',
      id: 1,
      action: 'veto_start',
      payload: { boFormat: 'bo1', teamA: { name: 'B8' }, teamB: { name: 'Falcons' } },
    });
    expect(await page.waitFor((m) => m.type === 'result')).toMatchObject({
      ok: true,
      result: { active: true },
    });
    expect((await app(server, 'GET', '/api/panel/requests', { cookie })).body.requests).toContainEqual(
      expect.objectContaining({
        transport: 'app',
        request: 'trigger veto_start',
        status: 200,
        address: '127.0.0.1',
      }),
    );
    expect((await command(server, 'veto_status')).body.result).toMatchObject({
      active: true,
      boFormat: 'bo1',
    });
  });

  it('each browser has its own session, listed with its device; Sign out ends it on the server', async () => {
    const server = await build({ headless: false });
    const key = new URL(server.signInUrl()).searchParams.get('key');
    const browser = async (userAgent: string) => {
      const answer = await app(server, 'POST', '/auth/sign-in', {
        body: { key },
        headers: { 'user-agent': userAgent },
      });
      return answer.headers.get('set-cookie')?.split(';')[0] ?? '';
    };
    const desk = await browser('Mozilla/5.0 (Windows NT 10.0) Chrome/131 desk');
    const tablet = await browser('Mozilla/5.0 (iPad; CPU OS 18_1) tablet');
    expect(desk).not.toBe(tablet);
    const listed = await app(server, 'GET', '/api/panel/sessions', { cookie: desk });
    expect(listed.body.sessions).toHaveLength(2);
    expect(listed.body.sessions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          device: expect.stringContaining('desk'),
          address: '127.0.0.1',
          current: true,
        }),
        expect.objectContaining({ device: expect.stringContaining('tablet'), current: false }),
      ]),
    );
    // Signing out ends the session: the same cookie, kept by a copy, opens nothing any more.
    await app(server, 'POST', '/auth/sign-out', { cookie: desk });
    expect((await app(server, 'GET', '/auth/status', { cookie: desk })).body.signedIn).toBe(false);
    expect((await app(server, 'GET', '/api/panel/token', { cookie: desk })).status).toBe(401);
    expect((await app(server, 'GET', '/auth/status', { cookie: tablet })).body.signedIn).toBe(true);
    // A cookie of the right form with a wrong secret is nobody.
    const forged = `${tablet.slice(0, tablet.indexOf('.') + 1)}${'A'.repeat(43)}`;
    expect((await app(server, 'GET', '/auth/status', { cookie: forged })).body.signedIn).toBe(false);
  });

  it('a session can be ended from another browser; an unknown one is 404 in words, a bad body 400', async () => {
    const server = await build({ headless: false });
    const desk = await signIn(server);
    const tablet = await signIn(server);
    const sessions = (await app(server, 'GET', '/api/panel/sessions', { cookie: desk })).body.sessions;
    const other = sessions.find((session: { current: boolean }) => !session.current);
    const tabletPage = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=operator`, {
      headers: { cookie: tablet },
    });
    await tabletPage.next();
    const ended = await app(server, 'POST', '/api/panel/sessions/end', {
      cookie: desk,
      body: { id: other.id },
    });
    expect(ended.body).toEqual({ ok: true });
    // Its open operator app page goes at once, not at its next request.
    expect(await tabletPage.closed).toMatchObject({ code: 4401 });
    expect((await app(server, 'GET', '/auth/status', { cookie: tablet })).body.signedIn).toBe(false);
    const again = await app(server, 'POST', '/api/panel/sessions/end', {
      cookie: desk,
      body: { id: other.id },
    });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({
      ok: false,
      error: 'not_found',
      message: expect.stringContaining(other.id),
    });
    const bad = await app(server, 'POST', '/api/panel/sessions/end', { cookie: desk, body: { id: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_payload' });
    expect((await app(server, 'GET', '/api/panel/sessions', { cookie: tablet })).status).toBe(401);
  });

  it('sessions survive a restart; one ended stays ended; the key regenerated from the app ends them all', async () => {
    const dataDir = await tempDir();
    const first = await build({ headless: false, dataDir });
    const desk = await signIn(first);
    const tablet = await signIn(first);
    await app(first, 'POST', '/auth/sign-out', { cookie: tablet });
    await first.close();
    const server = await build({ headless: false, dataDir });
    expect((await app(server, 'GET', '/auth/status', { cookie: desk })).body.signedIn).toBe(true);
    expect((await app(server, 'GET', '/auth/status', { cookie: tablet })).body.signedIn).toBe(false);
    const oldKey = new URL(server.signInUrl()).searchParams.get('key');
    const regenerated = await app(server, 'POST', '/api/panel/sign-in-key/regenerate', { cookie: desk });
    expect(regenerated.body).toEqual({ ok: true, key: expect.stringMatching(/^[\w-]{43}$/) });
    expect(regenerated.body.key).not.toBe(oldKey);
    expect((await app(server, 'GET', '/auth/status', { cookie: desk })).body.signedIn).toBe(false);
    expect((await app(server, 'POST', '/auth/sign-in', { body: { key: oldKey } })).status).toBe(401);
    const fresh = await app(server, 'POST', '/auth/sign-in', { body: { key: regenerated.body.key } });
    const cookie = fresh.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect((await app(server, 'GET', '/api/panel/sessions', { cookie })).body.sessions).toHaveLength(1);
  });

  it('regenerating the sign-in key signs every browser out', async () => {
    const server = await build({ headless: false });
    const cookie = await signIn(server);
    const page = await connect(`${server.applicationUrl.replace('http', 'ws')}/ws?role=operator`, {
      headers: { cookie },
    });
    await page.next();
    await server.service.secrets.regenerateSignInKey();
    expect(await page.closed).toMatchObject({ code: 4401 });
    expect((await app(server, 'GET', '/auth/status', { cookie })).body.signedIn).toBe(false);
    expect((await command(server, 'veto_status')).status).toBe(503);
  });
});

describe('Enable local automation server', () => {
  it('switching it off closes the port (clients get 1001), on opens it again, and the choice is saved', async () => {
    const dataDir = await tempDir();
    const server = await build({ headless: false, dataDir });
    const cookie = await signIn(server);
    const client = await connect(server.wsUrl);
    await client.next();
    const off = await app(server, 'POST', '/api/panel/settings', {
      cookie,
      body: { automation: { enabled: false } },
    });
    expect(off.body.settings.automation).toEqual({ enabled: false });
    expect(await client.closed).toEqual({
      code: 1001,
      reason: 'the local automation server was switched off',
    });
    expect(await portOpen(server.port)).toBe(false);

    const port = server.port;
    await app(server, 'POST', '/api/panel/settings', { cookie, body: { automation: { enabled: true } } });
    expect(server.port).toBe(port);
    expect(await portOpen(port)).toBe(true);
    expect((await command(server, 'toggle_scoreboard')).status).toBe(200);

    await app(server, 'POST', '/api/panel/settings', { cookie, body: { automation: { enabled: false } } });
    await server.close();
    const again = await build({ headless: false, dataDir });
    expect(again.automation.server.listening).toBe(false);
    expect(again.application.server.listening).toBe(true);
    expect((await app(again, 'GET', '/api/panel/requests', { cookie })).status).toBe(200);
  });
});
