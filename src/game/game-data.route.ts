import type { FastifyInstance } from 'fastify';
import { peerOf } from '../access/peer.ts';
import { GAME_DATA_PATH } from '../protocol/game.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';
import type { GameData } from './game-data.ts';

/**
 * A ten-player frame is about 10 KB of JSON; 25 grenades with five burning molotovs and the
 * `previously` section make it about 28 KB (test/game/game-data.test.ts). The other routes' 64 KiB
 * would be close once `added` doubles a frame too; 1 MiB leaves room without letting a peer make
 * the server hold much.
 */
export const GAME_FRAME_LIMIT = 1024 * 1024;

/**
 * POST /gsi: a frame of the game's Game State Integration, answered at once (the game waits for the
 * answer before it sends more). On both servers: the application server's is the one the cfg names;
 * the automation server's is the address older cfg files post to (this machine only).
 */
export function gameDataRoute(app: FastifyInstance, game: Pick<GameData, 'ingest'>): void {
  app.post(
    GAME_DATA_PATH,
    { bodyLimit: GAME_FRAME_LIMIT, schema: { response: answers(okAnswer({})) } },
    async (request) => {
      game.ingest(request.body, peerOf(request.socket, request.ip).address);
      return { ok: true as const };
    },
  );
}
