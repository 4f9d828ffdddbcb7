import type { WebSocket } from 'ws';
import type { Grant } from '../access/grant.ts';
import type { GameMessage } from '../protocol/game.ts';
import type { EventMessage, ServerMessage } from '../protocol/websocket.ts';
import { CLOSE, MAX_BUFFERED_BYTES } from '../protocol/websocket.ts';
import { serializeMessage } from './serialize.ts';

/** A Buffer is sent as a binary frame unless told: the protocol's messages are text. */
const TEXT = { binary: false };

/**
 * The last message broadcast and its bytes: both servers' gateways broadcast the same message object
 * one after the other (an event, a game message), and the second reuses the first's text. One slot,
 * not a map: the message before is never sent again.
 */
let last: { message: EventMessage | GameMessage; data: Buffer } | null = null;

/** A message's UTF-8 bytes: a string would be encoded again for every socket it is written to. */
function encoded(message: EventMessage | GameMessage): Buffer {
  if (last?.message !== message) last = { message, data: Buffer.from(serializeMessage(message)) };
  return last.data;
}

/** One WebSocket connection as the gateway keeps it. */
export interface WsClient {
  socket: WebSocket;
  /** The peer's canonical address. */
  address: string;
  /** A device on the local network: rate limited, dropped when the token changes or LAN mode goes off. */
  remote: boolean;
  /** Receives nothing until true. */
  authenticated: boolean;
  /** Answered the last server ping. */
  alive: boolean;
  /** A signed-in browser of the operator app: it also receives the panel events. */
  panel: boolean;
  /** Its session: the connection ends when the session does. */
  session: string | null;
  /** What the page says it is (`?role=`): operator, overlay, scene … */
  role: string | null;
  /** What its credential allows (src/access/grant.ts): `view` only reads, whatever the role says. */
  grant: Grant;
  /** Gets the live game data (`game` messages): a page, or a client that asked (`?subscribe=game`). */
  game: boolean;
}

/** Whether a client gets the live game data. */
export const wantsGame = (client: WsClient): boolean => client.game;

/**
 * The open connections and what goes out to them: each message serialised once, a client that stops
 * reading dropped instead of buffered without end.
 */
export class WsFanout {
  readonly clients = new Set<WsClient>();

  send(client: WsClient, message: ServerMessage): void {
    this.#sendText(client, serializeMessage(message));
  }

  /**
   * An event (or live game data) to every authenticated client (or to those `to` selects), serialised
   * once, and not at all when no client takes it.
   */
  broadcast(message: EventMessage | GameMessage, to?: (client: WsClient) => boolean): void {
    let data: Buffer | null = null;
    for (const client of this.clients) {
      if (!client.authenticated || (to && !to(client))) continue;
      data ??= encoded(message);
      this.#sendText(client, data);
    }
  }

  count(which: (client: WsClient) => boolean): number {
    let n = 0;
    for (const client of this.clients) if (which(client)) n++;
    return n;
  }

  /** Closes the connections `which` selects, with a close code and a reason the client can show. */
  close(which: (client: WsClient) => boolean, code: number, reason: string): void {
    for (const client of this.clients) if (which(client)) client.socket.close(code, reason);
  }

  #sendText(client: WsClient, text: string | Buffer): void {
    const { socket } = client;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.close(CLOSE.tooSlow, 'too slow: messages were not read');
      return;
    }
    socket.send(text, TEXT);
  }
}
