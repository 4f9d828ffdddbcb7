/**
 * Where the event an actor receives came from, for the Machines view's timeline. An event sent from
 * outside the actor system carries no sender, so the transport that runs a command says who it is
 * while the command's synchronous part runs (the dispatcher sends every event of a command inside
 * `hub.batch`, before its first await): a slot set and restored around that call, read by the
 * timeline when an event arrives. Events that actors send each other, and timers, carry their sender.
 *
 * HTTP requests of both servers are heard through Fastify's diagnostics channel
 * (`tracing:fastify.request.handler:*`), subscribed only while a page watches, so neither server has
 * to know about the view; WebSocket commands through `sourcedDispatch`.
 */
import diagnostics from 'node:diagnostics_channel';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../core/caller.ts';
import type { Dispatch } from '../core/dispatcher.ts';
import { GAME_DATA_PATH } from '../protocol/game.ts';
import type { EventSource } from '../protocol/machines-view.ts';

let current: EventSource | undefined;

/** The source of the command or frame being handled right now, if any. */
export const currentEventSource = (): EventSource | undefined => current;

export function withEventSource<T>(source: EventSource, run: () => T): T {
  const outer = current;
  current = source;
  try {
    return run();
  } finally {
    current = outer;
  }
}

export function sourceOfCaller(caller: Caller): EventSource {
  if (caller.role === 'operator') return 'operator';
  return caller.transport === 'http' ? 'HTTP' : 'WebSocket';
}

/** The same dispatch, naming its caller as the source of the events its command sends. */
export function sourcedDispatch(dispatch: Dispatch): Dispatch {
  return (action, payload, caller) =>
    withEventSource(sourceOfCaller(caller), () => dispatch(action, payload, caller));
}

function sourceOfRequest(request: FastifyRequest): EventSource {
  if (request.routeOptions.url === GAME_DATA_PATH) return 'game frame';
  // Only the application server decorates `signedIn`: a signed-in browser is the operator app.
  return (request as { signedIn?: boolean }).signedIn === true ? 'operator' : 'HTTP';
}

const handlers = diagnostics.tracingChannel<unknown, { request: FastifyRequest }>('fastify.request.handler');
const outerOf = new WeakMap<object, EventSource | undefined>();
const requestHooks = {
  start(message: { request: FastifyRequest }) {
    outerOf.set(message, current);
    current = sourceOfRequest(message.request);
  },
  end(message: { request: FastifyRequest }) {
    current = outerOf.get(message);
  },
  asyncStart() {},
  asyncEnd() {},
  error() {},
};
let hearing = 0;

/** Starts naming HTTP requests as sources (counted: each call needs its `stop`). */
export function hearRequests(): () => void {
  if (hearing++ === 0) handlers.subscribe(requestHooks);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--hearing === 0) handlers.unsubscribe(requestHooks);
  };
}
