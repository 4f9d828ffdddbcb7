/**
 * Failures answered before routing, sent as raw bytes over a real socket: whatever Node's parser or
 * Fastify's router cannot take is still the service's envelope, never "Client Error" or FST_ERR_….
 */
import { describe, expect, it } from 'vitest';
import { build } from '../helpers/build.ts';
import { rawRequest } from '../helpers/raw-http.ts';

const request = (head: string, body = '') => `${head}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n${body}`;

function expectEnvelope(answer: Awaited<ReturnType<typeof rawRequest>>, status: number, error: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.json).toEqual({ ok: false, error, message: expect.any(String) });
  expect(answer.body).not.toMatch(/FST_ERR|Client Error/);
}

describe('failures before routing are envelopes', () => {
  it('each is in the recent-requests list with its code, on both servers', async () => {
    const server = await build();
    await rawRequest(server.port, request('GET /% HTTP/1.1'));
    await rawRequest(server.port, request('BREW /health HTTP/1.1'));
    await rawRequest(server.applicationPort, request('GET /% HTTP/1.1'));
    const records = server.service.access.recent.list();
    expect(records).toContainEqual(
      expect.objectContaining({ request: 'GET /%', status: 400, error: 'bad_request', address: '127.0.0.1' }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({ request: 'unreadable request', status: 501, error: 'not_implemented' }),
    );
    expect(records.filter((record) => record.request === 'GET /%')).toHaveLength(2);
  });

  it('the application server answers them in the envelope too', async () => {
    const { applicationPort: appPort } = await build();
    expectEnvelope(await rawRequest(appPort, request('GET /% HTTP/1.1')), 400, 'bad_request');
    expectEnvelope(await rawRequest(appPort, request('BREW / HTTP/1.1')), 501, 'not_implemented');
  });

  it('a path with broken percent-encoding is 400 bad_request', async () => {
    const { port } = await build();
    expectEnvelope(await rawRequest(port, request('GET /% HTTP/1.1')), 400, 'bad_request');
    const put = await rawRequest(port, request('PUT /api/%E0%A4%A HTTP/1.1'));
    expectEnvelope(put, 400, 'bad_request');
    expect(put.json.message).toContain('/api/%E0%A4%A');
  });

  it('a WebSocket upgrade on a broken path is 400 bad_request, and the connection ends', async () => {
    const { port } = await build();
    const answer = await rawRequest(
      port,
      'GET /% HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expectEnvelope(answer, 400, 'bad_request');
  });

  it('an unknown method is 501 not_implemented', async () => {
    const { port } = await build();
    expectEnvelope(await rawRequest(port, request('BREW /health HTTP/1.1')), 501, 'not_implemented');
  });

  it('two Content-Length headers are 400 bad_request', async () => {
    const { port } = await build();
    const answer = await rawRequest(
      port,
      'POST /api/actions/show_scoreboard HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    );
    expectEnvelope(answer, 400, 'bad_request');
  });

  it('an address over the limit is 414 uri_too_long, headers over it 431 headers_too_large', async () => {
    const { port } = await build();
    expectEnvelope(
      await rawRequest(port, request(`GET /${'a'.repeat(20_000)} HTTP/1.1`)),
      414,
      'uri_too_long',
    );
    expectEnvelope(
      await rawRequest(port, request(`GET /health HTTP/1.1\r\nX-Padding: ${'a'.repeat(20_000)}`)),
      431,
      'headers_too_large',
    );
  });

  it('a path segment over the router limit is 414 uri_too_long', async () => {
    const { port } = await build();
    const answer = await rawRequest(port, request(`POST /api/actions/${'x'.repeat(200)} HTTP/1.1`));
    expectEnvelope(answer, 414, 'uri_too_long');
  });

  it('a broken path with a foreign Host is refused for the Host first', async () => {
    const { port } = await build();
    const answer = await rawRequest(
      port,
      'GET /% HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n',
    );
    expectEnvelope(answer, 403, 'forbidden');
  });

  it('an HTTP/1.1 request without Host is 400 bad_request; HTTP/1.0 may leave it out', async () => {
    const { port, applicationPort: appPort } = await build();
    for (const target of [port, appPort]) {
      const answer = await rawRequest(target, 'GET /api/state HTTP/1.1\r\nConnection: close\r\n\r\n');
      expectEnvelope(answer, 400, 'bad_request');
      expect(answer.json.message).toMatch(/Host/);
      const old = await rawRequest(target, 'GET /api/state HTTP/1.0\r\n\r\n');
      expect(old.status).toBe(200);
    }
  });

  it('CONNECT is 501 not_implemented on both servers (no proxy), recorded, and the connection ends', async () => {
    const server = await build();
    for (const target of [server.port, server.applicationPort]) {
      const answer = await rawRequest(target, request('CONNECT 127.0.0.1:80 HTTP/1.1'));
      expectEnvelope(answer, 501, 'not_implemented');
    }
    expect(
      server.service.access.recent.list().filter((record) => record.request === 'CONNECT 127.0.0.1:80'),
    ).toHaveLength(2);
  });
});
