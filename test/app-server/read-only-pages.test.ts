/**
 * Roles that are not self-declared (issue 22), on this machine over real sockets: what a connection
 * to the application server's WebSocket may run follows its credential, not its `?role=`. A browser
 * page without a session (OBS on this machine: it carries the application server's own Origin) and
 * anything that presents only the view key read the state and may not run a command, whatever role
 * they name; the HUD overlay's report still works for role=overlay. A signed-in page, the access
 * token and a program on this machine (no Origin, the spec's local client) keep full rights. The view
 * key is its own owner-only file, read and regenerated through the panel API.
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
