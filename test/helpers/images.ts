/**
 * Images whose header announces a picture of a given size, made here: a whole PNG of one colour
 * (deflated, a few kilobytes even at 16000x16000), a GIF with a frame of its own size, and the
 * headers of a JPEG and a WebP (all a decoder reads before it allocates the picture).
 */
import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A whole, valid PNG of `width`x`height` black pixels (one bit each): 16000x16000 is about 30 KB,
 * and 1 GiB once a browser draws it.
 */
export function blackPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // colour type: grey
  // Each row: the filter byte (none) and its bits, all zero.
  const pixels = deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A GIF of one frame: a logical screen of `screen` pixels a side, and a frame of `frame` (a clear
 * code and an end code: no pixel, but a decoder allocates the frame first).
 */
export function gifOf(screen: [number, number], frame: [number, number]): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(screen[0], 6);
  head.writeUInt16LE(screen[1], 8);
  head.writeUInt8(0x80, 10); // a global colour table of 2 entries
  const descriptor = Buffer.alloc(10);
  descriptor.writeUInt8(0x2c, 0);
  descriptor.writeUInt16LE(frame[0], 5);
  descriptor.writeUInt16LE(frame[1], 7);
  return Buffer.concat([
    head,
    Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]),
    // A graphic control extension, as an animation has before each frame.
    Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]),
    descriptor,
    // LZW code size 2, one sub-block: clear (4) then end (5), three bits each.
    Buffer.from([0x02, 0x01, 0x2c, 0x00]),
    Buffer.from([0x3b]),
  ]);
}

/** A JPEG's start and its frame header (SOF0) of `width`x`height`. */
export function jpegHeader(width: number, height: number): Buffer {
  return Buffer.concat([
    Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
    Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff]),
    Buffer.from([3, 0x01, 0x22, 0, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xd9]),
  ]);
}

/** A WebP's extended header (VP8X) with a canvas of `width`x`height`. */
export function webpHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}
