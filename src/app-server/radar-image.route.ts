/**
 * The radar's images, a kind of upload of their own (docs/themes.md, "Radar"): the overview of one
 * map, drawn under the radar's dots. Stored in the media folder like every uploaded image (named by
 * its content) and served at /media/<id>; which map it belongs to is saved with the branding
 * (`radarImages`). Square, since the calibration places the world on a square; a larger bound
 * than the other images, since the game's overviews are 1024x1024 PNGs of 1 to 3 MiB.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import { checkPayload } from '../core/dispatcher.ts';
import { imageSize } from '../persistence/image-size.ts';
import type { MediaStore } from '../persistence/media-store.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { invalidPayload } from '../protocol/errors.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';
import {
  imageTypeOf,
  mediaUrl,
  RADAR_IMAGE_MAX_BYTES,
  RADAR_IMAGE_MAX_SIDE,
  RADAR_IMAGE_MIN_SIDE,
  RADAR_MEDIA_PATH,
} from '../protocol/media.ts';
import { MediaIdSchema } from '../protocol/settings.ts';

const BASE64_MAX = Math.ceil((RADAR_IMAGE_MAX_BYTES * 4) / 3) + 4;

// No maxLength: the body's bound holds the text, and the check of the bytes says "over 4 MiB" in words.
const RadarUploadSchema = Type.Object(
  { data: Type.String({ description: 'The image, base64' }) },
  { additionalProperties: false },
);
const checkUpload = compiledCheck(RadarUploadSchema);

export interface RadarImageOptions {
  /** The media store, which keeps the image beside the others. */
  media: Pick<MediaStore, 'store'>;
}

/** The media plugin's Fastify instance, typed by its TypeBox provider. */
type MediaApp = Parameters<FastifyPluginAsyncTypebox>[0];

export function radarImageRoute(app: MediaApp, { media }: RadarImageOptions): void {
  const MiB = RADAR_IMAGE_MAX_BYTES / 1024 / 1024;
  app.post(
    RADAR_MEDIA_PATH,
    {
      bodyLimit: BASE64_MAX + 1024,
      schema: {
        response: answers(
          okAnswer({
            media: Type.Object({
              id: MediaIdSchema,
              url: Type.String(),
              width: Type.Integer(),
              height: Type.Integer(),
            }),
          }),
        ),
      },
    },
    async (request) => {
      const { data } = checkPayload('radar image', checkUpload, request.body) as Static<
        typeof RadarUploadSchema
      >;
      const bytes = Buffer.from(data, 'base64');
      if (bytes.length === 0) throw invalidPayload('data: the image is empty (send it base64)');
      if (bytes.length > RADAR_IMAGE_MAX_BYTES) throw invalidPayload(`data: the image is over ${MiB} MiB`);
      // A raster image: its size is read from its header (an SVG has none to place the world on).
      const type = imageTypeOf(bytes);
      if (!type || type.ext === 'svg') throw invalidPayload('data: not a PNG, JPEG, WebP or GIF image');
      const size = imageSize(type.ext, bytes);
      if (!size) throw invalidPayload("data: the image's size cannot be read from its header");
      const { width, height } = size;
      if (width !== height) {
        throw invalidPayload(
          `data: a radar image must be square, as the game's overviews are (1024x1024); this one is ${width}x${height}`,
        );
      }
      if (width < RADAR_IMAGE_MIN_SIDE || width > RADAR_IMAGE_MAX_SIDE) {
        throw invalidPayload(
          `data: a radar image is ${RADAR_IMAGE_MIN_SIDE} to ${RADAR_IMAGE_MAX_SIDE} pixels a side; this one is ${width}`,
        );
      }
      const id = await media.store(bytes, type);
      return { ok: true as const, media: { id, url: mediaUrl(id), width, height } };
    },
  );
}
