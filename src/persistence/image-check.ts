/**
 * What the media store keeps of an image it is given (an upload, a fetched team logo): a raster
 * image whose header announces a picture a browser can hold, an SVG with nothing in it that could
 * run or load (docs/application.md, "Media"). Checked where every image passes, the store.
 */
import type { ImageType } from '../protocol/media.ts';
import { decodedSizeProblem } from './image-size.ts';
import { svgProblem } from './svg-check.ts';

/** Why the image may not be kept, in words, or null when it may. */
export async function imageProblem(bytes: Uint8Array, type: ImageType): Promise<string | null> {
  if (!type.is(bytes)) return `the image is not a ${type.type} image`;
  return type.ext === 'svg' ? svgProblem(bytes) : decodedSizeProblem(type.ext, bytes);
}
