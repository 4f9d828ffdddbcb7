import type { TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import type { RateLimitedError } from '../access/rate-limit.ts';
import { snapshotViewOf } from '../core/views.ts';
import { toServiceError } from '../http/error-envelope.ts';
import { ServiceError } from '../protocol/errors.ts';
import type { ClientMessage, PanelStatus, Snapshot } from '../protocol/websocket.ts';
import { CLOSE, ClientMessage as ClientMessageSchema, MessageId } from '../protocol/websocket.ts';
import type { Service } from '../service.ts';
import { brandingOf } from '../settings/settings.ts';
import type { WsClient, WsFanout } from './ws-fanout.ts';

const checkMessage = TypeCompiler.Compile(ClientMessageSchema);
/** Each message type's own check, to say what is wrong with a message of a known type. */
const checkOfType = new Map<string, TypeCheck<TSchema>>(
  ClientMessageSchema.anyOf.map((schema) => [schema.properties.type.const, TypeCompiler.Compile(schema)]),
);
const checkId = TypeCompiler.Compile(MessageId);

/**
 * The id to echo in the answer to a message the protocol refuses: its own when the protocol allows
 * it, else null (a 129-character string or a number JSON cannot carry back is not echoed).
 */
const echoedId = (message: unknown): string | number | null => {
  const id = (message as { id?: unknown } | null | undefined)?.id;
  return checkId.Check(id) ? id : null;
};

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

/** Everything a client draws from: the HUD's views, and the branding of the settings. */
export const fullSnapshot = (service: Service): Snapshot => ({
  ...snapshotViewOf(service.hub),
  branding: brandingOf(service.settings()),
});

/** Page roles that only show the state: the HUD overlay and the scene pages never run commands. */
export const READ_ONLY_ROLES: ReadonlySet<string> = new Set(['overlay', 'scene']);

/** The one report a page may send: the HUD overlay tells what it shows (docs/websocket.md). */
const OVERLAY_REPORT = 'overlay_report';

/**
 * Runs a command (or the overlay's report) and answers with a result; failures in the same
 * envelope as over HTTP.
 */
async function answerWith(
  { fanout, record, fault }: WsContext,
  client: WsClient,
  id: string | number | null,
  action: string,
  request: string,
  run: () => Promise<Awaited<ReturnType<Service['dispatcher']['dispatch']>>>,
): Promise<void> {
  try {
    const answer = await run();
    fanout.send(client, { type: 'result', id, action, ...answer });
    record(client, request, 200);
  } catch (caught) {
    const known = toServiceError(caught);
    if (!known) fault(caught, action);
    const error = known ?? new ServiceError('internal_error', 'internal error: see the service log');
    fanout.send(client, { type: 'result', id, action, status: error.status, ...error.toBody() });
    record(client, request, error.status, error.code);
  }
}

/** One handler per message type of an authenticated client. */
const HANDLERS: { [T in ClientMessage['type']]: Handler<T> } = {
  trigger(context, client, message) {
    const id = message.id ?? null;
    const request = `trigger ${message.action}`;
    const { service } = context;
    return answerWith(context, client, id, message.action, request, async () => {
      if (client.role !== null && READ_ONLY_ROLES.has(client.role)) {
        throw new ServiceError(
          'forbidden',
          `a ${client.role} page only shows the HUD: send commands from the operator app or the automation server`,
        );
      }
      return service.dispatcher.dispatch(message.action, message.payload);
    });
  },
  report(context, client, message) {
    const { service } = context;
    return answerWith(context, client, message.id ?? null, OVERLAY_REPORT, 'report', async () => {
      if (client.role !== 'overlay') {
        throw new ServiceError('forbidden', 'only a HUD overlay page (role=overlay) reports what it shows');
      }
      return service.internal.dispatch(OVERLAY_REPORT, message.report);
    });
  },
  ping({ service, fanout }, client, message) {
    fanout.send(client, { type: 'pong', id: message.id ?? null, revision: service.hub.revision });
  },
  snapshot({ service, fanout }, client, message) {
    fanout.send(client, { type: 'snapshot', id: message.id ?? null, snapshot: fullSnapshot(service) });
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
  const message = parseJson(text) as { type?: unknown; action?: unknown } | undefined;
  const id = echoedId(message);
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
    const type = (message as { type?: unknown } | null)?.type;
    const check = (typeof type === 'string' && checkOfType.get(type)) || checkMessage;
    const problem = check.Errors(message).First();
    context.fanout.send(client, {
      type: 'error',
      id: echoedId(message),
      error: 'invalid_payload',
      message: `not a message of the protocol (trigger, ping, snapshot, report)${problem ? `: ${problem.path || '/'} ${problem.message}` : ''}`,
    });
    return;
  }
  void (HANDLERS[message.type] as Handler<typeof message.type>)(context, client, message);
}
