/**
 * The radar's images over the real application server: POST /api/panel/media/radar takes a square
 * image of the four types (its size read from the header) and refuses everything else in the
 * envelope, never a 500; the branding's radarImages keeps them per map. The header reader on any
 * bytes (fast-check) answers a size or nothing, never throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageSize } from '../../src/persistence/image-size.ts';
import type { RunningServer } from '../../src/server.ts';
import { build } from '../helpers/build.ts';
import { panelApi } from '../helpers/hud.ts';
import { webpHeader } from '../helpers/images.ts';

const RADAR = '/api/panel/media/radar';

/** Image headers as each format writes them (the route reads no further than the size). */
const HEADERS = {
  png: (w: number, h: number) => {
    const b = Buffer.alloc(33);
    Buffer.from('89504e470d0a1a0a', 'hex').copy(b, 0);
    b.writeUInt32BE(13, 8);
    b.write('IHDR', 12, 'latin1');
    b.writeUInt32BE(w, 16);
    b.writeUInt32BE(h, 20);
    b.set([8, 6, 0, 0, 0], 24);
    return b;
  },
  jpg: (w: number, h: number) =>
    Buffer.concat([
      Buffer.from('ffd8', 'hex'),
      // APP0 (JFIF), 16 bytes long, then a frame header SOF0 with height and width.
      Buffer.from('ffe000104a46494600010100000100010000', 'hex'),
      Buffer.from([
        0xff,
        0xc0,
        0x00,
        0x11,
        0x08,
        h >> 8,
        h & 0xff,
        w >> 8,
        w & 0xff,
        3,
        1,
        0x22,
        0,
        2,
        0x11,
        1,
      ]),
      Buffer.from([3, 0x11, 1, 0xff, 0xd9]),
    ]),
  gif: (w: number, h: number) => {
    const b = Buffer.alloc(13);
    b.write('GIF89a', 0, 'latin1');
    b.writeUInt16LE(w, 6);
    b.writeUInt16LE(h, 8);
    return b;
  },
  webpVp8x: webpHeader,
  webpVp8l: (w: number, h: number) => {
    const b = Buffer.alloc(30);
    b.write('RIFF', 0, 'latin1');
    b.writeUInt32LE(22, 4);
    b.write('WEBPVP8L', 8, 'latin1');
    b.writeUInt32LE(10, 16);
    b[20] = 0x2f;
    b.writeUInt32LE((w - 1) | ((h - 1) << 14), 21);
    return b;
  },
  webpVp8: (w: number, h: number) => {
    const b = Buffer.alloc(30);
    b.write('RIFF', 0, 'latin1');
    b.writeUInt32LE(22, 4);
    b.write('WEBPVP8 ', 8, 'latin1');
    b.writeUInt32LE(10, 16);
    b.set([0x9d, 0x01, 0x2a], 23);
    b.writeUInt16LE(w, 26);
    b.writeUInt16LE(h, 28);
    return b;
  },
} as const;

async function signedIn(server: RunningServer) {
  const { cookie } = await panelApi(server);
  return async (body: unknown, path = RADAR) => {
    const response = await fetch(`${server.applicationUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
}

const upload = (bytes: Buffer) => ({ data: bytes.toString('base64') });

describe('radar images (POST /api/panel/media/radar)', () => {
  it('takes a square image of each type, named by its content, served at its address', async () => {
    const server = await build();
    const post = await signedIn(server);
    const cases = [
      ['png', HEADERS.png(1024, 1024), 1024],
      // The largest: the media store's bound in pixels holds it (MAX_IMAGE_PIXELS).
      ['png', HEADERS.png(4096, 4096), 4096],
      ['jpg', HEADERS.jpg(512, 512), 512],
      ['gif', HEADERS.gif(300, 300), 300],
      ['webp', HEADERS.webpVp8x(2048, 2048), 2048],
      ['webp', HEADERS.webpVp8l(1024, 1024), 1024],
      ['webp', HEADERS.webpVp8(640, 640), 640],
    ] as const;
    for (const [ext, bytes, side] of cases) {
      const answer = await post(upload(bytes));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.media).toMatchObject({ width: side, height: side });
      expect(answer.body.media.id).toMatch(new RegExp(`^[0-9a-f]{32}\\.${ext}$`));
      const served = await fetch(`${server.applicationUrl}${answer.body.media.url}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
      // The same image twice is the same file.
      expect((await post(upload(bytes))).body.media.id).toBe(answer.body.media.id);
    }
  });

  it('refuses what it cannot draw, in the envelope with the reason', async () => {
    const server = await build();
    const post = await signedIn(server);
    const refusals: Array<[string, unknown, RegExp]> = [
      ['wider than high', upload(HEADERS.png(1024, 512)), /must be square.*1024x512/],
      ['a non-square JPEG', upload(HEADERS.jpg(640, 480)), /must be square.*640x480/],
      ['too small', upload(HEADERS.gif(128, 128)), /256 to 4096 pixels a side; this one is 128/],
      ['too large', upload(HEADERS.webpVp8x(8192, 8192)), /256 to 4096 pixels a side; this one is 8192/],
      [
        'not an image',
        upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
        /not a PNG, JPEG, WebP or GIF/,
      ],
      ['a PNG without its header', upload(Buffer.from('89504e470d0a1a0a0000', 'hex')), /size cannot be read/],
      ['empty', { data: '' }, /empty/],
      ['a field of its own', { ...upload(HEADERS.png(512, 512)), map: 'de_dust2' }, /map/],
      ['no data', {}, /data/],
      [
        'over 4 MiB',
        upload(Buffer.concat([HEADERS.png(1024, 1024), Buffer.alloc(4 * 1024 * 1024)])),
        /over 4 MiB/,
      ],
    ];
    for (const [what, body, message] of refusals) {
      const answer = await post(body);
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toMatchObject({ ok: false, error: 'invalid_payload' });
      expect(answer.body.message, what).toMatch(message);
    }
    // Not JSON, and a body beyond the route's bound: the envelope too.
    const broken = await post('{"data":');
    expect(broken.status).toBe(400);
    expect(broken.body.ok).toBe(false);
    const huge = await post({ data: 'A'.repeat(6 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ ok: false, error: 'payload_too_large' });
  });

  it('is for a signed-in operator only', async () => {
    const server = await build();
    const response = await fetch(`${server.applicationUrl}${RADAR}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(upload(HEADERS.png(1024, 1024))),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ ok: false, error: 'unauthorized' });
  });

  it('keeps the images per map with the branding, and refuses a map or image that cannot be one', async () => {
    const server = await build();
    const post = await signedIn(server);
    const image = (await post(upload(HEADERS.png(1024, 1024)))).body.media.id as string;
    const settings = (change: unknown) => post(change, '/api/panel/settings');
    const saved = await settings({ branding: { radarImages: { de_nuke: { image, lower: image } } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.settings.branding.radarImages).toEqual({ de_nuke: { image, lower: image } });
    for (const radarImages of [
      { 'Dust 2': { image } },
      { de_dust2: { image: 'https://example.com/radar.png' } },
      { de_dust2: { image, upper: image } },
      { de_dust2: image },
    ]) {
      const refused = await settings({ branding: { radarImages } });
      expect(refused.status, JSON.stringify(radarImages)).toBe(400);
      expect(refused.body).toMatchObject({ ok: false, error: 'invalid_payload' });
    }
    // The other branding stays as it was when the radar images change, and the other way round.
    await settings({ branding: { eventLogo: image } });
    const after = await settings({ branding: { radarImages: {} } });
    expect(after.body.settings.branding).toMatchObject({ eventLogo: image, radarImages: {} });
  });
});

describe('the image header reader', () => {
  it('reads the size of each format', () => {
    expect(imageSize('png', HEADERS.png(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageSize('jpg', HEADERS.jpg(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageSize('gif', HEADERS.gif(300, 200))).toEqual({ width: 300, height: 200 });
    expect(imageSize('webp', HEADERS.webpVp8x(2048, 1024))).toEqual({ width: 2048, height: 1024 });
    expect(imageSize('webp', HEADERS.webpVp8l(1000, 999))).toEqual({ width: 1000, height: 999 });
    expect(imageSize('webp', HEADERS.webpVp8(640, 360))).toEqual({ width: 640, height: 360 });
  });

  it('answers a size or nothing for any bytes after any magic, never throws', () => {
    const magic = fc.constantFrom(
      Buffer.from('89504e470d0a1a0a', 'hex'),
      Buffer.from('ffd8ff', 'hex'),
      Buffer.from('GIF89a', 'latin1'),
      Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'),
    );
    const ext = fc.constantFrom('png', 'jpg', 'gif', 'webp') as fc.Arbitrary<'png' | 'jpg' | 'gif' | 'webp'>;
    fc.assert(
      fc.property(magic, fc.uint8Array({ maxLength: 256 }), ext, (start, rest, type) => {
        const size = imageSize(type, Buffer.concat([start, rest]));
        if (size === null) return true;
        return (
          Number.isInteger(size.width) && size.width > 0 && Number.isInteger(size.height) && size.height > 0
        );
      }),
      { numRuns: 2000 },
    );
  });
});
