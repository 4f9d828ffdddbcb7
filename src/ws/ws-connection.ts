import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { tokensEqual } from '../access/access-token.ts';
import { peerOf } from '../access/peer.ts';
import { ServiceError } from '../protocol/errors.ts';
import { AUTH_DEADLINE_MS, CLOSE, PROTOCOL_VERSION, subscriptionsAsked } from '../protocol/websocket.ts';
import { SERVICE_ID, VERSION } from '../version.ts';
import { meterMessages } from './message-budget.ts';
import type { WsClient } from './ws-fanout.ts';
import type { WsContext } from './ws-messages.ts';
import { fullSnapshot, handleMessage, parseJson, refuseMessage } from './ws-messages.ts';

/** How often an operator app page is pinged: a missing pong ends it at the next ping. */
export const OPERATOR_PING_MS = 500;

const AUTH_FIRST = 'the first message must be { "type": "auth", "token": … }';

/**
 * The life of one connection: let in with a good token (hello at once), or waiting for an auth
 * message within AUTH_DEADLINE_MS, or refused with 4401; then its messages, until it closes.
 */
export function openConnection(context: WsContext, socket: WebSocket, request: FastifyRequest): void {
  const { deps, fanout, record } = context;
  const query = new URL(request.url, 'http://localhost').searchParams;
  const role = query.get('role');
  // The pages draw the live game data; any other client gets it only when it asks (docs/websocket.md).
  const page = context.transport === 'app' && role !== null;
  const client: WsClient = {
    socket,
    address: peerOf(request.socket, request.ip).address,
    remote: request.remote,
    authenticated: false,
    alive: true,
    panel: request.signedIn,
    session: request.session?.id ?? null,
    role,
    grant: request.grant,
    game: page || subscriptionsAsked(query.getAll('subscribe')).has('game'),
  };
  fanout.clients.add(client);
  let deadline: NodeJS.Timeout | undefined;
  // A signed-in operator app page is the main window while it is connected. Its connection is
  // checked often, so that a tab that vanishes without a close (a laptop closed) closes the main
  // window within two seconds.
  const leave = client.panel && role === 'operator' ? deps.mainWindow.attach() : null;
  const watch = leave ? setInterval(() => heartbeat([client]), OPERATOR_PING_MS) : undefined;

  const welcome = () => {
    client.authenticated = true;
    clearTimeout(deadline);
    fanout.send(client, {
      type: 'hello',
      service: SERVICE_ID,
      version: VERSION,
      protocol: PROTOCOL_VERSION,
      subscriptions: client.game ? ['game'] : [],
      snapshot: fullSnapshot(deps),
    });
    if (client.panel && context.panelStatus) {
      const data = context.panelStatus();
      fanout.send(client, { type: 'event', event: 'panel.status', revision: deps.hub.revision, data });
    }
    // Live game data is not revisioned state: a client that gets it gets the whole of it next.
    if (client.game) fanout.send(client, deps.game.fullMessage());
  };
  const refuse = (what: string, reason: string) => {
    record(client, what, new ServiceError('unauthorized', reason));
    socket.close(CLOSE.unauthorized, reason);
  };
  /** The first message of a local-network client: the token, or the connection ends with 4401. */
  const authenticate = (message: unknown) => {
    const { type, token } = (message ?? {}) as { type?: unknown; token?: unknown };
    if (type === 'auth' && typeof token === 'string' && tokensEqual(deps.secrets.token(), token)) welcome();
    else refuse('auth', type === 'auth' ? 'wrong token' : AUTH_FIRST);
  };

  const receive = (text: string) => {
    const message = parseJson(text);
    if (client.authenticated) handleMessage(context, client, message);
    else authenticate(message);
  };
  /** A fault of ours in handling a message: logged and answered, never thrown out of a listener. */
  const answerFault = (error: unknown) => {
    context.fault(error, 'message');
    fanout.send(client, {
      type: 'error',
      id: null,
      error: 'internal_error',
      message: 'internal error: see the service log',
    });
  };
  // Every message of a remote device counts against its budget, not only triggers.
  const take = client.remote
    ? meterMessages(deps.access.rateLimit, client.address, {
        accept: receive,
        refuse: (text, error) => refuseMessage(context, client, text, error),
        flood: () => socket.close(CLOSE.rateLimited, 'too many messages: slow down'),
        fail: answerFault,
      })
    : receive;
  // Listeners first, synchronously: a message that arrives before them would be lost.
  socket.on('message', (data, isBinary) => {
    try {
      take(isBinary ? '' : data.toString());
    } catch (error) {
      answerFault(error);
    }
  });
  socket.on('pong', () => {
    client.alive = true;
  });
  socket.on('close', () => {
    fanout.clients.delete(client);
    clearTimeout(deadline);
    clearInterval(watch);
    leave?.();
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
