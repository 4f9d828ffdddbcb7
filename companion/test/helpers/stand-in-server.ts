/**
 * A stand-in for hud-automation that the test scripts: it answers `GET /` as hud-automation does (so
 * the module goes on to the WebSocket) and then says whatever the test wants, right or wrong. For
 * what a broken or hostile server does to the module; the real server is in hud-server.ts.
 *
 *   const standIn = await startStandIn();
 *   standIn.onSocket = (socket) => socket.send(JSON.stringify({ type: 'hello', snapshot: {} }));
 *   await host.updateConfig({ host: '127.0.0.1', port: standIn.port, token: '' });
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface StandIn {
  readonly port: number;
  /** `GET /`: hud-automation's answer unless replaced. */
  onProbe: HttpHandler;
  /** `POST /api/actions/<action>`: a 200 envelope unless replaced. */
  onCommand: HttpHandler;
  /** Each WebSocket accepted: a good hello unless replaced. */
  onSocket: (socket: WebSocket) => void;
  /** Back to the defaults: hud-automation's `GET /`, a 200 to every command, a good hello. */
  reset(): void;
  /** WebSockets accepted so far. */
  readonly sockets: number;
  /** Resolves once `n` WebSockets have been accepted in all. */
  nthSocket(n: number): Promise<void>;
  close(): Promise<void>;
}

export const ABOUT = { ok: true, service: 'hud-automation', version: '0.1.0-stand-in', protocol: 1 };

/** The fields of hello's snapshot the module reads, as the server sends them. */
export function goodSnapshot(revision: number, eventName = 'Stand-in Open') {
  return {
    revision,
    state: { revision, hudWindowOpen: false, scoreboardVisible: true, mainWindowOpen: true, senScene: null },
    match: {
      eventName,
      boFormat: 'bo3',
      teamA: { name: 'Vitality' },
      teamB: { name: 'MOUZ' },
      maps: [],
      seriesScore: { a: 0, b: 0 },
    },
    veto: { active: false },
    reveal: { revealed: 0, total: 0, instant: true },
    production: { smartObserver: { enabled: false, mode: 'suggest', cinematicEnabled: false } },
    activePresetId: null,
  };
}

export const goodHello = (revision = 1, eventName?: string) =>
  JSON.stringify({
    type: 'hello',
    service: 'hud-automation',
    version: ABOUT.version,
    protocol: 1,
    subscriptions: ['game'],
    snapshot: goodSnapshot(revision, eventName),
  });

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startStandIn(): Promise<StandIn> {
  const connections = new Set<Socket>();
  const waiters = new Set<() => void>();
  let sockets = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') standIn.onProbe(req, res);
    else if (req.method === 'POST' && req.url?.startsWith('/api/actions/')) standIn.onCommand(req, res);
    else json(res, 404, { ok: false, error: 'not_found', message: 'no such route' });
  });
  server.on('connection', (socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket) => {
    sockets++;
    socket.on('error', () => {});
    standIn.onSocket(socket);
    for (const waiter of [...waiters]) waiter();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const defaults = {
    onProbe: (_req: IncomingMessage, res: ServerResponse) => json(res, 200, ABOUT),
    onCommand: (_req: IncomingMessage, res: ServerResponse) =>
      json(res, 200, { ok: true, state: { revision: 1 }, result: {} }),
    onSocket: (socket: WebSocket) => socket.send(goodHello()),
  };
  const standIn: StandIn = {
    port: (server.address() as AddressInfo).port,
    ...defaults,
    reset: () => Object.assign(standIn, defaults),
    get sockets() {
      return sockets;
    },
    nthSocket: (n) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (sockets < n) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const client of wss.clients) client.terminate();
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => wss.close(resolve));
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return standIn;
}

/**
 * Answers with an endless body: chunks of 64 KiB, written as fast as the reader takes them, until
 * the reader hangs up or `giveUpAfter` bytes have gone out (then the answer ends, so a reader
 * without a bound finishes too, having held all of it). Resolves with what happened.
 */
export function endlessAnswer(
  res: ServerResponse,
  giveUpAfter: number,
): Promise<{ bytes: number; abortedByReader: boolean }> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"ok":true,"padding":"');
  let bytes = 0;
  return new Promise((resolve) => {
    let finished = false;
    res.on('close', () => resolve({ bytes, abortedByReader: !finished }));
    const pump = () => {
      while (bytes < giveUpAfter) {
        bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      finished = true;
      res.end('"}');
    };
    pump();
  });
}
