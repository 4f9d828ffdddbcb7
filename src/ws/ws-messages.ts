import type { TSchema } from '@sinclair/typebox';
import type { Access } from '../access/access.ts';
import type { RateLimitedError } from '../access/rate-limit.ts';
import type { Secrets } from '../access/secrets.ts';
import type { Caller, Role } from '../core/caller.ts';
import type { CommandAnswer, Dispatch } from '../core/dispatcher.ts';
import type { MainWindow } from '../core/main-window.ts';
import type { NoticeBus } from '../core/notices.ts';
import type { StateHub, StateReads } from '../core/state-hub.ts';
import type { Check } from '../protocol/compiled-check.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { ServiceError } from '../protocol/errors.ts';
import type { GameMessage } from '../protocol/game.ts';
import type { PanelStatus } from '../protocol/streams.ts';
import type { ClientMessage, Snapshot } from '../protocol/websocket.ts';
import { CLOSE, ClientMessage as ClientMessageSchema, MessageId } from '../protocol/websocket.ts';
import { brandingOf } from '../settings/settings.ts';
import type { SettingsOwner } from '../settings/settings-owner.ts';
import type { WsClient, WsFanout } from './ws-fanout.ts';

const checkMessage = compiledCheck(ClientMessageSchema);
/** Each message type's own check, to say what is wrong with a message of a known type. */
const checkOfType = new Map<string, Check<TSchema>>(
  ClientMessageSchema.anyOf.map((schema) => [schema.properties.type.const, compiledCheck(schema)]),
);
const checkId = compiledCheck(MessageId);

/**
 * The id to echo in the answer to a message the protocol refuses: its own when the protocol allows
 * it, else null (a 129-character string or a number JSON cannot carry back is not echoed).
 */
const echoedId = (message: unknown): string | number | null => {
  const id = (message as { id?: unknown } | null | undefined)?.id;
  return checkId.Check(id) ? id : null;
};

/** What the WebSocket gateway is given: the dispatcher's catalogues and the state and events it sends. */
export interface WsDeps {
  commands: Dispatch;
  reports: Dispatch;
  hub: StateReads & Pick<StateHub, 'emitter'>;
  /** The live game data: the whole of it for a page that connects (its changes come on the bus). */
  game: { fullMessage(): GameMessage };
  /** What happens without a revision: the game's messages, secrets regenerated, sessions ended, requests. */
  notices: Pick<NoticeBus, 'on' | 'off'>;
  settings: Pick<SettingsOwner, 'current' | 'onChange'>;
  secrets: Pick<Secrets, 'token'>;
  access: Access;
  mainWindow: Pick<MainWindow, 'attach'>;
}

/** What the message handlers work with: the gateway's deps, the connections, the request log. */
export interface WsContext {
  deps: WsDeps;
  /** Which server: the automation server's WebSocket, or the application server's. */
  transport: 'ws' | 'app';
  fanout: WsFanout;
  /** Sent to an operator app page right after hello (the application server only). */
  panelStatus: (() => PanelStatus) | null;
  /** Records a request for the panel's recent-requests list and the log: 200, or the failure it answered. */
  record(client: WsClient, request: string, failure?: ServiceError): void;
  /** Logs a fault of ours (it is answered as internal_error). */
  fault(error: unknown, action: string): void;
}

type Handler<T extends ClientMessage['type']> = (
  context: WsContext,
  client: WsClient,
  message: Extract<ClientMessage, { type: T }>,
) => void | Promise<void>;

/** Everything a client draws from: the HUD's views, and the branding of the settings. */
export const fullSnapshot = ({ hub, settings }: WsDeps): Snapshot => ({
  ...hub.snapshotView(),
  branding: brandingOf(settings.current()),
});

/**
 * The caller of a client's messages: a program on the automation server; on the application server
 * the page's role (the HUD overlay, a scene page), else the operator app.
 */
function callerOf({ transport }: WsContext, client: WsClient): Caller {
  return { transport, address: client.address, role: roleOf(transport, client) };
}

/**
 * What a page connection may run, in one place: its credential's grant, narrowed by the role it
 * names (a role never widens a grant). The view key only reads: every trigger and every report is
 * refused, whatever role it names. A page of this server in a browser on this machine (OBS) reads
 * and, as the HUD overlay, reports what it shows. Which commands each role reaches is the
 * dispatcher's callers check.
 */
function roleOf(transport: WsContext['transport'], { role, grant }: WsClient): Role {
  if (transport === 'ws') return 'program';
  if (grant === 'view') return 'viewer';
  if (role === 'overlay') return 'overlay';
  if (grant === 'report') return 'viewer';
  return role === 'scene' ? 'scene' : 'operator';
}

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
  run: () => Promise<CommandAnswer>,
): Promise<void> {
  try {
    const answer = await run();
    fanout.send(client, { type: 'result', id, action, ...answer });
    record(client, request);
  } catch (caught) {
    const known = caught instanceof ServiceError ? caught : null;
    if (!known) fault(caught, action);
    const error = known ?? new ServiceError('internal_error', 'internal error: see the service log');
    fanout.send(client, { type: 'result', id, action, status: error.status, ...error.toBody() });
    record(client, request, error);
  }
}

/** One handler per message type of an authenticated client. */
const HANDLERS: { [T in ClientMessage['type']]: Handler<T> } = {
  trigger(context, client, message) {
    const id = message.id ?? null;
    const request = `trigger ${message.action}`;
    return answerWith(context, client, id, message.action, request, () =>
      context.deps.commands(message.action, message.payload, callerOf(context, client)),
    );
  },
  report(context, client, message) {
    return answerWith(context, client, message.id ?? null, OVERLAY_REPORT, 'report', () =>
      context.deps.reports(OVERLAY_REPORT, message.report, callerOf(context, client)),
    );
  },
  ping({ deps, fanout }, client, message) {
    fanout.send(client, { type: 'pong', id: message.id ?? null, revision: deps.hub.revision });
  },
  snapshot({ deps, fanout }, client, message) {
    fanout.send(client, { type: 'snapshot', id: message.id ?? null, snapshot: fullSnapshot(deps) });
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
  context.record(client, 'message', error);
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
