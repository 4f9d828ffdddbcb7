/**
 * What a hostile device on the network can and cannot do, from real addresses (network namespaces,
 * test/helpers/netns.ts): it gets its access answer before any parsing detail, it cannot hold
 * sockets or file descriptors of the service, and its budget of 20 per second is per device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOTE_REQUESTS_PER_SECOND } from '../../src/access/rate-limit.ts';
import { MAX_CONNECTIONS_PER_DEVICE } from '../../src/http/connection-limits.ts';
import { CLOSE } from '../../src/protocol/websocket.ts';
import { build } from '../helpers/build.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';
import { parseAnswer } from '../helpers/raw-http.ts';

const skipReason = netnsSkipReason();

async function lanServer() {
  const server = await build({ overrides: { lanMode: true } });
  return { server, port: server.port, token: server.service.secrets.token() };
}

describe.skipIf(skipReason)(`hostile peers${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let net: TestNetwork;
  beforeAll(async () => {
    net = await createTestNetwork();
  });
  afterAll(async () => {
    await net?.close();
  });

  describe('a request the router or the parser rejects', () => {
    it('from the network without a token is 401 (outside: 403), not the parsing detail', async () => {
      const { port, token } = await lanServer();
      for (const path of ['/%', '/api/%E0%A4%A']) {
        const refused = await net.http('lan', { port, path });
        expect(refused.status, path).toBe(401);
        expect(refused.json).toMatchObject({ ok: false, error: 'unauthorized' });
        expect((await net.http('outside', { port, path })).status).toBe(403);
        // With the token the device learns what was wrong.
        const withToken = await net.http('lan6', {
          port,
          path,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(withToken.json).toMatchObject({ ok: false, error: 'bad_request' });
      }
    });

    it('without Host (HTTP/1.1), or CONNECT: the access answer first, then what was wrong', async () => {
      const { port, token } = await lanServer();
      const noHost = (auth = '') => `GET /api/state HTTP/1.1\r\n${auth}Connection: close\r\n\r\n`;
      const connect = (auth = '') => `CONNECT 127.0.0.1:80 HTTP/1.1\r\n${auth}\r\n`;
      const bearer = `Authorization: Bearer ${token}\r\n`;
      for (const [bytes, status, error] of [
        [noHost(), 401, 'unauthorized'],
        [noHost(bearer), 400, 'bad_request'],
        [connect(), 401, 'unauthorized'],
        [connect(bearer), 501, 'not_implemented'],
      ] as const) {
        const answer = await net.raw('lan', { port, bytes });
        expect(parseAnswer(answer.data), bytes).toMatchObject({ status, json: { ok: false, error } });
      }
      const outside = await net.raw('outside', { port, bytes: connect(bearer) });
      expect(parseAnswer(outside.data)).toMatchObject({ status: 403, json: { error: 'forbidden' } });
    });

    it('that Node cannot parse is 401 from the network: the token could not even be read', async () => {
      const { port } = await lanServer();
      for (const bytes of [
        'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n',
        `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      ]) {
        const answer = await net.raw('lan', { port, bytes });
        expect(answer.closed).toBe(true);
        expect(parseAnswer(answer.data)).toMatchObject({
          status: 401,
          json: { ok: false, error: 'unauthorized' },
        });
      }
      const outside = await net.raw('outside6', { port, bytes: 'BREW / HTTP/1.1\r\n\r\n' });
      expect(parseAnswer(outside.data)).toMatchObject({ status: 403, json: { error: 'forbidden' } });
    });

    it('a WebSocket upgrade on a broken path, or on a path that is no WebSocket, without a token is 401', async () => {
      const { port, token } = await lanServer();
      for (const path of ['/%', '/api/state', '/nope']) {
        const session = await net.openWs('lan', { port, path });
        expect(session.outcome, path).toBe('refused');
        expect(session.refusal).toMatchObject({ status: 401, json: { ok: false, error: 'unauthorized' } });
      }
      const withToken = await net.openWs('lan', { port, path: `/api/state?token=${token}` });
      expect(withToken.refusal).toMatchObject({ status: 404, json: { ok: false, error: 'not_found' } });
    });
  });

  describe('holding the server', () => {
    it('a refused request that declared a body does not keep its socket while it trickles the body', async () => {
      const { port } = await lanServer();
      const ownHost = `${net.lan.serverAddress}:${port}`;
      for (const [host, status] of [
        [ownHost, 401], // no token
        ['attacker.example', 403], // foreign Host
      ] as const) {
        const answer = await net.raw('lan', {
          port,
          // 100 kB declared, 10 bytes sent, and then nothing: the refusal must end the connection.
          bytes: `POST /api/actions/toggle_scoreboard HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":"0123`,
          timeoutMs: 5000,
        });
        expect(answer.closed, `${host}: the server closed the connection`).toBe(true);
        const refusal = parseAnswer(answer.data);
        expect(refusal).toMatchObject({ status, json: { ok: false } });
        expect(refusal.headers.connection).toBe('close');
      }
    });

    it(`a device may hold ${MAX_CONNECTIONS_PER_DEVICE} connections; more are closed, and this machine is still served`, async () => {
      const { server, port, token } = await lanServer();
      const extra = 8;
      const hold = await net.hold('lan', {
        port,
        count: MAX_CONNECTIONS_PER_DEVICE + extra,
        expectClosed: extra,
      });
      try {
        expect(hold).toMatchObject({ connected: MAX_CONNECTIONS_PER_DEVICE, closed: extra });
        // The device at its cap gets no further connection, even with the token…
        const more = await net.http('lan', {
          port,
          path: '/health',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(more.status).toBeNull();
        // …but another device and this machine are served.
        const other = await net.http('lan6', {
          port,
          path: '/health',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(other.status).toBe(200);
        expect((await fetch(`${server.httpUrl}/health`)).status).toBe(200);
      } finally {
        hold.release();
      }
    });

    it('addresses of one IPv6 /64 are one device: they share the connection cap and the 20 per second', async () => {
      const { port, token } = await lanServer();
      const second = net.lan6.address.replace(/::2$/, '::3');
      await net.addAddress('lan6', second);
      const headers = { authorization: `Bearer ${token}` };
      const first = await net.burst('lan6', { port, path: '/api/state', headers, count: 10 });
      const other = await net.burst('lan6', {
        port,
        path: '/api/state',
        headers,
        count: 11,
        localAddress: second,
      });
      expect(first.counts).toEqual({ '200': 10 });
      expect(other.counts).toEqual({ '200': 10, '429': 1 });

      const hold = await net.hold('lan6', { port, count: MAX_CONNECTIONS_PER_DEVICE });
      try {
        expect(hold.connected).toBe(MAX_CONNECTIONS_PER_DEVICE);
        const fromSecond = await net.http('lan6', { port, path: '/health', headers, localAddress: second });
        expect(fromSecond.status, 'the /64 is at its cap').toBeNull();
      } finally {
        hold.release();
      }
    });
  });

  describe('WebSocket', () => {
    it('every message of a remote device counts: a snapshot flood is refused and then closed with 4429', async () => {
      const { port, token } = await lanServer();
      const session = await net.openWs('lan', { port, path: `/?token=${token}` });
      expect(session.outcome).toBe('open');
      for (let i = 0; i < 200; i++) session.send({ type: 'snapshot', id: i });
      const close = await session.waitForClose(5000);
      expect(close).toMatchObject({ code: CLOSE.rateLimited, by: 'server' });
      const data = session.messages.map((m) => m.data as Record<string, unknown>);
      // The upgrade took one of the 20: nineteen snapshots, then refusals until the close. On a
      // loaded machine the one-second window may turn before or during the flood: up to 20 more
      // snapshots then (after the first refusals, if it turns during it), never the 200.
      const snapshots = data.filter((m) => m.type === 'snapshot').length;
      expect(snapshots).toBeGreaterThanOrEqual(REMOTE_REQUESTS_PER_SECOND - 1);
      expect(snapshots).toBeLessThan(2 * REMOTE_REQUESTS_PER_SECOND);
      const refusals = data.filter((m) => m.type === 'error');
      // Answered in order: the first refusal is the message after the snapshots answered before it.
      const first = data.findIndex((m) => m.type === 'error');
      const answeredBefore = data.slice(0, first).filter((m) => m.type === 'snapshot').length;
      expect(refusals[0]).toMatchObject({ error: 'rate_limited', id: answeredBefore });
      expect(answeredBefore).toBeGreaterThanOrEqual(REMOTE_REQUESTS_PER_SECOND - 1);
      expect(refusals).toHaveLength(REMOTE_REQUESTS_PER_SECOND);
    });
  });
});
