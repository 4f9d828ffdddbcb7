/**
 * What a hostile device on the network can and cannot do, from real addresses (network namespaces,
 * test/helpers/netns.ts): it gets its access answer before any parsing detail, it cannot hold
 * sockets or file descriptors of the service, and its budget of 20 per second is per device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../helpers/build.ts';
import { createTestNetwork, netnsSkipReason, type TestNetwork } from '../helpers/netns.ts';
import { parseAnswer } from '../helpers/raw-http.ts';

const skipReason = netnsSkipReason();

async function lanServer() {
  const server = await build({ overrides: { lanMode: true } });
  return { server, port: server.port, token: server.service.token() };
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
});
