/**
 * The pixel size of an image, read from its header (PNG, JPEG, GIF, WebP): nothing here decodes the
 * picture itself. The radar's images must be square; every image of the media store must fit what a
 * browser can hold once it draws it (docs/application.md, "Media"). Null when the header does not
 * say (a truncated or unusual file).
 */
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '../protocol/media.ts';

export interface ImageSize {
  width: number;
  height: number;
}

/** The raster types of the media store, by their extension. */
export type RasterExt = 'png' | 'jpg' | 'gif' | 'webp';

function pngSizes(b: Buffer): ImageSize[] | null {
  // The first chunk is IHDR: width and height, big-endian, at bytes 16 and 20. An animated PNG's
  // frames lie within it (a decoder refuses one that does not).
  if (b.length < 24 || b.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return [{ width: b.readUInt32BE(16), height: b.readUInt32BE(20) }];
}

/** The bytes of a GIF colour table, from the packed field that announces it. */
const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** The offset after a run of data sub-blocks (each its length, then its bytes; a zero length ends it). */
function afterSubBlocks(b: Buffer, start: number): number {
  let at = start;
  while (at < b.length) {
    const length = b[at] as number;
    at += 1 + length;
    if (length === 0) break;
  }
  return at;
}

/**
 * A GIF's logical screen, then each frame's own size: a decoder allocates a frame as its image
 * descriptor says, whatever the screen, so a small screen can hide a huge frame. A file that ends
 * early has the frames read so far (a browser draws no more); a block of an unknown kind is damage.
 */
function gifSizes(b: Buffer): ImageSize[] | null {
  if (b.length < 13) return null;
  const sizes = [{ width: b.readUInt16LE(6), height: b.readUInt16LE(8) }];
  let at = 13 + colourTableBytes(b[10] as number);
  while (at < b.length) {
    const block = b[at];
    if (block === 0x3b) break; // the trailer
    if (block === 0x21) {
      // An extension: its label, then its sub-blocks.
      at = afterSubBlocks(b, at + 2);
    } else if (block === 0x2c) {
      if (at + 10 > b.length) break;
      sizes.push({ width: b.readUInt16LE(at + 5), height: b.readUInt16LE(at + 7) });
      // The descriptor, its colour table, the LZW code size, then the picture's sub-blocks.
      at = afterSubBlocks(b, at + 10 + colourTableBytes(b[at + 9] as number) + 1);
    } else {
      return null;
    }
  }
  return sizes;
}

/** The start-of-frame markers that carry the size (C0-CF but DHT C4, JPG C8 and DAC CC). */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSizes(b: Buffer): ImageSize[] | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1] as number;
    // Fill bytes, and the markers without a length (TEM, RSTn).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (isStartOfFrame(marker)) return [{ height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) }];
    // Start of scan or end of image before any frame header: no size to be had.
    if (marker === 0xda || marker === 0xd9) return null;
    at += 2 + b.readUInt16BE(at + 2);
  }
  return null;
}

/**
 * A WebP's canvas: the extended format's (VP8X), which every frame of an animation lies within, or
 * the one image's, lossless (VP8L) or lossy (VP8), each after its signature.
 */
function webpSizes(b: Buffer): ImageSize[] | null {
  if (b.length < 30) return null;
  const chunk = b.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X') return [{ width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) }];
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    // After the signature byte 0x2f: 14 bits of width - 1, then 14 of height - 1.
    const bits = b.readUInt32LE(21);
    return [{ width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) }];
  }
  // Lossy: after the frame tag and start code, 14 bits each (the top two are the scale).
  if (chunk === 'VP8 ' && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return [{ width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff }];
  }
  return null;
}

const READERS = { png: pngSizes, jpg: jpegSizes, gif: gifSizes, webp: webpSizes } as const;

const FORMAT_WORDS = { png: 'PNG', jpg: 'JPEG', gif: 'GIF', webp: 'WebP' } as const;

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The size of an image of a known type (its extension in the media store): its canvas. */
export function imageSize(ext: RasterExt, bytes: Uint8Array): ImageSize | null {
  const size = READERS[ext](asBuffer(bytes))?.[0];
  return size && size.width > 0 && size.height > 0 ? size : null;
}

const fits = ({ width, height }: ImageSize) =>
  width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && width * height <= MAX_IMAGE_PIXELS;

/**
 * Why a browser should not be given this image to draw, in words, or null when it may: a header
 * that cannot be read, or a canvas or a frame larger than MAX_IMAGE_SIDE a side or MAX_IMAGE_PIXELS
 * in all. A few kilobytes can announce a picture of gigabytes (a PNG of one colour compresses
 * about a thousand to one), and a browser holds every pixel it draws.
 */
export function decodedSizeProblem(ext: RasterExt, bytes: Uint8Array): string | null {
  const sizes = READERS[ext](asBuffer(bytes));
  const [canvas] = sizes ?? [];
  if (!sizes || !canvas || canvas.width === 0 || canvas.height === 0) {
    return `the image's size cannot be read from its header (a truncated or damaged ${FORMAT_WORDS[ext]})`;
  }
  const index = sizes.findIndex((size) => !fits(size));
  if (index === -1) return null;
  const { width, height } = sizes[index] as ImageSize;
  const what = index === 0 ? 'the image is' : `frame ${index} of the GIF is`;
  const most = Math.sqrt(MAX_IMAGE_PIXELS);
  return (
    `${what} ${width}x${height} pixels: an image may be at most ${MAX_IMAGE_SIDE} pixels a side ` +
    `and ${(MAX_IMAGE_PIXELS / 1e6).toFixed(1)} million pixels in all (${most}x${most}), ` +
    'as a browser holds every pixel it draws'
  );
}
