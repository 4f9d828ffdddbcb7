/**
 * A stand-in obs-websocket 5 server, as anything listening at OBS's address could be (a local account
 * can listen on 127.0.0.1:4455 while OBS is off): it asks for no password, says the replay buffer is
 * running, and answers every SaveReplayBuffer with a ReplayBufferSaved naming whatever file and
 * recording folder the test sets. The protocol: obs-websocket's docs/generated/protocol.md (Hello
 * op 0, Identify 1, Identified 2, Event 5, Request 6, RequestResponse 7), in JSON or in MessagePack
 * as the client's subprotocol asks (obs-websocket-js speaks MessagePack under Node).
 */
import type { AddressInfo } from 'node:net';
import { decode, encode } from '@msgpack/msgpack';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';

/** obs-websocket's `EventSubscription.Outputs`: the intent ReplayBufferSaved travels under. */
const OUTPUTS_INTENT = 1 << 6;

export interface ObsStandIn {
  /** `ws://127.0.0.1:<port>`: the address to put in the service's OBS settings. */
  url: string;
  /** What the next ReplayBufferSaved names: the clip, and the folder GetRecordDirectory answers. */
  report(clip: { path: string; folder: string }): void;
  close(): Promise<void>;
}

export async function startObsStandIn(): Promise<ObsStandIn> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  let clip = { path: '', folder: '' };

  const send = (socket: WebSocket, message: { op: number; d: unknown }) =>
    socket.send(socket.protocol === 'obswebsocket.msgpack' ? encode(message) : JSON.stringify(message));
  const read = (socket: WebSocket, data: RawData) =>
    (socket.protocol === 'obswebsocket.msgpack' ? decode(data as Buffer) : JSON.parse(String(data))) as {
      op: number;
      d: Record<string, unknown>;
    };

  const answer = (socket: WebSocket, requestType: string): Record<string, unknown> => {
    switch (requestType) {
      case 'GetReplayBufferStatus':
        return { outputActive: true };
      case 'GetRecordDirectory':
        return { recordDirectory: clip.folder };
      case 'SaveReplayBuffer':
        setImmediate(() =>
          send(socket, {
            op: 5,
            d: {
              eventType: 'ReplayBufferSaved',
              eventIntent: OUTPUTS_INTENT,
              eventData: { savedReplayPath: clip.path },
            },
          }),
        );
        return {};
      default:
        return {};
    }
  };

  server.on('connection', (socket) => {
    send(socket, { op: 0, d: { obsWebSocketVersion: '5.0.0', rpcVersion: 1 } });
    socket.on('message', (data) => {
      const { op, d } = read(socket, data);
      if (op === 1) send(socket, { op: 2, d: { negotiatedRpcVersion: 1 } });
      if (op === 6) {
        const requestType = String(d.requestType);
        const responseData = answer(socket, requestType);
        const requestStatus = { result: true, code: 100 };
        send(socket, { op: 7, d: { requestType, requestId: d.requestId, requestStatus, responseData } });
      }
    });
  });

  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    report: (next) => {
      clip = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
