import websocket from '@fastify/websocket';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { tokensEqual } from '../access/access-token.ts';
import type { RateLimitedError } from '../access/rate-limit.ts';
import { ServiceError } from '../errors.ts';
import { peerOf } from '../http/access-hooks.ts';
import { toServiceError } from '../http/error-envelope.ts';
import type { Service } from '../service.ts';
import type { HubEvent } from '../state-hub.ts';
import { SERVICE_ID, VERSION } from '../version.ts';
import { matchSummaryOf, presetsOf, revealOf, vetoStatusOf } from '../views.ts';
import { meterMessages } from './message-budget.ts';
import type { ClientMessage, ServerMessage, Snapshot } from './protocol.ts';
import {
  AUTH_DEADLINE_MS,
  CLOSE,
  ClientMessage as ClientMessageSchema,
  MAX_BUFFERED_BYTES,
  MAX_MESSAGE_BYTES,
  PING_INTERVAL_MS,
  PROTOCOL_VERSION,
} from './protocol.ts';

const checkMessage = TypeCompiler.Compile(ClientMessageSchema);
const AUTH_FIRST = 'the first message must be { "type": "auth", "token": … }';

/** The parsed message, or undefined when it is not JSON (JSON itself has no undefined). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface Client {
  socket: WebSocket;
  address: string;
  remote: boolean;
  /** Receives nothing until true. */
  authenticated: boolean;
  alive: boolean;
  deadline: NodeJS.Timeout | null;
}

export function snapshotOf(service: Service): Snapshot {
  const snapshots = service.hud.snapshots();
  const state = service.hub.hudState();
  return {
    revision: state.revision,
    state,
    match: matchSummaryOf(snapshots),
    veto: vetoStatusOf(snapshots),
    reveal: revealOf(snapshots),
    presets: presetsOf(snapshots.host).presets,
  };
}

/**
 * The WebSocket at the root path (and /ws): triggers run through the same dispatcher as HTTP,
 * every client-visible change arrives as an event, in revision order.
 */
export async function registerWebSocket(app: FastifyInstance, service: Service): Promise<void> {
  await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });
  const clients = new Set<Client>();

  const sendText = (client: Client, text: string) => {
    const { socket } = client;
    if (socket.readyState !== socket.OPEN) return;
    // A client that stops reading would make the server hold every event for it: drop it instead.
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.close(CLOSE.tooSlow, 'too slow: messages were not read');
      return;
    }
    socket.send(text);
  };
  const send = (client: Client, message: ServerMessage) => sendText(client, JSON.stringify(message));

  const broadcast = ({ event, revision, data, dataJson }: HubEvent) => {
    // One of EVENT_MESSAGES (the protocol tests check every message against ServerMessage). The
    // data is serialised once: the hub's own JSON of it when it has one.
    const text = `{"type":"event","event":${JSON.stringify(event)},"revision":${revision},"data":${dataJson ?? JSON.stringify(data)}}`;
    for (const client of clients) if (client.authenticated) sendText(client, text);
  };
  service.hub.emitter.on('event', broadcast);

  const record = (client: Client, request: string, status: number, error?: string) => {
    const entry = {
      transport: 'ws' as const,
      request,
      status,
      address: client.address,
    };
    service.recent.add(error ? { ...entry, error } : entry);
    app.log.info(error ? { ...entry, error } : entry, 'request');
  };

  const welcome = (client: Client) => {
    client.authenticated = true;
    if (client.deadline) clearTimeout(client.deadline);
    client.deadline = null;
    send(client, {
      type: 'hello',
      service: SERVICE_ID,
      version: VERSION,
      protocol: PROTOCOL_VERSION,
      snapshot: snapshotOf(service),
    });
  };

  const closeRemote = (code: number, reason: string) => {
    for (const client of clients) if (client.remote) client.socket.close(code, reason);
  };
  service.events.on('token', () => closeRemote(CLOSE.unauthorized, 'the access token was regenerated'));
  service.events.on('settings', ({ lanMode }) => {
    if (!lanMode) closeRemote(CLOSE.forbidden, 'local network mode was switched off');
  });

  async function onTrigger(
    client: Client,
    message: Extract<ClientMessage, { type: 'trigger' }>,
  ): Promise<void> {
    const id = message.id ?? null;
    try {
      const answer = await service.dispatcher.dispatch(message.action, message.payload, {
        transport: 'ws',
        address: client.address,
      });
      send(client, { type: 'result', id, action: message.action, ...answer });
      record(client, `trigger ${message.action}`, 200);
    } catch (caught) {
      const error = toServiceError(caught);
      if (!error) app.log.error({ err: caught, action: message.action }, 'trigger failed');
      const failure = error ?? new ServiceError('internal_error', 'internal error: see the service log');
      send(client, {
        type: 'result',
        id,
        action: message.action,
        ok: false,
        status: failure.status,
        error: failure.code,
        message: failure.message,
      });
      record(client, `trigger ${message.action}`, failure.status, failure.code);
    }
  }

  function onMessage(client: Client, text: string): void {
    const message = parseJson(text);
    if (!client.authenticated) authenticate(client, message);
    else if (message === undefined) {
      send(client, { type: 'error', id: null, error: 'invalid_payload', message: 'the message is not JSON' });
    } else answer(client, message);
  }

  /** A message over the device's budget: not run; the client hears why (before auth: the close). */
  function refuse(client: Client, text: string, error: RateLimitedError): void {
    record(client, 'message', error.status, error.code);
    if (!client.authenticated) {
      client.socket.close(CLOSE.rateLimited, error.message);
      return;
    }
    const message = parseJson(text) as { type?: unknown; id?: unknown; action?: unknown } | undefined;
    const id = typeof message?.id === 'string' || typeof message?.id === 'number' ? message.id : null;
    const failure = { ok: false, status: error.status, error: error.code, message: error.message } as const;
    if (message?.type === 'trigger' && typeof message.action === 'string') {
      send(client, { type: 'result', id, action: message.action, ...failure });
    } else send(client, { type: 'error', id, error: error.code, message: error.message });
  }

  /** The first message of a local-network client: the token, or the connection ends with 4401. */
  function authenticate(client: Client, message: unknown): void {
    const token =
      (message as { type?: unknown; token?: unknown } | undefined)?.type === 'auth'
        ? (message as { token?: unknown }).token
        : undefined;
    if (typeof token === 'string' && tokensEqual(service.token(), token)) {
      welcome(client);
      return;
    }
    record(client, 'auth', 401, 'unauthorized');
    client.socket.close(CLOSE.unauthorized, token === undefined ? AUTH_FIRST : 'wrong token');
  }

  function answer(client: Client, message: unknown): void {
    if (!checkMessage.Check(message)) {
      const problem = checkMessage.Errors(message).First();
      const id = (message as { id?: unknown } | null)?.id;
      send(client, {
        type: 'error',
        id: typeof id === 'string' || typeof id === 'number' ? id : null,
        error: 'invalid_payload',
        message: `not a message of the protocol (trigger, ping, snapshot)${problem ? `: ${problem.path || '/'} ${problem.message}` : ''}`,
      });
      return;
    }
    switch (message.type) {
      case 'trigger':
        void onTrigger(client, message);
        break;
      case 'ping':
        send(client, { type: 'pong', id: message.id ?? null, revision: service.hub.revision });
        break;
      case 'snapshot':
        send(client, { type: 'snapshot', id: message.id ?? null, snapshot: snapshotOf(service) });
        break;
      case 'auth':
        send(client, { type: 'error', id: null, error: 'invalid_payload', message: 'already authenticated' });
        break;
    }
  }

  const wsHandler = (socket: WebSocket, request: FastifyRequest) => {
    const client: Client = {
      socket,
      address: peerOf(request.socket, request.ip).address,
      remote: request.remote,
      authenticated: false,
      alive: true,
      deadline: null,
    };
    clients.add(client);
    // Listeners first, synchronously: a message that arrives before them would be lost.
    const receive = (text: string) => onMessage(client, text);
    // Every message of a remote device counts against its budget, not only triggers.
    const take = client.remote
      ? meterMessages(service.rateLimit, client.address, {
          accept: receive,
          refuse: (text, error) => refuse(client, text, error),
          flood: () => socket.close(CLOSE.rateLimited, 'too many messages: slow down'),
          fail: (error) => app.log.error({ err: error }, 'WebSocket message failed'),
        })
      : receive;
    socket.on('message', (data, isBinary) => take(isBinary ? '' : data.toString()));
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('close', () => {
      clients.delete(client);
      if (client.deadline) clearTimeout(client.deadline);
    });
    if (request.wsAuth === 'accepted') {
      welcome(client);
      return;
    }
    if (request.wsAuth === 'rejected') {
      record(client, 'connect', 401, 'unauthorized');
      socket.close(CLOSE.unauthorized, 'wrong token');
      return;
    }
    client.deadline = setTimeout(() => {
      record(client, 'auth', 401, 'unauthorized');
      socket.close(CLOSE.unauthorized, `no auth message within ${AUTH_DEADLINE_MS / 1000} s`);
    }, AUTH_DEADLINE_MS);
  };

  // Server pings drop peers that vanished without a close (a tablet that lost its Wi-Fi).
  const heartbeat = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }, PING_INTERVAL_MS).unref();

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    service.hub.emitter.off('event', broadcast);
    for (const client of clients) client.socket.close(CLOSE.goingAway, 'the service is stopping');
  });

  const index = async () => ({ ok: true, service: SERVICE_ID, version: VERSION, protocol: PROTOCOL_VERSION });
  app.route({ method: 'GET', url: '/', handler: index, wsHandler });
  app.route({ method: 'GET', url: '/ws', handler: index, wsHandler });
}
