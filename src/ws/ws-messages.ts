import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { RateLimitedError } from '../access/rate-limit.ts';
import { ServiceError } from '../errors.ts';
import { toServiceError } from '../http/error-envelope.ts';
import type { Service } from '../service.ts';
import { snapshotViewOf } from '../views.ts';
import type { ClientMessage, PanelStatus } from './protocol.ts';
import { CLOSE, ClientMessage as ClientMessageSchema } from './protocol.ts';
import type { WsClient, WsFanout } from './ws-fanout.ts';

const checkMessage = TypeCompiler.Compile(ClientMessageSchema);

/** What the message handlers work with: the service, the connections, the request log. */
export interface WsContext {
  service: Service;
  fanout: WsFanout;
  /** Sent to an operator app page right after hello (the application server only). */
  panelStatus: (() => PanelStatus) | null;
  /** Records a request for the panel's recent-requests list and the log. */
  record(client: WsClient, request: string, status: number, error?: string): void;
  /** Logs a fault of ours (it is answered as internal_error). */
  fault(error: unknown, action: string): void;
}

type Handler<T extends ClientMessage['type']> = (
  context: WsContext,
  client: WsClient,
  message: Extract<ClientMessage, { type: T }>,
) => void | Promise<void>;

/** One handler per message type of an authenticated client. */
const HANDLERS: { [T in ClientMessage['type']]: Handler<T> } = {
  async trigger({ service, fanout, record, fault }, client, message) {
    const id = message.id ?? null;
    const request = `trigger ${message.action}`;
    try {
      const answer = await service.dispatcher.dispatch(message.action, message.payload);
      fanout.send(client, { type: 'result', id, action: message.action, ...answer });
      record(client, request, 200);
    } catch (caught) {
      const known = toServiceError(caught);
      if (!known) fault(caught, message.action);
      const error = known ?? new ServiceError('internal_error', 'internal error: see the service log');
      fanout.send(client, {
        type: 'result',
        id,
        action: message.action,
        status: error.status,
        ...error.toBody(),
      });
      record(client, request, error.status, error.code);
    }
  },
  ping({ service, fanout }, client, message) {
    fanout.send(client, { type: 'pong', id: message.id ?? null, revision: service.hub.revision });
  },
  snapshot({ service, fanout }, client, message) {
    fanout.send(client, { type: 'snapshot', id: message.id ?? null, snapshot: snapshotViewOf(service.hub) });
  },
  auth({ fanout }, client) {
    fanout.send(client, {
      type: 'error',
      id: null,
      error: 'invalid_payload',
      message: 'already authenticated',
    });
  },
};

/** The parsed message, or undefined when it is not JSON (JSON itself has no undefined). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A message over the device's budget: not run, and the client hears why (a trigger as its result,
 * anything else as an error; before auth, the connection closes).
 */
export function refuseMessage(
  context: WsContext,
  client: WsClient,
  text: string,
  error: RateLimitedError,
): void {
  context.record(client, 'message', error.status, error.code);
  if (!client.authenticated) {
    client.socket.close(CLOSE.rateLimited, error.message);
    return;
  }
  const message = parseJson(text) as { type?: unknown; id?: unknown; action?: unknown } | undefined;
  const id = typeof message?.id === 'string' || typeof message?.id === 'number' ? message.id : null;
  if (message?.type === 'trigger' && typeof message.action === 'string') {
    context.fanout.send(client, {
      type: 'result',
      id,
      action: message.action,
      status: error.status,
      ...error.toBody(),
    });
  } else context.fanout.send(client, { type: 'error', id, error: error.code, message: error.message });
}

/** A message of an authenticated client: checked against the protocol, then handled by its type. */
export function handleMessage(context: WsContext, client: WsClient, message: unknown): void {
  if (message === undefined) {
    context.fanout.send(client, {
      type: 'error',
      id: null,
      error: 'invalid_payload',
      message: 'the message is not JSON',
    });
    return;
  }
  if (!checkMessage.Check(message)) {
    const problem = checkMessage.Errors(message).First();
    const id = (message as { id?: unknown } | null)?.id;
    context.fanout.send(client, {
      type: 'error',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: 'invalid_payload',
      message: `not a message of the protocol (trigger, ping, snapshot)${problem ? `: ${problem.path || '/'} ${problem.message}` : ''}`,
    });
    return;
  }
  void (HANDLERS[message.type] as Handler<typeof message.type>)(context, client, message);
}
