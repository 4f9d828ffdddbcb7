/**
 * Roles that are not self-declared (issue 22), on this machine over real sockets: what a connection
 * to the application server's WebSocket may run follows its credential, not its `?role=`. A browser
 * page without a session (OBS on this machine: it carries the application server's own Origin) and
 * anything that presents only the view key read the state and may not run a command, whatever role
 * they name; the HUD overlay's report works for role=overlay on this machine's page, never with the
 * view key (issue 37: the view key reads, never writes). A signed-in page, the access token and a
 * program on this machine (no Origin, the spec's local client) keep full rights. The view key is its
 * own owner-only file, read and regenerated through the panel API.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, get, tempDir } from '../helpers/build.ts';
import { connect, type TestSocket } from '../helpers/ws-client.ts';

type Server = Awaited<ReturnType<typeof build>>;

const wsOf = (server: Server, query: string) => `${server.applicationUrl.replace('http', 'ws')}/ws${query}`;

/** Sends a trigger and returns its result. */
async function trigger(socket: TestSocket, id: string, action: string) {
  socket.send({ type: 'trigger', id, action });
  return socket.waitFor((m) => m.type === 'result' && m.id === id);
}

async function signIn(server: Server): Promise<string> {
  const response = await fetch(server.signInUrl(), { redirect: 'manual' });
  expect(response.status).toBe(303);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

describe('pages that only show cannot run commands, whatever role they name', () => {
  it('a page in OBS on this machine (own Origin, no session) reads and is refused every command; the overlay still reports', async () => {
    const server = await build();
    const origin = server.applicationUrl;
    for (const query of ['', '?role=operator', '?role=scene', '?role=overlay', '?role=program']) {
      const page = await connect(wsOf(server, query), { headers: { origin } });
      expect((await page.next()).type).toBe('hello');
      const answer = await trigger(page, 'cmd', 'show_scoreboard');
      expect(answer, query).toMatchObject({ ok: false, status: 403, error: 'forbidden' });
      // A snapshot has no side effect: a showing page resyncs with it.
      page.send({ type: 'snapshot', id: 's' });
      expect(await page.waitFor((m) => m.type === 'snapshot')).toMatchObject({ id: 's' });
      page.close();
    }
    expect((await get(server, '/api/state')).body.state.scoreboardVisible).toBeUndefined();

    const overlay = await connect(wsOf(server, '?role=overlay'), { headers: { origin } });
    await overlay.next();
    overlay.send({ type: 'report', id: 'r', report: { opened: true, scoreboardVisible: true } });
    expect(await overlay.waitFor((m) => m.type === 'result' && m.id === 'r')).toMatchObject({
      ok: true,
      action: 'overlay_report',
    });
    expect((await get(server, '/api/state')).body.state).toMatchObject({
      scoreboardVisible: true,
      hudWindowOpen: true,
    });
    // The report is the overlay's alone: a page naming no role may not send it.
    const unnamed = await connect(wsOf(server, ''), { headers: { origin } });
    await unnamed.next();
    unnamed.send({ type: 'report', id: 'r2', report: { scoreboardVisible: false } });
    expect(await unnamed.waitFor((m) => m.type === 'result' && m.id === 'r2')).toMatchObject({
      ok: false,
      status: 403,
      error: 'forbidden',
    });
  });

  it('the view key only reads, with or without an Origin; a program, the access token and a session run commands', async () => {
    const server = await build({ headless: false });
    const viewKey = server.service.secrets.viewKey();
    for (const query of [`?view=${viewKey}`, `?role=operator&view=${viewKey}`]) {
      const viewer = await connect(wsOf(server, query));
      expect((await viewer.next()).type).toBe('hello');
      expect(await trigger(viewer, 'v', 'show_veto'), query).toMatchObject({ ok: false, status: 403 });
      viewer.close();
    }

    // A program on this machine needs no credential (the spec's local clients).
    const program = await connect(wsOf(server, ''));
    await program.next();
    expect(await trigger(program, 'p', 'show_scoreboard')).toMatchObject({ ok: true });

    const origin = server.applicationUrl;
    const withToken = await connect(wsOf(server, `?token=${server.service.secrets.token()}`), {
      headers: { origin },
    });
    await withToken.next();
    expect(await trigger(withToken, 't', 'hide_scoreboard')).toMatchObject({ ok: true });

    const cookie = await signIn(server);
    const operator = await connect(wsOf(server, '?role=operator'), { headers: { origin, cookie } });
    await operator.next();
    expect(await trigger(operator, 'o', 'show_veto')).toMatchObject({ ok: true });
  });

  it('the view key never writes: its reports, triggers and HTTP writes are refused and nothing changes, with or without an Origin', async () => {
    const server = await build({ headless: false });
    const viewKey = server.service.secrets.viewKey();
    const origin = server.applicationUrl;
    const before = (await get(server, '/api/state')).body.state;
    const { secrets: held } = server.service;
    const secrets = () => [held.token(), held.viewKey(), held.signInKey()];
    const keys = secrets();
    const report = { opened: true, scoreboardVisible: true, presets: [{ id: 'forged', name: 'Forged' }] };
    const withAndWithoutOrigin: Record<string, string>[] = [{}, { origin }];

    // Every role a page names, the HUD overlay's and the observer page's (role=scene) among them.
    for (const role of ['overlay', 'scene', 'operator', 'program', '']) {
      for (const headers of withAndWithoutOrigin) {
        const query = `?view=${viewKey}${role ? `&role=${role}` : ''}`;
        const where = `${query} ${JSON.stringify(headers)}`;
        const viewer = await connect(wsOf(server, query), { headers });
        expect((await viewer.next()).type).toBe('hello');
        viewer.send({ type: 'report', id: 'r', report });
        const reported = await viewer.waitFor((m) => m.type === 'result' && m.id === 'r');
        expect(reported, where).toMatchObject({ ok: false, status: 403, error: 'forbidden' });
        expect(reported.message, where).toContain('only reads');
        expect(await trigger(viewer, 't', 'show_scoreboard'), where).toMatchObject({
          ok: false,
          status: 403,
          error: 'forbidden',
        });
        // Reads stay: a snapshot and a ping.
        viewer.send({ type: 'snapshot', id: 's' });
        expect(await viewer.waitFor((m) => m.type === 'snapshot' && m.id === 's')).toBeDefined();
        viewer.send({ type: 'ping', id: 'p' });
        expect(await viewer.waitFor((m) => m.type === 'pong' && m.id === 'p')).toMatchObject({
          revision: before.revision,
        });
        viewer.close();
      }
    }

    // The observer page loads with the key; every write route of the application server refuses it.
    expect((await fetch(`${server.applicationUrl}/observer?view=${viewKey}`)).status).toBe(200);
    const writes = [
      ['/api/panel/settings', { lanMode: true }],
      ['/api/panel/subscription', { active: true }],
      ['/api/panel/token/regenerate', undefined],
      ['/api/panel/view-key/regenerate', undefined],
      ['/api/panel/sign-in-key/regenerate', undefined],
      ['/api/panel/sessions/end', { id: 'x' }],
      ['/api/panel/media', { data: 'iVBORw0KGgo=' }],
      ['/api/panel/media/radar', { data: 'iVBORw0KGgo=' }],
      ['/api/panel/game/install', {}],
      ['/api/actions/show_scoreboard', undefined],
      ['/internal/overlay_report', report],
    ] as const;
    for (const [path, body] of writes) {
      for (const headers of withAndWithoutOrigin) {
        const response = await fetch(`${server.applicationUrl}${path}?view=${viewKey}`, {
          method: 'POST',
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBeGreaterThanOrEqual(400);
        expect(await response.json()).toMatchObject({ ok: false });
      }
    }

    // Nothing on air changed, no revision, no preset catalogue, no secret, no setting.
    expect((await get(server, '/api/state')).body.state).toEqual(before);
    expect((await get(server, '/api/presets')).body.presets).toEqual([]);
    expect(secrets()).toEqual(keys);
    expect(server.service.settings.current().lanMode).toBe(false);
  });

  it('the view key is its own owner-only file; the panel reads and regenerates it, and the old one stops working', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    const file = join(dataDir, 'view-key');
    const viewKey = server.service.secrets.viewKey();
    expect(viewKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(viewKey).not.toBe(server.service.secrets.token());
    expect((await readFile(file, 'utf8')).trim()).toBe(viewKey);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const cookie = await signIn(server);
    const origin = server.applicationUrl;
    const read = await fetch(`${server.applicationUrl}/api/panel/view-key`, { headers: { cookie } });
    expect(await read.json()).toEqual({ ok: true, viewKey });
    expect((await fetch(`${server.applicationUrl}/api/panel/view-key`)).status).toBe(401);

    const regenerated = await fetch(`${server.applicationUrl}/api/panel/view-key/regenerate`, {
      method: 'POST',
      headers: { cookie, origin },
    });
    const next = ((await regenerated.json()) as { viewKey: string }).viewKey;
    expect(next).not.toBe(viewKey);
    expect(server.service.secrets.viewKey()).toBe(next);
    expect((await readFile(file, 'utf8')).trim()).toBe(next);
  });
});
