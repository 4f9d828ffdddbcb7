/**
 * Access from real non-loopback addresses: the server runs in this process (root namespace), the
 * clients in network namespaces (test/helpers/netns.ts), so the service judges real socket
 * addresses: IPv4 private (arriving ::ffff:-mapped on the dual-stack listener), IPv6 unique local,
 * IPv6 link-local with a zone id, and two non-private sources. docs/access.md is the contract.
 *
 * Every test builds its own server (build() closes it after the test), so each starts with a fresh
 * rate-limit budget and a fresh token; the network is built once for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../src/net/address-class.ts';
import { AUTH_DEADLINE_MS } from '../../src/protocol/websocket.ts';
import type { RunningServer } from '../../src/server.ts';
import { build } from '../helpers/build.ts';
import {
  canCreateNetns,
  createTestNetwork,
  type HostName,
  netnsSkipReason,
  type TestNetwork,
  type WsSession,
} from '../helpers/netns.ts';
import { connect } from '../helpers/ws-client.ts';

// Throws when HUD_REQUIRE_NETNS=1 and namespaces cannot be made, so CI cannot pass by skipping.
const skipReason = netnsSkipReason();

const LOCAL_HOSTS = ['lan', 'lan6', 'linkLocal'] as const satisfies readonly HostName[];
const OUTSIDE_HOSTS = ['outside', 'outside6'] as const satisfies readonly HostName[];

type Json = Record<string, any>;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const serviceToken = (token: string) => ({ 'x-service-token': token });

/** A server in local network mode, listening on '::' like `--lan`. */
async function lanServer(options: Parameters<typeof build>[0] = {}) {
  const server = await build({ ...options, overrides: { lanMode: true } });
  return { server, port: server.port, token: server.service.secrets.token() };
}

/** A request from this machine (127.0.0.1): the panel's side. */
async function local(server: RunningServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.httpUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

const stateOf = async (server: RunningServer) =>
  (await local(server, 'GET', '/api/state')).body.state as Json;

/** Waits for the first message (read or not) that matches; throws after `timeoutMs`. */
async function messageMatching(
  session: WsSession,
  match: (m: Json) => boolean,
  timeoutMs = 2000,
): Promise<Json> {
  const found = () => session.messages.map((m) => m.data as Json).find((m) => m !== null && match(m));
  await session.waitUntil(() => found() !== undefined || session.closeInfo !== null, timeoutMs);
  const message = found();
  if (message === undefined) {
    throw new Error(
      `no matching WebSocket message within ${timeoutMs} ms (close: ${JSON.stringify(session.closeInfo)})`,
    );
  }
  return message;
}

const unauthorizedEnvelope = { ok: false, error: 'unauthorized', message: expect.any(String) };
const forbiddenEnvelope = { ok: false, error: 'forbidden', message: expect.any(String) };

describe.skipIf(!canCreateNetns())(
  `access from real network addresses${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let net: TestNetwork;
    beforeAll(async () => {
      net = await createTestNetwork();
    });
    afterAll(async () => {
      await net?.close();
    });

    /** A remote WebSocket with the token in the address, once its hello has arrived. */
    async function openAuthed(host: HostName, port: number, token: string): Promise<WsSession> {
      const session = await net.openWs(host, { port, path: `/?token=${encodeURIComponent(token)}` });
      expect(session.outcome, `${host}: ${JSON.stringify(session.refusal ?? session.error)}`).toBe('open');
      expect(await session.nextMessage()).toMatchObject({ type: 'hello', service: 'hud-automation' });
      return session;
    }

    describe('local network mode on: the token lets a device on the local network in', () => {
      it.each(LOCAL_HOSTS)(
        'from %s: commands over HTTP (Bearer and X-Service-Token) and WebSocket (?token= and auth message), with hello and events',
        async (host) => {
          const { server, port, token } = await lanServer();

          const byQuery = await openAuthed(host, port, token);
          const byMessage = await net.openWs(host, { port });
          expect(byMessage.outcome).toBe('open');
          // A change while the second socket has not authenticated yet: it must not see it.
          expect((await local(server, 'POST', '/api/actions/show_stats')).status).toBe(200);
          await messageMatching(byQuery, (m) => m.type === 'event' && m.revision === 1);
          byMessage.send({ type: 'auth', token });
          const hello = (await byMessage.nextMessage()) as Json;
          expect(hello).toMatchObject({
            type: 'hello',
            snapshot: { revision: 1, state: { statsVisible: true } },
          });
          expect(byMessage.messages).toHaveLength(1);

          const viaBearer = await net.http(host, {
            port,
            path: '/api/actions/show_scoreboard',
            method: 'POST',
            headers: bearer(token),
          });
          expect(viaBearer.status).toBe(200);
          expect(viaBearer.json).toMatchObject({ ok: true, state: { revision: 2, scoreboardVisible: true } });
          const viaHeader = await net.http(host, { port, path: '/api/state', headers: serviceToken(token) });
          expect(viaHeader.status).toBe(200);
          expect(viaHeader.json).toMatchObject({ ok: true, state: { revision: 2, scoreboardVisible: true } });

          // The HTTP command reached both remote sockets as an event.
          const scoreboardEvent = (m: Json) => m.type === 'event' && m.revision === 2;
          for (const session of [byQuery, byMessage]) {
            expect(await messageMatching(session, scoreboardEvent)).toEqual({
              type: 'event',
              event: 'hud.state',
              revision: 2,
              data: { scoreboardVisible: true },
            });
          }

          // A trigger over the WebSocket runs the command; both sockets see its event.
          byMessage.send({ type: 'trigger', id: 'remote-1', action: 'toggle_veto' });
          expect(await messageMatching(byMessage, (m) => m.type === 'result')).toEqual({
            type: 'result',
            id: 'remote-1',
            action: 'toggle_veto',
            ok: true,
            state: { revision: 3, vetoVisible: true },
            result: {},
          });
          expect(await messageMatching(byQuery, (m) => m.type === 'event' && m.revision === 3)).toMatchObject(
            {
              data: { vetoVisible: true },
            },
          );
          expect((await stateOf(server)).vetoVisible).toBe(true);

          await Promise.all([byQuery.close(), byMessage.close()]);
        },
      );

      it('a WebSocket upgrade may carry the token in a header too', async () => {
        const { port, token } = await lanServer();
        for (const headers of [bearer(token), serviceToken(token)]) {
          const session = await net.openWs('lan', { port, headers });
          expect(await session.nextMessage()).toMatchObject({ type: 'hello' });
          await session.close();
        }
      });
    });

    describe('local network mode on: without the right token a device gets nothing', () => {
      it('HTTP: a missing or wrong token is 401 unauthorized, and the command does not run', async () => {
        const { server, port, token } = await lanServer();
        const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
        const attempts: Array<[string, Record<string, string>, string?]> = [
          ['missing', {}],
          ['wrong Bearer', bearer(wrong)],
          ['wrong X-Service-Token', serviceToken(wrong)],
          ['empty Bearer', { authorization: 'Bearer ' }],
          ['another Authorization scheme', { authorization: `Basic ${token}` }],
          // Authorization wins when both headers carry a token.
          ['wrong Bearer with a right X-Service-Token', { ...bearer(wrong), ...serviceToken(token) }],
          // Over HTTP the token goes in a header only: ?token= is for WebSocket addresses.
          ['right token in the query', {}, `?token=${token}`],
        ];
        for (const [what, headers, query = ''] of attempts) {
          const answer = await net.http('lan', {
            port,
            method: 'POST',
            path: `/api/actions/show_scoreboard${query}`,
            headers,
          });
          expect(answer.status, what).toBe(401);
          expect(answer.json, what).toEqual(unauthorizedEnvelope);
          expect(answer.body, what).not.toContain(token);
        }
        const read = await net.http('lan6', { port, path: '/api/state' });
        expect([read.status, read.json]).toEqual([401, unauthorizedEnvelope]);
        expect(await stateOf(server)).toMatchObject({ revision: 0 });
        expect((await stateOf(server)).scoreboardVisible).toBeUndefined();
      });

      it('WebSocket: a wrong ?token=, a first message that is not auth, or a wrong auth token close with 4401, and nothing is received', async () => {
        const { server, port, token } = await lanServer();
        const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
        const cases: Array<{ what: string; host: HostName; path?: string; first?: unknown }> = [
          { what: 'wrong ?token=', host: 'lan', path: `/?token=${wrong}` },
          {
            what: 'first message is a trigger',
            host: 'lan6',
            first: { type: 'trigger', action: 'show_scoreboard' },
          },
          { what: 'first message is not JSON', host: 'linkLocal', first: 'hello?' },
          { what: 'wrong token in the auth message', host: 'lan', first: { type: 'auth', token: wrong } },
          { what: 'auth message without token', host: 'lan6', first: { type: 'auth' } },
        ];
        for (const { what, host, path, first } of cases) {
          const session = await net.openWs(host, { port, ...(path ? { path } : {}) });
          expect(session.outcome, what).toBe('open');
          if (first !== undefined) session.send(first);
          const close = await session.waitForClose(2000);
          expect(close, what).toMatchObject({ code: 4401, by: 'server' });
          expect(close.reason, what).not.toContain(token);
          expect(session.messages, what).toEqual([]);
        }
        expect((await stateOf(server)).revision).toBe(0);
      });

      it(`WebSocket: no auth message within ${AUTH_DEADLINE_MS / 1000} s closes with 4401; events meanwhile are not sent`, async () => {
        const { server, port } = await lanServer();
        const started = Date.now();
        const sessions = await Promise.all(LOCAL_HOSTS.map((host) => net.openWs(host, { port })));
        for (const session of sessions) expect(session.outcome).toBe('open');
        expect((await local(server, 'POST', '/api/actions/toggle_scoreboard')).status).toBe(200);
        const closes = await Promise.all(
          sessions.map((session) => session.waitForClose(AUTH_DEADLINE_MS + 3000)),
        );
        for (const [index, close] of closes.entries()) {
          expect(close, LOCAL_HOSTS[index]).toMatchObject({ code: 4401, by: 'server' });
          // Measured by the client from the start of connecting: the deadline, not much earlier.
          expect(close.at).toBeGreaterThanOrEqual(AUTH_DEADLINE_MS - 100);
        }
        expect(Date.now() - started).toBeLessThan(AUTH_DEADLINE_MS + 3000);
        for (const session of sessions) expect(session.messages).toEqual([]);
      });
    });

    describe('local network mode off', () => {
      it('the default listens on loopback only: no device on the network can even connect', async () => {
        const server = await build();
        expect(server.service.settings.current().lanMode).toBe(false);
        const token = server.service.secrets.token();
        for (const host of [...LOCAL_HOSTS, ...OUTSIDE_HOSTS]) {
          const answer = await net.http(host, { port: server.port, path: '/health', headers: bearer(token) });
          expect([answer.status, answer.error?.code], host).toEqual([null, 'ECONNREFUSED']);
        }
        const ws = await net.openWs('lan', { port: server.port, path: `/?token=${token}` });
        expect([ws.outcome, ws.error?.code]).toEqual(['error', 'ECONNREFUSED']);
        expect((await local(server, 'GET', '/health')).status).toBe(200);
      });

      it('switched off at runtime: remote sockets close with 4403, new connections are refused; switched on again, the device gets back in on the same port', async () => {
        const { server, port, token } = await lanServer();
        const remote = await openAuthed('lan', port, token);
        const awaitingAuth = await net.openWs('lan6', { port });
        expect(awaitingAuth.outcome).toBe('open');
        const onThisMachine = await connect(server.wsUrl);
        await onThisMachine.next(); // hello

        const off = await local(server, 'POST', '/internal/settings', { lanMode: false });
        expect(off).toMatchObject({ status: 200, body: { ok: true, settings: { lanMode: false } } });
        for (const session of [remote, awaitingAuth]) {
          expect(await session.waitForClose(2000)).toMatchObject({ code: 4403, by: 'server' });
        }
        for (const host of LOCAL_HOSTS) {
          const answer = await net.http(host, { port, path: '/health', headers: bearer(token) });
          expect([answer.status, answer.error?.code], host).toEqual([null, 'ECONNREFUSED']);
        }
        const refused = await net.openWs('lan', { port, path: `/?token=${token}` });
        expect([refused.outcome, refused.error?.code]).toEqual(['error', 'ECONNREFUSED']);
        // Programs on this machine keep their connection and their service.
        onThisMachine.send({ type: 'ping', id: 'still-there' });
        expect(await onThisMachine.waitFor((m) => m.type === 'pong')).toMatchObject({ id: 'still-there' });

        const on = await local(server, 'POST', '/internal/settings', { lanMode: true });
        expect(on).toMatchObject({ status: 200, body: { ok: true, settings: { lanMode: true } } });
        const address = server.automation.server.address();
        expect(typeof address === 'object' && address?.port).toBe(port);
        const back = await net.http('lan', {
          port,
          method: 'POST',
          path: '/api/actions/show_scoreboard',
          headers: bearer(token),
        });
        expect(back).toMatchObject({ status: 200, json: { ok: true, state: { scoreboardVisible: true } } });
        expect((await net.http('lan', { port, path: '/api/state' })).status).toBe(401);
        const again = await openAuthed('lan6', port, token);
        await again.close();
        // The loopback socket survived both rebinds and still gets events.
        expect(await onThisMachine.waitFor((m) => m.type === 'event')).toMatchObject({
          data: { scoreboardVisible: true },
        });
        onThisMachine.close();
      });
    });

    describe('devices outside the local network', () => {
      it.each(OUTSIDE_HOSTS)(
        '%s is refused with 403 forbidden even with the right token, over HTTP and the WebSocket upgrade',
        async (host) => {
          const { server, port, token } = await lanServer();
          for (const headers of [bearer(token), serviceToken(token), {}]) {
            const command = await net.http(host, {
              port,
              method: 'POST',
              path: '/api/actions/show_scoreboard',
              headers,
            });
            expect([command.status, command.json]).toEqual([403, forbiddenEnvelope]);
            const read = await net.http(host, { port, path: '/api/state', headers });
            expect([read.status, read.json]).toEqual([403, forbiddenEnvelope]);
          }
          for (const request of [{ path: `/?token=${token}` }, { headers: bearer(token) }, {}]) {
            const ws = await net.openWs(host, { port, ...request });
            expect(ws.outcome).toBe('refused');
            expect(ws.refusal).toMatchObject({ status: 403, json: forbiddenEnvelope });
          }
          expect((await stateOf(server)).revision).toBe(0);
        },
      );
    });

    describe('paths only for this machine', () => {
      it('/internal/* and /gsi answer 403 to a device on the local network even with the token', async () => {
        const { server, port, token } = await lanServer();
        const attempts: Array<[method: string, path: string, body?: unknown]> = [
          ['GET', '/internal/token'],
          ['POST', '/internal/token/regenerate'],
          ['GET', '/internal/settings'],
          ['POST', '/internal/settings', { lanMode: false }],
          ['GET', '/internal/requests'],
          ['POST', '/internal/host_report', { mainWindowOpen: false }],
          ['GET', '/internal/token/'],
          ['POST', '/gsi', { player: { name: 'x' } }],
        ];
        for (const [method, path, body] of attempts) {
          const answer = await net.http('lan', { port, method, path, headers: bearer(token), body });
          expect(answer.status, `${method} ${path}`).toBe(403);
          expect(answer.json, `${method} ${path}`).toEqual(forbiddenEnvelope);
          expect(answer.body, `${method} ${path}`).not.toContain(token);
        }
        // Nothing changed: same token, still in local network mode, no state change.
        expect(server.service.secrets.token()).toBe(token);
        expect(server.service.settings.current().lanMode).toBe(true);
        expect((await stateOf(server)).revision).toBe(0);
        expect((await net.http('lan6', { port, path: '/api/state', headers: bearer(token) })).status).toBe(
          200,
        );
      });

      // The router percent-decodes paths and ignores a trailing slash: the check must judge the
      // matched route, or a token holder reaches the panel API through another spelling.
      it('another spelling of a local-only path (percent-encoded, trailing slash) is also 403', async () => {
        const { server, port, token } = await lanServer();
        const attempts: Array<[method: string, path: string, body?: unknown]> = [
          ['GET', '/%69nternal/token'],
          ['POST', '/%69nternal/host_report', { mainWindowOpen: false }],
          ['POST', '/gsi/', {}],
          ['POST', '/%67si', {}],
          // Last: were it let through, it would switch local network mode off for everyone.
          ['POST', '/%69nternal/settings', { lanMode: false }],
        ];
        const statuses = [];
        for (const [method, path, body] of attempts) {
          statuses.push(
            `${method} ${path} ${(await net.http('lan', { port, method, path, headers: bearer(token), body })).status}`,
          );
        }
        expect(statuses).toEqual(attempts.map(([method, path]) => `${method} ${path} 403`));
        expect(server.service.settings.current().lanMode).toBe(true);
      });
    });

    describe('rate limit: 20 requests per second per remote device', () => {
      it('21 requests within a second: twenty 200 and one 429 rate_limited with Retry-After; other devices keep their budget', async () => {
        const { port, token } = await lanServer();
        const burst = await net.burst('lan', { port, path: '/api/state', headers: bearer(token), count: 21 });
        expect(burst.elapsedMs, 'the burst must fit in one window').toBeLessThan(1000);
        expect(burst.counts).toEqual({ '200': 20, '429': 1 });
        const limited = burst.responses.find((response) => response.status === 429);
        expect(limited?.json).toEqual({ ok: false, error: 'rate_limited', message: expect.any(String) });
        expect(Number(limited?.retryAfter)).toBeGreaterThanOrEqual(1);
        // A WebSocket upgrade is a request too: refused before the upgrade.
        const ws = await net.openWs('lan', { port, path: `/?token=${token}` });
        expect(ws.outcome).toBe('refused');
        expect(ws.refusal).toMatchObject({ status: 429, json: { error: 'rate_limited' } });
        expect(Number(ws.refusal?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        // Another device on the same network has a budget of its own.
        expect((await net.http('lan6', { port, path: '/api/state', headers: bearer(token) })).status).toBe(
          200,
        );
      });

      it('guessing tokens costs budget too: the limit comes before the token check', async () => {
        const { port } = await lanServer();
        const burst = await net.burst('linkLocal', {
          port,
          path: '/api/state',
          headers: bearer('guess'),
          count: 21,
        });
        expect(burst.elapsedMs).toBeLessThan(1000);
        expect(burst.counts).toEqual({ '401': 20, '429': 1 });
      });

      it('HTTP requests and WebSocket triggers draw on one budget: the 21st is refused, a trigger with result 429', async () => {
        const { server, port, token } = await lanServer();
        const started = Date.now();
        // The upgrade is an HTTP request and counts (docs/access.md: the checks run for every upgrade): 1.
        const session = await openAuthed('lan', port, token);
        const burst = await net.burst('lan', { port, path: '/api/state', headers: bearer(token), count: 14 });
        expect(burst.counts).toEqual({ '200': 14 }); // 15
        for (let id = 1; id <= 6; id++) session.send({ type: 'trigger', id, action: 'toggle_scoreboard' }); // 21
        await session.waitUntil(
          () => session.messages.filter((m) => (m.data as Json).type === 'result').length === 6,
          2000,
        );
        // And an HTTP request after the triggers: refused as well, the budget is one.
        const http = await net.http('lan', { port, path: '/api/state', headers: bearer(token) });
        expect(Date.now() - started, 'all requests must fit in one window').toBeLessThan(1000);
        expect([http.status, http.headers['retry-after']]).toEqual([429, '1']);
        // Results are matched by id: a refused trigger answers before the ones still running.
        const results = session.messages
          .map((m) => m.data as Json)
          .filter((m) => m.type === 'result')
          .sort((a, b) => a.id - b.id);
        expect(results.map((r) => [r.id, r.ok])).toEqual([
          [1, true],
          [2, true],
          [3, true],
          [4, true],
          [5, true],
          [6, false],
        ]);
        expect(results[5]).toEqual({
          type: 'result',
          id: 6,
          action: 'toggle_scoreboard',
          ok: false,
          status: 429,
          error: 'rate_limited',
          message: expect.any(String),
        });
        // The refused trigger did not run: five toggles, five revisions.
        expect((await stateOf(server)).revision).toBe(5);
        await session.close();
      });

      it('programs on this machine are never limited', async () => {
        const { server } = await lanServer();
        const answers = await Promise.all(
          Array.from({ length: 50 }, () =>
            fetch(`${server.httpUrl}/api/state`).then((response) => response.status),
          ),
        );
        expect(answers).toEqual(Array(50).fill(200));
        const six = await Promise.all(
          Array.from({ length: 30 }, () => fetch(`http://[::1]:${server.port}/health`).then((r) => r.status)),
        );
        expect(six).toEqual(Array(30).fill(200));
        const client = await connect(server.wsUrl);
        await client.next();
        for (let id = 0; id < 30; id++) client.send({ type: 'trigger', id, action: 'toggle_stats' });
        for (let id = 0; id < 30; id++) {
          expect(await client.waitFor((m) => m.type === 'result' && m.id === id)).toMatchObject({ ok: true });
        }
        client.close();
      });
    });

    describe('token regeneration', () => {
      it('closes remote sockets with 4401 at once; the old token fails at once, the new one works; this machine is not affected', async () => {
        const { server, port, token: old } = await lanServer();
        const remote = await openAuthed('lan', port, old);
        const remote6 = await openAuthed('linkLocal', port, old);
        const onThisMachine = await connect(server.wsUrl);
        await onThisMachine.next();

        const regenerated = await local(server, 'POST', '/internal/token/regenerate');
        expect(regenerated.status).toBe(200);
        const fresh = regenerated.body.token as string;
        expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(fresh).not.toBe(old);
        for (const session of [remote, remote6]) {
          expect(await session.waitForClose(1000)).toMatchObject({ code: 4401, by: 'server' });
        }

        const withOld = await net.http('lan', { port, path: '/api/state', headers: bearer(old) });
        expect([withOld.status, withOld.json]).toEqual([401, unauthorizedEnvelope]);
        const withNew = await net.http('lan', { port, path: '/api/state', headers: bearer(fresh) });
        expect(withNew.status).toBe(200);
        const oldQuery = await net.openWs('lan', { port, path: `/?token=${old}` });
        expect(await oldQuery.waitForClose()).toMatchObject({ code: 4401 });
        const oldMessage = await net.openWs('lan6', { port });
        oldMessage.send({ type: 'auth', token: old });
        expect(await oldMessage.waitForClose()).toMatchObject({ code: 4401 });
        const newMessage = await net.openWs('lan6', { port });
        newMessage.send({ type: 'auth', token: fresh });
        expect(await newMessage.nextMessage()).toMatchObject({ type: 'hello' });
        await newMessage.close();

        expect((await local(server, 'GET', '/internal/token')).body.token).toBe(fresh);
        onThisMachine.send({ type: 'ping', id: 'p' });
        expect(await onThisMachine.waitFor((m) => m.type === 'pong')).toMatchObject({ id: 'p' });
        onThisMachine.close();
      });
    });

    describe('recent requests (panel)', () => {
      it("lists remote requests with the sender's address, transport, request and status; the token appears in no record and no log line", async () => {
        const lines: string[] = [];
        const { server, port, token } = await lanServer({ logSink: (line) => lines.push(line) });
        await net.http('lan', {
          port,
          method: 'POST',
          path: '/api/actions/show_scoreboard',
          headers: bearer(token),
        });
        await net.http('lan6', { port, path: '/api/state' });
        await net.http('outside', { port, path: '/api/state', headers: bearer(token) });
        const session = await openAuthed('lan6', port, token);
        session.send({ type: 'trigger', id: 1, action: 'toggle_veto' });
        session.send({ type: 'trigger', id: 2, action: 'no_such_action' });
        await session.waitUntil(
          () => session.messages.filter((m) => (m.data as Json).type === 'result').length === 2,
          2000,
        );
        await session.close();
        const wrongAuth = await net.openWs('linkLocal', { port });
        wrongAuth.send({ type: 'auth', token: 'not-the-token' });
        await wrongAuth.waitForClose();

        const { status, body } = await local(server, 'GET', '/internal/requests');
        expect(status).toBe(200);
        const records = (body.requests as Json[]).map((record) => ({
          ...record,
          address: canonicalAddress(record.address),
        }));
        const expected = [
          {
            transport: 'http',
            request: 'POST /api/actions/show_scoreboard',
            status: 200,
            address: net.lan.address,
          },
          {
            transport: 'http',
            request: 'GET /api/state',
            status: 401,
            error: 'unauthorized',
            address: net.lan6.address,
          },
          {
            transport: 'http',
            request: 'GET /api/state',
            status: 403,
            error: 'forbidden',
            address: net.outside.address,
          },
          { transport: 'ws', request: 'trigger toggle_veto', status: 200, address: net.lan6.address },
          {
            transport: 'ws',
            request: 'trigger no_such_action',
            status: 404,
            error: 'unknown_action',
            address: net.lan6.address,
          },
          {
            transport: 'ws',
            request: 'auth',
            status: 401,
            error: 'unauthorized',
            address: net.linkLocal.address,
          },
        ];
        for (const record of expected)
          expect(records).toContainEqual(expect.objectContaining({ ...record, time: expect.any(String) }));
        expect(JSON.stringify(body)).not.toContain(token);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.filter((line) => line.includes(token))).toEqual([]);
      });
    });

    describe('Host header (DNS rebinding) and Origin, from the network', () => {
      it("requests naming the server's own address work; a foreign Host is 403, also for the WebSocket upgrade", async () => {
        const { server, port, token } = await lanServer();
        const own: Array<[HostName, string]> = [
          ['lan', `${net.lan.serverAddress}:${port}`],
          ['lan', net.lan.serverAddress],
          ['lan6', `[${net.lan6.serverAddress}]:${port}`],
          ['linkLocal', `[${net.linkLocal.serverAddress}]:${port}`],
        ];
        for (const [host, name] of own) {
          const answer = await net.http(host, {
            port,
            path: '/api/state',
            headers: { ...bearer(token), host: name },
          });
          expect(answer.status, `${host} Host: ${name}`).toBe(200);
        }
        for (const name of ['attacker.example', `attacker.example:${port}`, `203.0.113.7:${port}`]) {
          const answer = await net.http('lan', {
            port,
            method: 'POST',
            path: '/api/actions/show_scoreboard',
            headers: { ...bearer(token), host: name },
          });
          expect([answer.status, answer.json], `Host: ${name}`).toEqual([403, forbiddenEnvelope]);
        }
        const ws = await net.openWs('lan6', {
          port,
          path: `/?token=${token}`,
          headers: { host: 'attacker.example' },
        });
        expect(ws.outcome).toBe('refused');
        expect(ws.refusal).toMatchObject({ status: 403, json: forbiddenEnvelope });
        expect((await stateOf(server)).revision).toBe(0);
      });

      it('an Origin header is refused for a remote device too, except reading /health', async () => {
        const { server, port, token } = await lanServer();
        const origin = { origin: 'https://evil.example' };
        const command = await net.http('lan', {
          port,
          method: 'POST',
          path: '/api/actions/show_scoreboard',
          headers: { ...bearer(token), ...origin },
        });
        expect([command.status, command.json]).toEqual([403, forbiddenEnvelope]);
        expect(
          (await net.http('lan', { port, path: '/health', headers: { ...bearer(token), ...origin } })).status,
        ).toBe(200);
        const ws = await net.openWs('lan', { port, path: `/?token=${token}`, headers: origin });
        expect(ws.refusal).toMatchObject({ status: 403, json: forbiddenEnvelope });
        expect((await stateOf(server)).revision).toBe(0);
      });
    });
  },
);
