import { TypeCompiler } from '@sinclair/typebox/compiler';
import { afterEach } from 'vitest';
import { WebSocket } from 'ws';
import { ServerMessage } from '../../src/protocol/websocket.ts';

const checkServerMessage = TypeCompiler.Compile(ServerMessage);

// Every message any test receives must be one the protocol (src/protocol/websocket.ts, docs/asyncapi.json)
// describes: a test that received another fails after it ran.
const violations: string[] = [];
afterEach(() => {
  const found = violations.splice(0);
  if (found.length > 0) throw new Error(`messages outside the protocol:\n${found.join('\n')}`);
});

export interface TestSocket {
  socket: WebSocket;
  /** Every message received so far, parsed. */
  received: any[];
  /** The next message not yet taken by next() (waits for it). */
  next(): Promise<any>;
  /** The first received message (taken or not) that matches, waiting for it. */
  waitFor(match: (message: any) => boolean): Promise<any>;
  /** The first message received from now on that matches, waiting for it. */
  waitForNew(match: (message: any) => boolean): Promise<any>;
  send(message: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** A real `ws` client that queues what it receives, so tests await messages instead of sleeping. */
export async function connect(
  url: string,
  options: { headers?: Record<string, string> } = {},
): Promise<TestSocket> {
  const socket = new WebSocket(url, { headers: options.headers });
  const received: any[] = [];
  let taken = 0;
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (!checkServerMessage.Check(message)) {
      const error = checkServerMessage.Errors(message).First();
      violations.push(`${JSON.stringify(message).slice(0, 300)}: ${error?.path} ${error?.message}`);
    }
    received.push(message);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
  });
  const until = async (found: () => any) => {
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (socket.readyState === WebSocket.CLOSED)
        throw new Error('the socket closed while waiting for a message');
      await new Promise<void>((wake) => waiters.push(wake));
    }
  };
  return {
    socket,
    received,
    next: () => until(() => (taken < received.length ? received[taken++] : undefined)),
    waitFor: (match) => until(() => received.find(match)),
    waitForNew: (match) => {
      const from = received.length;
      return until(() => received.slice(from).find(match));
    },
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    closed,
    close: () => socket.close(),
  };
}
