/**
 * Live view of the machines in the Stately inspector (`hud-automation serve --inspect`).
 *
 * `createInspectorServer` from `@statelyai/inspect/server` cannot be used: it listens on every
 * interface with no way to choose (and no authentication), so anyone on the LAN could read the
 * veto and the OBS settings, and it opens a browser on the server by default. This module serves
 * the same relay itself, on 127.0.0.1 only:
 *
 *   actors --inspect--> createWebSocketInspector --ws /source?token--> relay --ws /viewer--> bridge page
 *   (this process)                                                                (iframe: stately.ai/inspect)
 *
 * The bridge page at `url` frames https://stately.ai/inspect and posts every event into it, so
 * viewing needs a browser with internet; the events travel only over loopback and into that page.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebSocketInspector, type StatelyInspectionEvent } from '@statelyai/inspect';
import { type WebSocket, WebSocketServer } from 'ws';
import type { InspectionEvent } from 'xstate';
import { secretKey } from './inspector/redaction.ts';

export interface InspectorOptions {
  port: number;
  /** Loopback only, on purpose: the relay has no authentication. */
  host?: '127.0.0.1';
}

export interface RunningInspector {
  /** Pass to `createActor(machine, { inspect })`; does nothing once closed. */
  inspect: (event: InspectionEvent) => void;
  /** The page to open in a browser: it shows the Stately inspector fed by this process. */
  url: string;
  /** Stops the inspector client and the relay; afterwards nothing keeps Node alive. */
  close(): Promise<void>;
}

/** Where viewers (the bridge page) connect to receive events. */
export const viewerPath = '/viewer';
const sourcePath = '/source';
const statelyInspectorOrigin = 'https://stately.ai';

/** Recent events replayed to a viewer that connects late, beside what every actor needs. */
const replayedEvents = 500;
/** Actors remembered for late viewers; spawned actors could otherwise grow it without end. */
const rememberedActors = 1000;
/** The client retries a failed connection every 5 s: allow one retry, not forever. */
const sourceConnectTimeoutMs = 12_000;

export async function startInspector(options: InspectorOptions): Promise<RunningInspector> {
  const host = options.host ?? '127.0.0.1';
  // Only this process may publish events: a web page open in the operator's browser could
  // otherwise connect to the loopback relay and show made-up events to the viewers.
  const sourceToken = randomBytes(24).toString('hex');
  const replay = new ReplayBuffer();
  const viewers = new Set<WebSocket>();
  const sources = new Set<WebSocket>();
  let resolveSourceConnected: () => void = () => {};
  const sourceConnected = new Promise<void>((resolve) => {
    resolveSourceConnected = resolve;
  });

  let port = options.port;
  const isOwnHost = (value: string | undefined) =>
    value === `${host}:${port}` || value === `localhost:${port}`;
  const isOwnOrigin = (value: string | undefined) =>
    value === `http://${host}:${port}` || value === `http://localhost:${port}`;

  const httpServer = createServer((request, response) => {
    // A Host check keeps a DNS-rebinding page from reading anything here.
    if (!isOwnHost(request.headers.host)) {
      response.writeHead(403).end();
      return;
    }
    if (request.method !== 'GET' || new URL(request.url ?? '/', 'http://x').pathname !== '/') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    response.end(bridgePage);
  });

  const roleOf = (request: IncomingMessage): 'source' | 'viewer' | undefined => {
    const { pathname, searchParams } = new URL(request.url ?? '/', 'http://x');
    // Browsers send Origin on every WebSocket, so a page from any other site is refused, and the
    // source (this process, which sends none) must also know the token.
    const origin = request.headers.origin;
    if (pathname === sourcePath) {
      return origin === undefined && searchParams.get('token') === sourceToken ? 'source' : undefined;
    }
    if (pathname === viewerPath && isOwnHost(request.headers.host)) {
      return origin === undefined || isOwnOrigin(origin) ? 'viewer' : undefined;
    }
    return undefined;
  };

  const wss = new WebSocketServer({ noServer: true });
  httpServer.on('upgrade', (request: IncomingMessage, socket, head) => {
    const role = roleOf(request);
    if (role === undefined) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      // An 'error' without a listener would crash the service; a broken peer just goes away.
      ws.on('error', () => ws.terminate());
      if (role === 'source') {
        sources.add(ws);
        ws.on('close', () => sources.delete(ws));
        ws.on('message', (data) => {
          const message = data.toString();
          replay.add(message);
          for (const viewer of viewers) if (viewer.readyState === viewer.OPEN) viewer.send(message);
        });
        // The server sees the connection before the client has read the handshake answer; the
        // client answers a ping only once it is open and sends events straight away.
        ws.once('pong', () => resolveSourceConnected());
        ws.ping();
      } else {
        viewers.add(ws);
        ws.on('close', () => viewers.delete(ws));
        // Viewers only listen; what they send is ignored.
        for (const message of replay.messages()) ws.send(message);
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`inspector port ${options.port} on ${host} is already in use`, { cause: error })
          : error,
      );
    });
    httpServer.listen(options.port, host, () => resolve());
  });
  port = (httpServer.address() as AddressInfo).port;

  // Started only now that the relay listens, so its first connection attempt succeeds.
  const inspector = createWebSocketInspector({
    url: `ws://${host}:${port}${sourcePath}?token=${sourceToken}`,
    serialize: toSafeJson,
  });

  // Until its socket is open the client keeps only its last 200 events, and the first ones are
  // the actors' registrations, which the inspector needs to draw anything: return once it is
  // connected, so the caller creates its actors after that.
  const connected = await Promise.race([
    sourceConnected.then(() => true),
    delay(sourceConnectTimeoutMs).then(() => false),
  ]);
  if (!connected) {
    httpServer.closeAllConnections();
    httpServer.close();
    throw new Error(`the inspector client could not reach its relay on ${host}:${port}`);
  }

  let closed = false;
  let closing: Promise<void> | undefined;
  return {
    inspect: (event) => {
      if (!closed) inspector.inspect.next?.(event);
    },
    url: `http://${host}:${port}/`,
    close() {
      closed = true;
      closing ??= (async () => {
        // The client reconnects forever after a connection *error*, and closing a socket that is
        // still connecting is one. It is connected (startInspector waited for that), so close it
        // from the server side: a clean close, which the client does not retry.
        await Promise.all([...sources].map((ws) => closeSocket(ws)));
        inspector.stop();
        await Promise.all([...viewers].map((ws) => closeSocket(ws)));
        wss.close();
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      })();
      return closing;
    },
  };
}

/**
 * What a viewer that connects late needs to draw the machines: every actor's registration (it
 * carries the machine definition), the latest snapshot of actors whose last change is older than
 * the recent window, then the recent events in order.
 */
class ReplayBuffer {
  private readonly actors = new Map<string, string>();
  private readonly latestSnapshots = new Map<string, string>();
  private recent: string[] = [];

  add(message: string): void {
    let event: { type?: unknown; sessionId?: unknown };
    try {
      event = JSON.parse(message) as typeof event;
    } catch {
      return;
    }
    const sessionId = typeof event.sessionId === 'string' ? event.sessionId : undefined;
    if (event.type === '@xstate.actor' && sessionId !== undefined) {
      this.actors.delete(sessionId);
      this.actors.set(sessionId, message);
      if (this.actors.size > rememberedActors) this.forget(this.actors.keys().next().value);
      return;
    }
    if (event.type === '@xstate.snapshot' && sessionId !== undefined && this.actors.has(sessionId)) {
      this.latestSnapshots.set(sessionId, message);
    }
    this.recent.push(message);
    if (this.recent.length > replayedEvents * 2) this.recent = this.recent.slice(-replayedEvents);
  }

  messages(): string[] {
    const recent = this.recent.slice(-replayedEvents);
    const inWindow = new Set(recent);
    const olderSnapshots = [...this.latestSnapshots.values()].filter((message) => !inWindow.has(message));
    return [...this.actors.values(), ...olderSnapshots, ...recent];
  }

  private forget(sessionId: string | undefined): void {
    if (sessionId === undefined) return;
    this.actors.delete(sessionId);
    this.latestSnapshots.delete(sessionId);
  }
}

/**
 * The inspector shows contexts and events verbatim, and the OBS settings carry a password; the
 * inspector page may well be on a screen that OBS is capturing. Also makes the event plain JSON
 * without cycles (the library's own serializer is replaced by this one).
 */
export function toSafeJson(event: StatelyInspectionEvent): StatelyInspectionEvent {
  return JSON.parse(redactedJson(event)) as StatelyInspectionEvent;
}

function redactedJson(value: unknown): string {
  const ancestors: unknown[] = [];
  return JSON.stringify(value, function (this: unknown, key: string, inner: unknown) {
    if (key !== '' && secretKey.test(key) && inner !== undefined && inner !== null && inner !== '') {
      return '[redacted]';
    }
    // An actor's machine definition arrives as a JSON string, context defaults included.
    if (key === 'definition' && typeof inner === 'string') return redactedDefinition(inner);
    if (typeof inner === 'bigint') return inner.toString();
    if (typeof inner !== 'object' || inner === null) return inner;
    // `this` is the object holding `inner`: drop finished branches from the path, then look for
    // `inner` on the path that is left.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(inner)) return '[circular]';
    ancestors.push(inner);
    return inner;
  });
}

function redactedDefinition(definition: string): string {
  try {
    return redactedJson(JSON.parse(definition));
  } catch {
    return definition;
  }
}

function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    ws.once('close', () => resolve());
    ws.close(1001, 'inspector closed');
    // A peer that never answers the close handshake must not hold the shutdown.
    delay(2000).then(() => ws.terminate());
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * The page `url` serves: it frames the Stately inspector and hands it every event, buffering
 * until the frame says it is ready. Messages go to the stately.ai origin only.
 */
const bridgePage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>hud-automation · Stately inspector</title>
  <style>html, body { height: 100%; margin: 0; } iframe { width: 100%; height: 100%; border: 0; }</style>
</head>
<body>
  <iframe id="inspector" src="${statelyInspectorOrigin}/inspect"></iframe>
  <script>
    const frame = document.getElementById('inspector');
    const pending = [];
    let ready = false;
    const deliver = (event) => frame.contentWindow.postMessage(event, '${statelyInspectorOrigin}');
    window.addEventListener('message', (message) => {
      if (message.origin !== '${statelyInspectorOrigin}') return;
      if (message.data && message.data.type === '@statelyai.connected') {
        ready = true;
        pending.splice(0).forEach(deliver);
      }
    });
    const socket = new WebSocket('ws://' + location.host + '${viewerPath}');
    socket.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (ready) deliver(event);
      else pending.push(event);
    };
    socket.onclose = () => { document.title = 'hud-automation · inspector disconnected'; };
  </script>
</body>
</html>
`;
