/**
 * Whether an SVG may be kept in the media store: read by a conforming XML parser with namespaces
 * resolved (saxes), as a browser reads it, so a prefix, an entity or a character reference changes
 * nothing of what is checked. A logo keeps to SVG's drawing elements; nothing in it may run a script,
 * load a document, or name anything outside itself but an embedded raster image, itself checked
 * like an upload (docs/application.md, "Media"). The served file's sandbox policy stays the second
 * line (src/app-server/media.plugin.ts).
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { IMAGE_TYPES } from '../protocol/media.ts';
import { decodedSizeProblem, type RasterExt } from './image-size.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/**
 * SVG's drawing elements: shapes, text, paint servers, clipping and masking, filters, the
 * declarative animations, styles. Not script, foreignObject (HTML inside), a (a link), nor the
 * elements that load a font, a cursor or a colour profile from elsewhere.
 */
// biome-ignore format: one group a line reads better than one name a line
const SVG_ELEMENTS = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'switch', 'view', 'title', 'desc', 'metadata', 'style',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'image',
  'text', 'tspan', 'textPath',
  'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'marker',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix',
  'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA',
  'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feImage', 'feMerge', 'feMergeNode',
  'feMorphology', 'feOffset', 'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile',
  'feTurbulence',
  'animate', 'animateMotion', 'animateTransform', 'mpath', 'set',
]);

/**
 * The namespaces of an editor's own data (Inkscape, Sodipodi, Illustrator, Sketch, Affinity, and the
 * RDF metadata they write): a browser draws and runs nothing of them, and an exported logo often
 * keeps them. Any other namespace, HTML's first, is refused.
 */
const EDITOR_NAMESPACES = new Set([
  'http://www.inkscape.org/namespaces/inkscape',
  'http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://purl.org/dc/elements/1.1/',
  'http://creativecommons.org/ns#',
  'http://web.resource.org/cc/',
  'adobe:ns:meta/',
  'http://ns.adobe.com/AdobeIllustrator/10.0/',
  'http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/',
  'http://ns.adobe.com/Extensibility/1.0/',
  'http://ns.adobe.com/Flows/1.0/',
  'http://ns.adobe.com/Graphs/1.0/',
  'http://ns.adobe.com/ImageReplacement/1.0/',
  'http://ns.adobe.com/SaveForWeb/1.0/',
  'http://ns.adobe.com/Variables/1.0/',
  'http://www.bohemiancoding.com/sketch/ns',
  'http://www.serif.com/',
]);

/** The declared encodings whose bytes are ASCII's wherever UTF-8's are: a browser reads the same markup. */
const ASCII_COMPATIBLE = new Set([
  'utf-8',
  'utf8',
  'us-ascii',
  'ascii',
  'iso-8859-1',
  'latin1',
  'windows-1252',
]);

/**
 * An SVG's document type as editors write it: `<!DOCTYPE svg>` or SVG 1.0 and 1.1's public one, whose
 * DTD a browser never loads. One with a subset of its own (`[…]`) declares entities, which are refused.
 */
const SVG_DOCTYPE = /^\s+svg(?:\s+PUBLIC\s+(["'])-\/\/W3C\/\/DTD SVG [^"']*\1\s+(["'])[^"']*\2)?\s*$/;

/** The embedded images a link or a style may hold: base64 (percent-encoding would read differently here). */
const EMBEDDED_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]*={0,2})$/i;

/** A name or a value of the SVG shortened for a message: it is remote text, shown to every client. */
const cut = (text: string, most = 40) => (text.length > most ? `${text.slice(0, most)}…` : text);
const quoted = (text: string) => JSON.stringify(cut(text, 60));

/** What a link may be: an element of the SVG (`#id`), an embedded raster image, or empty (the SVG itself). */
function linkProblem(value: string): string | null {
  // As a browser parses an address: tabs and line breaks anywhere and spaces at the ends are dropped
  // (XML allows no other control character, not even as a reference), and base64 ignores white space.
  const url = value.replace(/[\t\n\r]/g, '').replace(/^ +| +$/g, '');
  if (url === '' || url.startsWith('#')) return null;
  const embedded = EMBEDDED_IMAGE.exec(url.replace(/[\f ]/g, ''));
  if (!embedded) {
    return (
      `a link to ${quoted(url)}: a link may only point within the SVG (#id) ` +
      'or hold an embedded PNG, JPEG, GIF or WebP image (data:image/…;base64)'
    );
  }
  const bytes = Buffer.from(embedded[2] as string, 'base64');
  const type = IMAGE_TYPES.find((image) => image.ext !== 'svg' && image.is(bytes));
  if (!type) return 'an embedded image that is not a PNG, JPEG, GIF or WebP image';
  const problem = decodedSizeProblem(type.ext as RasterExt, bytes);
  return problem && `an embedded image: ${problem}`;
}

/**
 * What a style may name: only elements of the SVG and embedded images (`url(#id)`, `url(data:…)`);
 * no other style sheet. A backslash escape could spell `url(` otherwise, and a logo needs none.
 */
function styleProblem(css: string): string | null {
  if (css.includes('\\')) return 'a style with a backslash escape';
  if (/@import/i.test(css)) return 'a style that imports another style sheet (@import)';
  const [, ...calls] = css.split(/url\(/i);
  for (const call of calls) {
    const read = /^\s*(?:"([^"]*)"|'([^']*)'|([^"'()\s]*))\s*\)/.exec(call);
    if (!read) return 'a style with a url() it cannot read';
    const problem = linkProblem(read[1] ?? read[2] ?? read[3] ?? '');
    if (problem) return `a style with ${problem}`;
  }
  return null;
}

/** What an SVG element's attributes hold that may not be kept: a handler, a link or a style as above. */
function attributesProblem(tag: SaxesTagNS): string | null {
  for (const { local, uri, value, name } of Object.values(tag.attributes)) {
    if (uri === XMLNS_NS || EDITOR_NAMESPACES.has(uri)) continue;
    if (/^on/i.test(local)) return `an event handler (${cut(name)} on <${cut(tag.name)}>)`;
    if (local === 'href') {
      const problem = linkProblem(value);
      if (problem) return problem;
    } else if (local === 'attributeName') {
      // Animating a link or a handler would set what the rules here refuse.
      if (/^(?:[^:]*:)?(?:href$|on)/i.test(value.trim())) return `an animation of ${quoted(value)}`;
    } else {
      // Presentation attributes and style are CSS: fill="url(…)", style="…".
      const problem = styleProblem(value);
      if (problem) return problem;
    }
  }
  return null;
}

/** What an element is that may not be kept, by its resolved namespace and local name (never its prefix). */
function elementProblem(tag: SaxesTagNS): string | null {
  if (tag.uri === SVG_NS) {
    if (!SVG_ELEMENTS.has(tag.local))
      return `a <${cut(tag.name)}> element, which is not one of SVG's drawing elements`;
    return attributesProblem(tag);
  }
  if (EDITOR_NAMESPACES.has(tag.uri)) return null;
  return `a <${cut(tag.name)}> element of ${tag.uri === '' ? 'no namespace' : `the namespace ${quoted(tag.uri)}`}`;
}

/** Ends the parse with the reason: thrown from the parser's handlers, caught once below. */
class Refused extends Error {}

/** How much of the text is parsed at a time (a few milliseconds): the event loop turns between slices. */
const SLICE = 64 * 1024;

/**
 * Why an SVG may not be kept, in words ("the SVG has a <s:script> element, …"), or null when it may.
 * Never rejects: a document the parser cannot read is refused as such. A large drawing is read in
 * slices, so the game's frames and the other requests wait for one slice at most, not for 2 MiB.
 */
export async function svgProblem(bytes: Uint8Array): Promise<string | null> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'the SVG is not UTF-8 text';
  }
  const refuse = (problem: string | null) => {
    if (problem) throw new Refused(`the SVG ${problem}`);
  };
  const isStyle = (tag: SaxesTagNS) => tag.uri === SVG_NS && tag.local === 'style';
  let root = true;
  // A style's text, whole: the parser may hand it over in pieces (a slice, a CDATA section).
  let style: string | null = null;
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (error) => refuse(`is not well-formed XML (${error.message.replace(/\.$/, '')})`));
  parser.on('xmldecl', ({ encoding }) => {
    if (encoding !== undefined && !ASCII_COMPATIBLE.has(encoding.toLowerCase())) {
      refuse(`declares the encoding ${quoted(encoding)}; it must be UTF-8`);
    }
  });
  parser.on('doctype', (doctype) => {
    if (!SVG_DOCTYPE.test(doctype)) refuse("has a document type other than SVG 1.1's (no entities)");
  });
  parser.on('processinginstruction', ({ target }) =>
    refuse(`has a processing instruction <?${cut(target)}?>, which could apply a style sheet or transform`),
  );
  parser.on('opentag', (tag) => {
    if (root && !(tag.uri === SVG_NS && tag.local === 'svg')) {
      refuse(
        `is not one: its root is <${cut(tag.name)}>, not <svg xmlns="${SVG_NS}"> (a browser draws nothing)`,
      );
    }
    root = false;
    const problem = elementProblem(tag);
    if (problem) refuse(`has ${problem}`);
    // Only drawing elements were let through: a style holds text alone.
    if (isStyle(tag)) style = '';
  });
  parser.on('closetag', (tag) => {
    if (!isStyle(tag) || style === null) return;
    const problem = styleProblem(style);
    style = null;
    if (problem) refuse(`has ${problem}`);
  });
  const onText = (text: string) => {
    if (style !== null) style += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  try {
    for (let at = 0; at < text.length; at += SLICE) {
      parser.write(text.slice(at, at + SLICE));
      await new Promise(setImmediate);
    }
    parser.close();
  } catch (error) {
    // Anything else the parser throws is a document it could not read: refused all the same.
    return error instanceof Refused ? error.message : `the SVG cannot be read (${String(error)})`;
  }
  return null;
}
