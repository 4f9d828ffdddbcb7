/**
 * The pixel size of an uploaded image, read from its header (PNG, JPEG, GIF, WebP): the radar's
 * images must be square, and nothing here decodes the picture itself. Null when the header does not
 * say (a truncated or unusual file).
 */
export interface ImageSize {
  width: number;
  height: number;
}

function pngSize(b: Buffer): ImageSize | null {
  // The first chunk is IHDR: width and height, big-endian, at bytes 16 and 20.
  if (b.length < 24 || b.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gifSize(b: Buffer): ImageSize | null {
  if (b.length < 10) return null;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

/** The start-of-frame markers that carry the size (C0-CF but DHT C4, JPG C8 and DAC CC). */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(b: Buffer): ImageSize | null {
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
    if (isStartOfFrame(marker)) return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    // Start of scan or end of image before any frame header: no size to be had.
    if (marker === 0xda || marker === 0xd9) return null;
    at += 2 + b.readUInt16BE(at + 2);
  }
  return null;
}

function webpSize(b: Buffer): ImageSize | null {
  if (b.length < 30) return null;
  const chunk = b.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    // After the signature byte 0x2f: 14 bits of width - 1, then 14 of height - 1.
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  // Lossy: after the frame tag and start code, 14 bits each (the top two are the scale).
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return null;
}

const READERS = { png: pngSize, jpg: jpegSize, gif: gifSize, webp: webpSize } as const;

/** The size of an image of a known type (its extension in the media store). */
export function imageSize(ext: keyof typeof READERS, bytes: Buffer): ImageSize | null {
  const size = READERS[ext](bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}
