/**
 * What the media store keeps (MediaStore.store, where uploads and fetched team logos both pass):
 * a raster image whose header announces a picture a browser can hold, and an SVG a conforming XML
 * parser finds nothing in that could run or load. The bypasses of the old pattern filter (a prefixed
 * <s:script>, <s:foreignObject>, an entity-encoded javascript: link) and decompression bombs of
 * each format are refused in words, nothing written; real logos are kept. Property tests (fast-check)
 * for the SVG check: any spelling of a script or a javascript: link is refused, a drawing of SVG's
 * own elements kept, any text answered in words without a throw.
 */
import { readdir } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedSizeProblem, imageSize } from '../../src/persistence/image-size.ts';
import { MediaStore, mediaDirOf } from '../../src/persistence/media-store.ts';
import { svgProblem } from '../../src/persistence/svg-check.ts';
import { imageTypeOf, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '../../src/protocol/media.ts';
import { tempDir } from '../helpers/build.ts';
import { blackPng, gifOf, jpegHeader, webpHeader } from '../helpers/images.ts';
import { pngOf, svgOf } from '../helpers/logos.ts';

const SVG = 'http://www.w3.org/2000/svg';
const XLINK = 'http://www.w3.org/1999/xlink';
const svg = (body: string, attributes = '') =>
  Buffer.from(`<svg xmlns="${SVG}" xmlns:xlink="${XLINK}" viewBox="0 0 64 64"${attributes}>${body}</svg>`);
const dataUrl = (bytes: Buffer, type = 'png') => `data:image/${type};base64,${bytes.toString('base64')}`;

/** A media store on a folder of its own, and what the folder holds. */
async function openStore() {
  const dataDir = await tempDir();
  const store = await MediaStore.open(dataDir, {
    quota: { bytes: 64 * 1024 * 1024, count: 100 },
    graceMs: 0,
    inUse: () => null,
  });
  const files = async () => (await readdir(mediaDirOf(dataDir)).catch(() => [])).sort();
  return { store, files };
}

/** What the store answers for `bytes`, typed by their first bytes as the upload and the logo fetch do. */
async function storing(store: MediaStore, bytes: Buffer) {
  const type = imageTypeOf(bytes);
  if (!type) throw new Error('not an image by its first bytes');
  return store.store(bytes, type).then(
    (id) => ({ id }),
    (error: { code: string; message: string }) => ({ error: error.code, message: error.message }),
  );
}

const BYPASSES: Array<[string, Buffer, RegExp]> = [
  [
    'a prefixed script',
    Buffer.from(`<svg xmlns="${SVG}" xmlns:s="${SVG}"><s:script>alert(document.domain)</s:script></svg>`),
    /the SVG has a <s:script> element, which is not one of SVG's drawing elements/,
  ],
  [
    'a prefixed foreignObject',
    Buffer.from(
      `<svg xmlns="${SVG}" xmlns:s="${SVG}"><s:foreignObject width="64" height="64">` +
        '<iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(1)"/></s:foreignObject></svg>',
    ),
    /the SVG has a <s:foreignObject> element/,
  ],
  [
    'an entity-encoded javascript: link',
    svg('<image width="64" height="64" xlink:href="&#106;avascript:alert(1)"/>'),
    /the SVG has a link to "javascript:alert\(1\)": a link may only point within the SVG/,
  ],
];

describe('SVG checked by a parser (MediaStore.store)', () => {
  it('refuses each bypass of the pattern filter in words and writes nothing', async () => {
    const { store, files } = await openStore();
    for (const [what, bytes, message] of BYPASSES) {
      expect(await storing(store, bytes), what).toEqual({
        error: 'invalid_payload',
        message: expect.stringMatching(message),
      });
    }
    expect(await files()).toEqual([]);
  });

  it.each<[string, Buffer, RegExp]>([
    ['a script', svg('<script>alert(1)</script>'), /<script> element/],
    [
      'HTML',
      svg(`<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>`),
      /<h:script> element of the namespace "http:\/\/www.w3.org\/1999\/xhtml"/,
    ],
    ['a link', svg('<a href="https://example.org"><circle r="3"/></a>'), /<a> element/],
    ['a handler', svg('<circle r="3"/>', ' onload="alert(1)"'), /an event handler \(onload on <svg>\)/],
    [
      'a handler, any case',
      svg('<circle r="3" ONCLICK="alert(1)"/>'),
      /an event handler \(ONCLICK on <circle>\)/,
    ],
    ['a link with a tab', svg('<use href="java&#9;script:alert(1)"/>'), /a link to "javascript:alert\(1\)"/],
    [
      'a hex reference',
      svg('<use xlink:href="&#x6A;avascript:alert(1)"/>'),
      /a link to "javascript:alert\(1\)"/,
    ],
    [
      'a remote image',
      svg('<image href="https://example.org/a.png"/>'),
      /a link to "https:\/\/example.org\/a.png"/,
    ],
    [
      'an embedded SVG',
      svg(`<image href="${dataUrl(svg(''), 'svg+xml')}"/>`),
      /a link to "data:image\/svg\+xml/,
    ],
    [
      'an animated link',
      svg('<set attributeName="xlink:href" to="javascript:alert(1)"/>'),
      /an animation of "xlink:href"/,
    ],
    [
      'an animated handler',
      svg('<animate attributeName="onbegin" values="alert(1)"/>'),
      /an animation of "onbegin"/,
    ],
    [
      'a remote style',
      svg('<style>.a{fill:url(https://example.org/x.svg#g)}</style>'),
      /a style with a link to "https/,
    ],
    [
      'an escaped style',
      svg('<style>.a{fill:\\75 rl(https://example.org/x)}</style>'),
      /a style with a backslash escape/,
    ],
    ['an imported style', svg('<style><![CDATA[@import "https://example.org/x.css";]]></style>'), /@import/],
    [
      'a remote fill',
      svg('<rect width="9" height="9" fill="URL( \'https://example.org/x#g\' )"/>'),
      /a style with a link/,
    ],
    [
      'an entity',
      Buffer.from(`<!DOCTYPE svg [<!ENTITY j "javascript:">]><svg xmlns="${SVG}"><use href="&j;x"/></svg>`),
      /a document type other than SVG 1.1's/,
    ],
    ['an undeclared entity', svg('<use href="&nbsp;"/>'), /is not well-formed XML \(.*undefined entity\)/],
    [
      'a style sheet instruction',
      Buffer.from(`<?xml-stylesheet type="text/xsl" href="x.xsl"?><svg xmlns="${SVG}"/>`),
      /processing instruction <\?xml-stylesheet\?>/,
    ],
    [
      'another encoding',
      Buffer.from(`<?xml version="1.0" encoding="UTF-7"?><svg xmlns="${SVG}"/>`),
      /declares the encoding "UTF-7"/,
    ],
    [
      'not UTF-8',
      Buffer.concat([svg('<title>'), Buffer.from([0xff, 0xfe]), Buffer.from('</title>')]),
      /not UTF-8 text/,
    ],
    [
      'no SVG namespace',
      Buffer.from('<svg><script>alert(1)</script></svg>'),
      /its root is <svg>, not <svg xmlns=/,
    ],
    ['two roots', Buffer.from(`<svg xmlns="${SVG}"/><svg xmlns="${SVG}"/>`), /not well-formed XML/],
    [
      'an embedded bomb',
      svg(`<image width="9" height="9" href="${dataUrl(blackPng(16000, 16000))}"/>`),
      /an embedded image: the image is 16000x16000 pixels/,
    ],
  ])('refuses %s', async (_what, bytes, message) => {
    expect(imageTypeOf(bytes)?.ext).toBe('svg');
    expect(await svgProblem(bytes)).toMatch(message);
  });

  it("keeps real logos: plain, with an editor's data, a doctype, styles, gradients and an embedded PNG", async () => {
    const { store, files } = await openStore();
    const logos = [
      svgOf('TL', '#0a2240'),
      // As Inkscape saves: its own namespaces, RDF metadata, a named view.
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg width="64" height="64" viewBox="0 0 64 64" version="1.1" id="svg5"
   inkscape:version="1.2" sodipodi:docname="logo.svg"
   xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
   xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
   xmlns="http://www.w3.org/2000/svg" xmlns:svg="http://www.w3.org/2000/svg"
   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:cc="http://creativecommons.org/ns#"
   xmlns:dc="http://purl.org/dc/elements/1.1/">
  <sodipodi:namedview id="namedview7" pagecolor="#ffffff" inkscape:zoom="2"/>
  <metadata><rdf:RDF><cc:Work rdf:about=""><dc:title>Team</dc:title></cc:Work></rdf:RDF></metadata>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer"><svg:path style="fill:#d7263d;stroke:none" d="M 0,0 H 64 V 64 Z"/></g>
</svg>`,
      ),
      // As Illustrator exports for the web: SVG 1.1's doctype, a style sheet, a gradient by fragment.
      Buffer.from(
        `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg version="1.1" id="Layer_1" xmlns="${SVG}" xmlns:xlink="${XLINK}" x="0px" y="0px" viewBox="0 0 64 64" xml:space="preserve">
<style type="text/css"><![CDATA[.st0{fill:url(#SVGID_1_);} .st1{fill:#FFFFFF; font-family:'Barlow', sans-serif;}]]></style>
<linearGradient id="SVGID_1_" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="64" y2="64"><stop offset="0" style="stop-color:#F2C12E"/><stop offset="1" style="stop-color:#000"/></linearGradient>
<circle class="st0" cx="32" cy="32" r="30"/><use xlink:href="#txt" x="1"/><text id="txt" class="st1" x="10" y="40">NAVI</text>
<filter id="f"><feGaussianBlur stdDeviation="2"/></filter>
<animateTransform attributeName="transform" type="rotate" from="0 32 32" to="360 32 32" dur="4s"/>
</svg>`,
      ),
      svg(
        `<image width="16" height="16" href="${dataUrl(pngOf(16, 0x2f7de1))}"/><use href="#a"/><use href=""/>`,
      ),
    ];
    const ids: string[] = [];
    for (const logo of logos) {
      const answer = await storing(store, logo);
      expect(answer, logo.toString().slice(0, 200)).toEqual({ id: expect.stringMatching(/\.svg$/) });
      ids.push((answer as { id: string }).id);
    }
    expect(await files()).toEqual(ids.sort());
  });

  it('refuses any spelling of a script element or a javascript: link (fast-check)', async () => {
    // Each character of the link as itself, a decimal or a hexadecimal reference; white space a
    // browser drops around and inside it.
    const spelled = (text: string) =>
      fc
        .array(fc.constantFrom('plain', 'dec', 'hex', 'HEX'), {
          minLength: text.length,
          maxLength: text.length,
        })
        .map((ways) =>
          [...text]
            .map((c, i) => {
              const code = c.codePointAt(0) as number;
              if (ways[i] === 'dec') return `&#${code};`;
              if (ways[i] === 'hex') return `&#x${code.toString(16)};`;
              if (ways[i] === 'HEX') return `&#x${code.toString(16).toUpperCase()};`;
              return c;
            })
            .join(''),
        );
    const link = fc
      .tuple(
        fc.constantFrom('', ' ', '\t', '&#10;', '&#x20;'),
        fc.constantFrom('javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'vbscript:x'),
        fc.constantFrom('href', 'xlink:href'),
        fc.constantFrom('use', 'image', 'feImage', 'textPath', 'pattern', 'linearGradient'),
      )
      .chain(([lead, target, attribute, element]) =>
        spelled(target).map((text) => svg(`<${element} ${attribute}="${lead}${text}"/>`)),
      );
    const prefix = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/).filter((p) => !p.startsWith('xml'));
    const element = fc
      .tuple(prefix, fc.constantFrom('script', 'foreignObject', 'iframe', 'a', 'handler'), fc.boolean())
      .map(([p, name, nested]) => {
        const body =
          name === 'handler'
            ? `<${p}:circle r="3" onmouseover="alert(1)"/>`
            : `<${p}:${name}>alert(1)</${p}:${name}>`;
        return Buffer.from(
          `<svg xmlns="${SVG}" xmlns:${p}="${SVG}">${nested ? `<g><defs>${body}</defs></g>` : body}</svg>`,
        );
      });
    await fc.assert(
      fc.asyncProperty(fc.oneof(link, element), async (bytes) => {
        expect(await svgProblem(bytes), bytes.toString()).toMatch(/^the SVG has /);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a drawing of SVG's own elements, and answers any text in words without a throw (fast-check)", async () => {
    const colour = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, '0')}`);
    const n = fc.integer({ min: 0, max: 64 });
    const shape = fc.oneof(
      fc.tuple(n, n, n, colour).map(([x, y, r, c]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${c}"/>`),
      fc.tuple(n, n, n, n).map(([a, b, c, d]) => `<path d="M${a} ${b}L${c} ${d}Z" fill="url(#g)"/>`),
      fc
        .tuple(n, n, fc.stringMatching(/^[A-Za-z0-9 ]{1,8}$/))
        .map(([x, y, t]) => `<text x="${x}" y="${y}">${t}</text>`),
      fc.tuple(n, n).map(([x, y]) => `<use href="#g" x="${x}" y="${y}"/>`),
    );
    const drawing = fc
      .tuple(fc.array(shape, { maxLength: 12 }), colour, fc.boolean())
      .map(([shapes, c, styled]) =>
        svg(
          `<defs><linearGradient id="g"><stop offset="0" stop-color="${c}"/></linearGradient></defs>` +
            (styled ? `<style>.a{fill:url(#g);stroke:${c}}</style>` : '') +
            `<g class="a">${shapes.join('')}</g>`,
        ),
      );
    await fc.assert(
      fc.asyncProperty(drawing, async (bytes) => {
        expect(await svgProblem(bytes), bytes.toString()).toBeNull();
      }),
      { numRuns: 200 },
    );
    // Any text, and a real logo with a slice of it replaced: null or a reason, never a throw.
    const logo = svgOf('TL', '#000').toString();
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc
        .tuple(
          fc.nat({ max: logo.length }),
          fc.nat({ max: 40 }),
          fc.string({ unit: 'binary', maxLength: 40 }),
        )
        .map(([at, cut, put]) => logo.slice(0, at) + put + logo.slice(at + cut)),
    );
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        const problem = await svgProblem(Buffer.from(t));
        expect(problem === null || /^the SVG /.test(problem)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('images checked for their decoded size (MediaStore.store)', () => {
  const bound = new RegExp(
    `an image may be at most ${MAX_IMAGE_SIDE} pixels a side and 16.8 million pixels in all \\(4096x4096\\)`,
  );
  const BOMBS: Array<[string, Buffer, RegExp]> = [
    ['a whole PNG of 16000x16000', blackPng(16000, 16000), /^the image is 16000x16000 pixels: /],
    ['a JPEG of 16000x16000', jpegHeader(16000, 16000), /^the image is 16000x16000 pixels: /],
    ['a WebP of 16000x16000', webpHeader(16000, 16000), /^the image is 16000x16000 pixels: /],
    ['a GIF of 16000x16000', gifOf([16000, 16000], [16, 16]), /^the image is 16000x16000 pixels: /],
    [
      'a small GIF with a 16000x16000 frame',
      gifOf([16, 16], [16000, 16000]),
      /^frame 1 of the GIF is 16000x16000 pixels: /,
    ],
    ['too wide', jpegHeader(MAX_IMAGE_SIDE + 1, 1), /^the image is 8193x1 pixels: /],
    ['too many pixels', webpHeader(4097, 4096), /^the image is 4097x4096 pixels: /],
  ];

  it('refuses a decompression bomb of each format in words and writes nothing', async () => {
    const { store, files } = await openStore();
    expect(blackPng(16000, 16000).length).toBeLessThan(64 * 1024);
    for (const [what, bytes, message] of BOMBS) {
      const answer = await storing(store, bytes);
      expect(answer, what).toEqual({ error: 'invalid_payload', message: expect.stringMatching(message) });
      expect((answer as { message: string }).message, what).toMatch(bound);
    }
    expect(await files()).toEqual([]);
  });

  it('refuses an image whose header cannot be read', async () => {
    const { store } = await openStore();
    const unreadable: Array<[string, Buffer, string]> = [
      ['a PNG without IHDR', Buffer.from('89504e470d0a1a0a0000000000000000', 'hex'), 'PNG'],
      ['a JPEG without a frame header', Buffer.from('ffd8ffd9000000000000', 'hex'), 'JPEG'],
      ['a GIF cut short', Buffer.from('GIF89a\x10', 'latin1'), 'GIF'],
      [
        'a GIF with an unknown block',
        Buffer.concat([gifOf([16, 16], [16, 16]).subarray(0, 19), Buffer.from([0x99])]),
        'GIF',
      ],
      ['a WebP without its canvas', Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'), 'WebP'],
      ['a PNG of no pixels', pngOf(0, 0), 'PNG'],
    ];
    for (const [what, bytes, format] of unreadable) {
      expect(await storing(store, bytes), what).toEqual({
        error: 'invalid_payload',
        message: `the image's size cannot be read from its header (a truncated or damaged ${format})`,
      });
    }
  });

  it('keeps images up to the bounds, animations included', async () => {
    const { store, files } = await openStore();
    const kept = [
      pngOf(64, 0xf2c12e),
      blackPng(MAX_IMAGE_SIDE, MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE),
      jpegHeader(4096, 4096),
      webpHeader(1920, 1080),
      gifOf([300, 100], [300, 100]),
      // The GIF's screen alone, as the radar's tests write it: no frame to draw.
      gifOf([300, 300], [300, 300]).subarray(0, 13),
    ];
    for (const bytes of kept) expect(await storing(store, bytes)).toEqual({ id: expect.any(String) });
    expect(await files()).toHaveLength(kept.length);
  });

  it('reads the canvas and every frame of a GIF, and never throws on any bytes (fast-check)', () => {
    expect(imageSize('gif', gifOf([16, 16], [16000, 16000]))).toEqual({ width: 16, height: 16 });
    expect(decodedSizeProblem('gif', gifOf([16, 16], [16, 16]))).toBeNull();
    const magic = fc.constantFrom(
      ['png', Buffer.from('89504e470d0a1a0a', 'hex')] as const,
      ['jpg', Buffer.from('ffd8ff', 'hex')] as const,
      ['gif', Buffer.from('GIF89a', 'latin1')] as const,
      ['webp', Buffer.from('RIFF\0\0\0\0WEBP', 'latin1')] as const,
    );
    fc.assert(
      fc.property(magic, fc.uint8Array({ maxLength: 512 }), ([ext, start], rest) => {
        const problem = decodedSizeProblem(ext, Buffer.concat([start, rest]));
        return problem === null || /^(the image|frame \d+ of the GIF)/.test(problem);
      }),
      { numRuns: 3000 },
    );
  });
});
