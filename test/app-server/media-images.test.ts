/**
 * What the media store keeps, over the real servers: a signed-in upload (POST /api/panel/media) and
 * a team logo the server fetches both pass the store's check, so a decompression bomb of each format
 * (a whole 16000x16000 PNG of about 30 KB among them) and an SVG that hides a script from a pattern
 * (a prefixed <s:script>, <s:foreignObject>, an entity-encoded javascript: link) are refused in
 * words, nothing stored; real logos are kept and served.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { netnsSkipReason } from '../helpers/netns.ts';
import { mediaDirOf } from '../../src/persistence/media-store.ts';
import { build, ok, tempDir } from '../helpers/build.ts';
import { panelApi } from '../helpers/hud.ts';
import { blackPng, gifOf, jpegHeader, webpHeader } from '../helpers/images.ts';
import { pngOf, settledLogo, startLogoServer, svgOf } from '../helpers/logos.ts';

const SVG = 'http://www.w3.org/2000/svg';

const BOMBS: Array<[string, Buffer, RegExp]> = [
  [
    'a PNG',
    blackPng(16000, 16000),
    /^the image is 16000x16000 pixels: an image may be at most 8192 pixels a side/,
  ],
  ['a JPEG', jpegHeader(16000, 16000), /^the image is 16000x16000 pixels/],
  ['a WebP', webpHeader(16000, 16000), /^the image is 16000x16000 pixels/],
  ['a GIF', gifOf([16000, 16000], [16000, 16000]), /^the image is 16000x16000 pixels/],
  ['a GIF frame', gifOf([64, 64], [16000, 16000]), /^frame 1 of the GIF is 16000x16000 pixels/],
];

const SCRIPTED: Array<[string, string, RegExp]> = [
  [
    'a prefixed script',
    `<svg xmlns="${SVG}" xmlns:s="${SVG}"><s:script>alert(1)</s:script></svg>`,
    /^the SVG has a <s:script> element/,
  ],
  [
    'a prefixed foreignObject',
    `<svg xmlns="${SVG}" xmlns:s="${SVG}"><s:foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></s:foreignObject></svg>`,
    /^the SVG has a <s:foreignObject> element/,
  ],
  [
    'an entity-encoded javascript: link',
    `<svg xmlns="${SVG}"><use href="&#106;avascript:alert(1)"/></svg>`,
    /^the SVG has a link to "javascript:alert\(1\)"/,
  ],
];

const mediaOf = async (dataDir: string) => (await readdir(mediaDirOf(dataDir)).catch(() => [])).sort();

describe('images the media store refuses, whoever brings them', () => {
  it('an upload: a decompression bomb of each format and each SVG bypass, in the envelope; nothing stored', async () => {
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    const api = await panelApi(server);
    const refusals = [
      ...BOMBS,
      ...SCRIPTED.map(([what, text, message]) => [what, Buffer.from(text), message] as const),
    ];
    for (const [what, bytes, message] of refusals) {
      const answer = await api.upload(bytes);
      expect(answer.status, what).toBe(400);
      expect(answer.body, what).toEqual({
        ok: false,
        error: 'invalid_payload',
        message: expect.stringMatching(message),
      });
    }
    expect(await mediaOf(dataDir)).toEqual([]);

    // Real logos are kept and served.
    for (const logo of [pngOf(128, 0xf2c12e), svgOf('NAVI', '#f2c12e'), blackPng(8192, 2048)]) {
      const answer = await api.upload(logo);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const served = await fetch(`${server.applicationUrl}${answer.body.media.url}`);
      expect(Buffer.from(await served.arrayBuffer()).equals(logo)).toBe(true);
    }
    expect(await mediaOf(dataDir)).toHaveLength(3);
  });

  // The logo server stands on the local network (a network namespace): a logo on this machine is refused.
  it.skipIf(netnsSkipReason())('a fetched team logo: a bomb and a script hidden behind a prefix fail in words; nothing stored', { tags: ['edge'] }, async () => {
    const origin = await startLogoServer({
      '/bomb.png': { type: 'image/png', body: blackPng(16000, 16000) },
      '/frame.gif': { type: 'image/gif', body: gifOf([64, 64], [16000, 16000]) },
      '/scripted.svg': { type: 'image/svg+xml', body: SCRIPTED[0]?.[1] as string },
      '/linked.svg': { type: 'image/svg+xml', body: SCRIPTED[2]?.[1] as string },
      '/navi.svg': { type: 'image/svg+xml', body: svgOf('NAVI', '#f2c12e') },
    });
    const dataDir = await tempDir();
    const server = await build({ dataDir });
    const cases = [
      ['/bomb.png', /^the logo loaded but could not be kept: the image is 16000x16000 pixels: /],
      ['/frame.gif', /^the logo loaded but could not be kept: frame 1 of the GIF is 16000x16000 pixels/],
      ['/scripted.svg', /^the logo loaded but could not be kept: the SVG has a <s:script> element/],
      [
        '/linked.svg',
        /^the logo loaded but could not be kept: the SVG has a link to "javascript:alert\(1\)"/,
      ],
    ] as const;
    for (const [path, reason] of cases) {
      await ok(server, 'set_teams', {
        teamA: { name: 'A', logo: `${origin.url}${path}` },
        teamB: { name: 'B' },
      });
      expect(await settledLogo(server, 'A'), path).toEqual({
        state: 'failed',
        reason: expect.stringMatching(reason),
      });
    }
    expect(await mediaOf(dataDir)).toEqual([]);

    await ok(server, 'set_teams', {
      teamA: { name: 'A', logo: `${origin.url}/navi.svg` },
      teamB: { name: 'B' },
    });
    expect(await settledLogo(server, 'A')).toEqual({
      state: 'stored',
      src: expect.stringMatching(/^\/media\/[0-9a-f]{32}\.svg$/),
    });
  });
});
