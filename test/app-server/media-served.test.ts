/**
 * What /media/<id> answers, through the server's one static-file path (@fastify/static's sendFile):
 * the store's type and caching, a byte range, HEAD, an SVG's sandbox beside the anti-framing rule,
 * the envelope when the file is gone; and the same with the pages not built.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mediaDirOf } from '../../src/persistence/media-store.ts';
import type { RunningServer } from '../../src/server.ts';
import { build, tempDir } from '../helpers/build.ts';
import { panelApi } from '../helpers/hud.ts';
import { pngOf, svgOf } from '../helpers/logos.ts';

async function uploaded(server: RunningServer, image: Buffer): Promise<string> {
  const answer = await (await panelApi(server)).upload(image);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.media.url as string;
}

describe.each([
  ['built', undefined],
  ['not built', '/nonexistent/pages'],
])('/media/<id> with the pages %s', (_, pagesDir) => {
  it('serves an image whole, in part and as HEAD, with its type and for ever; gone, in the envelope', async () => {
    const dataDir = await tempDir();
    const server = await build({ headless: false, dataDir, ...(pagesDir ? { pagesDir } : {}) });
    const png = pngOf(16, 0x336699);
    const url = `${server.applicationUrl}${await uploaded(server, png)}`;

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(png)).toBe(true);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');

    const part = await fetch(url, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1-3/${png.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(png.subarray(1, 4))).toBe(true);

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(png.length));

    const svg = await fetch(
      `${server.applicationUrl}${await uploaded(server, Buffer.from(svgOf('A', '#fff')))}`,
    );
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toMatch(/sandbox; frame-ancestors 'none'$/);

    const id = new URL(url).pathname.split('/').at(-1) as string;
    await rm(join(mediaDirOf(dataDir), id));
    const gone = await fetch(url);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      ok: false,
      error: 'not_found',
      message: `the file is no longer there: ${id}`,
    });
    const unknown = await fetch(`${server.applicationUrl}/media/${'0'.repeat(32)}.png`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, error: 'not_found' });
  });
});
