/**
 * The automation server's /hlae: the WebSocket HLAE's `mirv_pgl` connects to from the game
 * (docs/game-data.md, "The killfeed from HLAE"). Access as every route of that server: this machine,
 * or the local network with the access token in local network mode (docs/access.md).
 *
 * One link at a time: a new one replaces the old. Each binary message is read whole before anything
 * is done with it (hlae-pgl.ts); a message that breaks the format or its bounds, a text message, a
 * command before `hello` or another protocol version closes the link with 1008 and the reason, and
 * what the message held is not used. While the link is live the killfeed is HLAE's; once it closes
 * the inferred feed is shown again.
 */
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { peerOf } from '../access/peer.ts';
import type { GameData } from '../game/game-data.ts';
import { playerDeathOf } from '../game/hlae-killfeed.ts';
import type { PglCommand, PglEvents } from '../game/hlae-pgl.ts';
import { PGL_VERSION, PglError, pglSetup, readPglMessage } from '../game/hlae-pgl.ts';
import { HLAE_PATH } from '../protocol/game.ts';

/**
 * Close codes: bad input (RFC 6455 policy violation), a link replaced by a newer one, the server
 * stopping (going away).
 */
export const HLAE_CLOSE = { refused: 1008, replaced: 4000, stopping: 1001 } as const;

/** How long a stopping server waits for the game to answer its close before it drops the link. */
const GOODBYE_MS = 1_000;

type HlaeGame = Pick<GameData, 'hlaeConnected' | 'hlaeLive' | 'hlaeDeath' | 'hlaeClosed'>;

const bytesOf = (data: RawData): Uint8Array =>
  Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data;

/** A close reason fits in a control frame (123 bytes): cut at a character, not inside one. */
function reasonOf(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 120) reason = reason.slice(0, -1);
  return reason;
}

export function hlaeRoute(app: FastifyInstance, game: HlaeGame): void {
  let current: WebSocket | null = null;
  // The link is not one of the WebSocket plugin's clients: without this the server would wait for
  // the game to hang up before it could stop.
  app.addHook('preClose', async () => {
    const socket = current;
    if (!socket) return;
    const closed = once(socket, 'close');
    socket.close(HLAE_CLOSE.stopping, 'the service is stopping');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, GOODBYE_MS)))]);
    clearTimeout(timer);
    socket.terminate();
  });
  app.route({
    method: 'GET',
    url: HLAE_PATH,
    handler: async () => ({
      ok: true,
      message: `HLAE's mirv_pgl connects here with a WebSocket: mirv_pgl url "ws://<this machine>:<port>${HLAE_PATH}"; mirv_pgl start`,
    }),
    wsHandler: (socket, request) => {
      const previous = current;
      current = socket;
      previous?.close(HLAE_CLOSE.replaced, 'replaced by a newer HLAE connection');
      game.hlaeConnected(peerOf(request.socket, request.ip).address);
      const events: PglEvents = new Map();
      let hello = false;
      let refused: string | null = null;
      const refuse = (reason: string) => {
        refused = reason;
        socket.close(HLAE_CLOSE.refused, reasonOf(reason));
      };
      const take = (commands: PglCommand[]) => {
        for (const command of commands) {
          if (command.type === 'hello') {
            for (const message of pglSetup()) socket.send(message, { binary: true });
            game.hlaeLive();
          } else if (command.type === 'gameEvent' && command.name === 'player_death') {
            const death = playerDeathOf(command.keys);
            if (death) game.hlaeDeath(death);
          }
        }
      };
      socket.on('message', (data, isBinary) => {
        if (refused !== null || current !== socket) return;
        if (!isBinary) return refuse('mirv_pgl sends binary messages; this one was text');
        let commands: PglCommand[];
        try {
          commands = readPglMessage(bytesOf(data), events);
        } catch (error) {
          if (error instanceof PglError) return refuse(error.message);
          // A fault of the reader, not of the game: thrown from a socket's listener it would stop
          // the process, so the link ends and the fault is logged.
          app.log.error({ err: error }, 'reading an HLAE message failed');
          return refuse('the server could not read this message');
        }
        // The order is checked before anything is taken: a refused message changes nothing.
        for (const command of commands) {
          if (command.type === 'hello') {
            if (hello) return refuse('hello sent twice');
            if (command.version !== PGL_VERSION)
              return refuse(`mirv_pgl version ${command.version}: this server speaks version ${PGL_VERSION}`);
            hello = true;
          } else if (!hello) return refuse(`${command.type} before hello`);
        }
        take(commands);
      });
      socket.on('close', () => {
        if (current !== socket) return;
        current = null;
        game.hlaeClosed(refused);
      });
      // A socket error ends in close; without a listener ws would throw it.
      socket.on('error', () => {});
    },
  });
}
