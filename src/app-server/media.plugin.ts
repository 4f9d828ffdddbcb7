/**
 * The files the broadcast pages show that are not the pages themselves: the images of the media
 * store (the operator's uploads: event logo, sponsors, talent photos, team logos; and the team
 * logos the server fetched), served at /media/<id>; and the replay clips OBS saved, each served
 * from exactly the path OBS reported, when that file is a clip (src/obs/replay-clip.ts).
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import parseRange from 'range-parser';
import { checkPayload } from '../core/dispatcher.ts';
import type { StateHub } from '../core/state-hub.ts';
import { type OpenClip, openReplayClip, type ReportedClip } from '../obs/replay-clip.ts';
import type { MediaStore } from '../persistence/media-store.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { invalidPayload, ServiceError } from '../protocol/errors.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';
import {
  IMAGE_TYPE_WORDS,
  IMAGE_TYPES,
  imageTypeOf,
  MAX_IMAGE_BYTES,
  MEDIA_PATH,
  mediaUrl,
} from '../protocol/media.ts';
import { MediaIdSchema } from '../protocol/settings.ts';
import type { EventMessage } from '../protocol/websocket.ts';
import { REPLAY_PATH } from './page-paths.ts';
import { radarImageRoute } from './radar-image.route.ts';

/** How many reported replay clips stay servable (the newest ones). */
export const KEPT_REPLAYS = 20;

const typeOfExt = (file: string) => IMAGE_TYPES.find((image) => file.endsWith(`.${image.ext}`))?.type;
const isMediaId = (id: string) => new RegExp(MediaIdSchema.pattern ?? '^$').test(id);

/**
 * An SVG opened on its own is a document of this origin: no script runs in it, nothing loads from
 * it, it cannot navigate (the pages show it through <img>, where scripts never run anyway).
 */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

const UploadSchema = Type.Object(
  {
    data: Type.String({
      maxLength: Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 4,
      description: 'The image, base64',
    }),
  },
  { additionalProperties: false },
);
const checkUpload = compiledCheck(UploadSchema);

/**
 * Sends a clip from the file that was checked (never opened again by its name), with one byte range
 * when asked (a video element seeks); a range it cannot honour gets the whole file, as HTTP allows.
 */
function sendClip(request: FastifyRequest, reply: FastifyReply, clip: OpenClip): FastifyReply {
  const { handle, size, type } = clip;
  // -1 (unsatisfiable) and -2 (malformed) are numbers; a range list is an array with its unit.
  const asked = request.headers.range === undefined ? -2 : parseRange(size, request.headers.range);
  const range = Array.isArray(asked) && asked.type === 'bytes' && asked.length === 1 ? asked[0] : null;
  const { start, end } = range ?? { start: 0, end: size - 1 };
  reply.headers({
    'content-type': type,
    'accept-ranges': 'bytes',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  if (size === 0) {
    void handle.close();
    return reply.header('content-length', 0).send('');
  }
  return reply
    .header('content-length', end - start + 1)
    .send(handle.createReadStream({ start, end, autoClose: true }));
}

/**
 * Sends one stored image through @fastify/static's `reply.sendFile` (registered by pages.plugin.ts,
 * the server's one static-file path), or the envelope when it is gone. Gone is told before: a file
 * sendFile cannot find goes to the not-found handler, which answers for the route, not the file
 * (only an image the quota removes between the two gets that answer, still a 4xx envelope).
 */
async function sendFile(
  reply: FastifyReply,
  dir: string,
  id: string,
  headers: Record<string, string>,
): Promise<FastifyReply> {
  try {
    await access(join(dir, id));
  } catch {
    throw new ServiceError('not_found', `the file is no longer there: ${id}`);
  }
  // The type is the store's (by the id's extension), set here: send's own would replace it.
  return reply
    .headers({ ...headers, 'x-content-type-options': 'nosniff' })
    .sendFile(id, dir, { acceptRanges: true, cacheControl: false, contentType: false, dotfiles: 'allow' });
}

export interface MediaOptions {
  /** The media store: where uploaded images are kept (its folder), and the store that keeps them. */
  media: Pick<MediaStore, 'dir' | 'store'>;
  /** The events, for the replay clips OBS reports. */
  hub: Pick<StateHub, 'emitter'>;
  /** The service's data directory: no file in it is ever served as a replay. */
  dataDir: string;
}

const mediaPlugin: FastifyPluginAsyncTypebox<MediaOptions> = async (app, { media, hub, dataDir }) => {
  const replays: ReportedClip[] = [];
  const onEvent = (message: EventMessage) => {
    if (message.event !== 'replay.saved') return;
    const clip = message.data as ReportedClip;
    const others = replays.filter((kept) => kept.path !== clip.path);
    replays.splice(0, replays.length, ...[clip, ...others].slice(0, KEPT_REPLAYS));
  };
  hub.emitter.on('event', onEvent);
  app.addHook('onClose', async () => hub.emitter.off('event', onEvent));

  app.post(
    '/api/panel/media',
    {
      bodyLimit: Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 1024,
      schema: {
        response: answers(okAnswer({ media: Type.Object({ id: MediaIdSchema, url: Type.String() }) })),
      },
    },
    async (request) => {
      // Checked as every payload is (the envelope's invalid_payload, unknown fields refused).
      const { data } = checkPayload('media', checkUpload, request.body) as Static<typeof UploadSchema>;
      const bytes = Buffer.from(data, 'base64');
      if (bytes.length === 0) throw invalidPayload('data: the image is empty (send it base64)');
      if (bytes.length > MAX_IMAGE_BYTES) {
        throw invalidPayload(`data: the image is over ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`);
      }
      const image = imageTypeOf(bytes);
      if (!image) throw invalidPayload(`data: not a ${IMAGE_TYPE_WORDS} image`);
      const id = await media.store(bytes, image);
      return { ok: true as const, media: { id, url: mediaUrl(id) } };
    },
  );

  // A map's radar image: a kind of upload with rules of its own (square, a larger bound).
  radarImageRoute(app, { media });

  app.get<{ Params: { id: string } }>(`${MEDIA_PATH}/:id`, async (request, reply) => {
    const { id } = request.params;
    const type = typeOfExt(id);
    if (!isMediaId(id) || !type) throw new ServiceError('not_found', `no image "${id}"`);
    return sendFile(reply, media.dir, id, {
      'content-type': type,
      'cache-control': 'public, max-age=31536000, immutable',
      ...(type === 'image/svg+xml' ? { 'content-security-policy': SVG_POLICY } : {}),
    });
  });

  app.get<{ Querystring: { path?: string | string[] } }>(REPLAY_PATH, async (request, reply) => {
    const { path } = request.query;
    if (typeof path !== 'string' || path === '') {
      throw invalidPayload('path: name one clip OBS saved, as GET /replay?path=<its path>');
    }
    // Only a path OBS reported: never a file a caller names.
    const reported = replays.find((clip) => clip.path === path);
    if (!reported) {
      throw new ServiceError(
        'not_found',
        'no saved replay at that path: only the clips OBS reported are served',
      );
    }
    return sendClip(request, reply, await openReplayClip(reported, dataDir));
  });
};

export default fp(mediaPlugin, { name: 'media', dependencies: ['error-envelope', 'page-access'] });
