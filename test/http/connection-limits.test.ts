import { describe, expect, it } from 'vitest';
import {
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
} from '../../src/http/connection-limits.ts';
import { build } from '../helpers/build.ts';
import { rawRequest } from '../helpers/raw-http.ts';

describe('time limits', () => {
  it('a request that stalls in its headers is answered 408 request_timeout in the envelope and closed', async () => {
    const server = await build();
    // The limit itself is 10 s; lowered here so the test need not wait for it. Node reads it at each check.
    server.automation.server.headersTimeout = 200;
    server.automation.server.requestTimeout = 400;
    const answer = await rawRequest(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(answer.status).toBe(408);
    expect(answer.json).toEqual({ ok: false, error: 'request_timeout', message: expect.any(String) });
  });

  it('the server has request, header and keep-alive time limits', async () => {
    const { automation: app } = await build();
    expect(app.server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(app.server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
  });
});
