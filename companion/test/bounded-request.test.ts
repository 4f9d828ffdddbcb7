/**
 * An HTTP answer is read with a budget of bytes and of time for the whole exchange: what a server
 * declares, sends in one burst or trickles cannot hold the module's memory or a button's action.
 */
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_TOO_LARGE, boundedRequest, type RequestError } from '../src/bounded-request.ts';

const agent = new Agent({ keepAlive: false });
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: RequestError) => error,
  );

describe('an answer', () => {
  it('within its bounds is read whole', async () => {
    const url = await serve((_req, res) => res.end('{"ok":true}'));
    const answer = await boundedRequest(url, { agent, headers: {}, maxBytes: 64, deadlineMs: 5_000 });
    expect(answer).toEqual({ status: 200, text: '{"ok":true}' });
  });

  it('that declares more than the bound is refused before its body is read', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(1024 * 1024 * 1024) });
      res.write('x');
    });
    const error = await failure(
      boundedRequest(url, { agent, headers: {}, maxBytes: 1024, deadlineMs: 5_000 }),
    );
    expect(error).toMatchObject({ code: ANSWER_TOO_LARGE, status: 200 });
  });

  it('that trickles a byte at a time ends at the deadline, though bytes keep coming', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const error = await failure(boundedRequest(url, { agent, headers: {}, maxBytes: 1024, deadlineMs: 300 }));
    expect(error?.code).toBe('ETIMEDOUT');
  });
});
