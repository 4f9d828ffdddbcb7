import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { tokensEqual } from '../access/access-token.ts';
import { peerOf } from '../http/access-hooks.ts';
import { SERVICE_ID, VERSION } from '../version.ts';
import { snapshotViewOf } from '../views.ts';
import { AUTH_DEADLINE_MS, CLOSE, PROTOCOL_VERSION } from './protocol.ts';
import type { WsClient } from './ws-fanout.ts';
import type { WsContext } from './ws-messages.ts';
import { handleMessage, parseJson } from './ws-messages.ts';

const AUTH_FIRST = 'the first message must be { "type": "auth", "token": … }';

/**
 * The life of one connection: let in with a good token (hello at once), or waiting for an auth
 * message within AUTH_DEADLINE_MS, or refused with 4401; then its messages, until it closes.
 */
export function openConnection(context: WsContext, socket: WebSocket, request: FastifyRequest): void {
  const { service, fanout, record } = context;
  const client: WsClient = {
    socket,
    address: peerOf(request.socket, request.ip).address,
    remote: request.remote,
    authenticated: false,
    alive: true,
  };
  fanout.clients.add(client);
  let deadline: NodeJS.Timeout | undefined;

  const welcome = () => {
    client.authenticated = true;
    clearTimeout(deadline);
    fanout.send(client, {
      type: 'hello',
      service: SERVICE_ID,
      version: VERSION,
      protocol: PROTOCOL_VERSION,
      snapshot: snapshotViewOf(service.hub),
    });
  };
  const refuse = (what: string, reason: string) => {
    record(client, what, 401, 'unauthorized');
    socket.close(CLOSE.unauthorized, reason);
  };
  /** The first message of a local-network client: the token, or the connection ends with 4401. */
  const authenticate = (message: unknown) => {
    const { type, token } = (message ?? {}) as { type?: unknown; token?: unknown };
    if (type === 'auth' && typeof token === 'string' && tokensEqual(service.token(), token)) welcome();
    else refuse('auth', type === 'auth' ? 'wrong token' : AUTH_FIRST);
  };

  // Listeners first, synchronously: a message that arrives before them would be lost.
  socket.on('message', (data, isBinary) => {
    const message = parseJson(isBinary ? '' : data.toString());
    if (client.authenticated) handleMessage(context, client, message);
    else authenticate(message);
  });
  socket.on('pong', () => {
    client.alive = true;
  });
  socket.on('close', () => {
    fanout.clients.delete(client);
    clearTimeout(deadline);
  });

  if (request.wsAuth === 'accepted') welcome();
  else if (request.wsAuth === 'rejected') refuse('connect', 'wrong token');
  else {
    deadline = setTimeout(
      () => refuse('auth', `no auth message within ${AUTH_DEADLINE_MS / 1000} s`),
      AUTH_DEADLINE_MS,
    );
  }
}

/** Server pings drop peers that vanished without a close (a tablet that lost its Wi-Fi). */
export function heartbeat(clients: Iterable<WsClient>): void {
  for (const client of clients) {
    if (!client.alive) {
      client.socket.terminate();
      continue;
    }
    client.alive = false;
    client.socket.ping();
  }
}
