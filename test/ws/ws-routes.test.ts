import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { build } from '../helpers/build.ts';
import { connect } from '../helpers/ws-client.ts';

/** The HTTP answer to an upgrade that was refused, or 101 when it was accepted. */
function upgrade(url: string): Promise<{ status: number; body: any }> {
  const socket = new WebSocket(url);
  socket.on('error', () => {});
  return new Promise((resolve) => {
    socket.on('open', () => {
      socket.terminate();
      resolve({ status: 101, body: null });
    });
    socket.on('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
      );
    });
  });
}

describe('WebSocket paths', () => {
  it('an upgrade on a path that is not the WebSocket is 404 before the upgrade', async () => {
    const server = await build();
    for (const path of ['/api/state', '/health', '/nope', '/api/actions/show_scoreboard']) {
      const answer = await upgrade(`${server.wsUrl}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ ok: false, error: 'not_found', message: expect.stringContaining('/ws') });
    }
  });

  it('/ and /ws (with a trailing slash or a query too) still upgrade', async () => {
    const server = await build();
    for (const path of ['/', '/ws', '/ws/', '/?x=1']) {
      const client = await connect(`${server.wsUrl}${path}`);
      expect(await client.next()).toMatchObject({ type: 'hello' });
      client.close();
    }
  });
});
