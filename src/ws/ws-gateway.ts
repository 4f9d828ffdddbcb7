import websocket from '@fastify/websocket';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { tokensEqual } from '../access/access-token.ts';
import { canonicalAddress } from '../access/address-class.ts';
import { ServiceError } from '../errors.ts';
import { toServiceError } from '../http/error-envelope.ts';
import type { Service } from '../service.ts';
import type { HubEvent } from '../state-hub.ts';
import { SERVICE_ID, VERSION } from '../version.ts';
import { matchSummaryOf, presetsOf, revealOf, vetoStatusOf } from '../views.ts';
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

  const broadcast = (event: HubEvent) => {
    const text = JSON.stringify({ type: 'event', ...event } satisfies ServerMessage);
    for (const client of clients) if (client.authenticated) sendText(client, text);
  };
  service.hub.emitter.on('event', broadcast);

  const record = (client: Client, request: string, status: number, error?: string) => {
    const entry = { time: new Date().toISOString(), transport: 'ws' as const, request, status, address: client.address };
    service.recent.add(error ? { ...entry, error } : entry);
    app.log.info(error ? { ...entry, error } : entry, 'request');
  };

  const welcome = (client: Client) => {
    client.authenticated = true;
    if (client.deadline) clearTimeout(client.deadline);
    client.deadline = null;
    send(client, { type: 'hello', service: SERVICE_ID, version: VERSION, protocol: PROTOCOL_VERSION, snapshot: snapshotOf(service) });
  };

  const closeRemote = (code: number, reason: string) => {
    for (const client of clients) if (client.remote) client.socket.close(code, reason);
  };
  service.events.on('token', () => closeRemote(CLOSE.unauthorized, 'the access token was regenerated'));
  service.events.on('settings', ({ lanMode }) => {
    if (!lanMode) closeRemote(CLOSE.forbidden, 'local network mode was switched off');
  });

  async function onTrigger(client: Client, message: Extract<ClientMessage, { type: 'trigger' }>): Promise<void> {
    const id = message.id ?? null;
    try {
      if (client.remote) await service.rateLimit.consume(client.address);
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
      send(client, { type: 'result', id, action: message.action, ok: false, status: failure.status, error: failure.code, message: failure.message });
      record(client, `trigger ${message.action}`, failure.status, failure.code);
    }
  }

  function onMessage(client: Client, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      if (!client.authenticated) return void client.socket.close(CLOSE.unauthorized, 'the first message must be { "type": "auth", "token": … }');
      return send(client, { type: 'error', id: null, error: 'invalid_payload', message: 'the message is not JSON' });
    }
    if (!client.authenticated) {
      const token = (message as { type?: unknown; token?: unknown } | null)?.type === 'auth' ? (message as { token?: unknown }).token : undefined;
      if (typeof token === 'string' && tokensEqual(service.token(), token)) return welcome(client);
      record(client, 'auth', 401, 'unauthorized');
      return void client.socket.close(CLOSE.unauthorized, token === undefined ? 'the first message must be { "type": "auth", "token": … }' : 'wrong token');
    }
    const id = ((message as { id?: unknown } | null)?.id ?? null) as string | number | null;
    if (!checkMessage.Check(message)) {
      const problem = checkMessage.Errors(message).First();
      return send(client, {
        type: 'error',
        id: typeof id === 'string' || typeof id === 'number' ? id : null,
        error: 'invalid_payload',
        message: `not a message of the protocol (trigger, ping, snapshot)${problem ? `: ${problem.path || '/'} ${problem.message}` : ''}`,
      });
    }
    switch (message.type) {
      case 'trigger':
        return void onTrigger(client, message);
      case 'ping':
        return send(client, { type: 'pong', id: message.id ?? null, revision: service.hub.revision });
      case 'snapshot':
        return send(client, { type: 'snapshot', id: message.id ?? null, snapshot: snapshotOf(service) });
      case 'auth':
        return send(client, { type: 'error', id: null, error: 'invalid_payload', message: 'already authenticated' });
    }
  }

  const wsHandler = (socket: WebSocket, request: FastifyRequest) => {
    const client: Client = {
      socket,
      address: canonicalAddress(request.socket?.remoteAddress) ?? request.ip,
      remote: request.remote,
      authenticated: false,
      alive: true,
      deadline: null,
    };
    clients.add(client);
    // Listeners first, synchronously: a message that arrives before them would be lost.
    socket.on('message', (data, isBinary) => onMessage(client, isBinary ? '' : data.toString()));
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('close', () => {
      clients.delete(client);
      if (client.deadline) clearTimeout(client.deadline);
    });
    if (request.wsAuth === 'accepted') return welcome(client);
    if (request.wsAuth === 'rejected') {
      record(client, 'connect', 401, 'unauthorized');
      return socket.close(CLOSE.unauthorized, 'wrong token');
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
