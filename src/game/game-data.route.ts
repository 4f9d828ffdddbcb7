import type { FastifyInstance, FastifyRequest } from 'fastify';
import { peerOf } from '../access/peer.ts';
import type { RateLimit } from '../access/rate-limit.ts';
import { ServiceError } from '../protocol/errors.ts';
import { GAME_DATA_PATH } from '../protocol/game.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';
import type { GameData } from './game-data.ts';
import { RefusedFrames } from './refused-frames.ts';

/**
 * A ten-player frame is about 10 KB of JSON; 25 grenades with five burning molotovs and the
 * `previously` section make it about 28 KB (test/game/game-data.test.ts). The other routes' 64 KiB
 * would be close once `added` doubles a frame too; 1 MiB leaves room without letting a peer make
 * the server hold much.
 */
export const GAME_FRAME_LIMIT = 1024 * 1024;

const sourceOf = (request: FastifyRequest) => peerOf(request.socket, request.ip).address;

/**
 * POST /gsi: a frame of the game's Game State Integration, answered at once (the game waits for the
 * answer before it sends more). On both servers: the application server's is the one the cfg names;
 * the automation server's is the address older cfg files post to (this machine only).
 *
 * A frame is paid for before it is read: a device that spent its budget on refused frames is refused
 * before its body is read; a body is parsed only when its text holds the cfg's token, and a frame
 * refused for its token draws on the device's budget (refused-frames.ts, docs/access.md). Its own
 * JSON parser, in a context of its own, so that the token is looked for before the JSON is parsed.
 */
export function gameDataRoute(
  app: FastifyInstance,
  game: Pick<GameData, 'read' | 'ingest'>,
  rateLimit: Pick<RateLimit, 'consume'>,
): void {
  const refused = new RefusedFrames(rateLimit);
  /** A refusal for the token costs the device; the refusal to answer is the rate limit's once it is spent. */
  const charged = async (request: FastifyRequest, error: unknown): Promise<never> => {
    if (error instanceof ServiceError && error.code === 'unauthorized')
      await refused.charge(sourceOf(request));
    throw error;
  };
  void app.register(async (frames) => {
    frames.removeAllContentTypeParsers();
    frames.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      async (request: FastifyRequest, text: string) => {
        try {
          return game.read(text, sourceOf(request));
        } catch (error) {
          return charged(request, error);
        }
      },
    );
    frames.post(
      GAME_DATA_PATH,
      {
        bodyLimit: GAME_FRAME_LIMIT,
        schema: { response: answers(okAnswer({})) },
        onRequest: (request, reply, done) => {
          const refusal = refused.check(sourceOf(request));
          if (!refusal) return done();
          // The body is not read: the connection closes after the answer instead.
          const { headers } = request;
          if (headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0) {
            reply.header('connection', 'close');
          }
          done(refusal);
        },
      },
      async (request) => {
        try {
          game.ingest(request.body, sourceOf(request));
        } catch (error) {
          await charged(request, error);
        }
        return { ok: true as const };
      },
    );
  });
}
