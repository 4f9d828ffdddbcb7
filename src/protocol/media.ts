/** Where the application server serves an uploaded image (its id is the file name in the media folder). */
export const MEDIA_PATH = '/media';

/** The address of an uploaded image, for a page's `src` and the upload's answer. */
export const mediaUrl = (id: string) => `${MEDIA_PATH}/${id}`;

// ---------- Radar images (issue 19): a kind of upload of its own ----------
/** Where the operator app uploads a map's radar image (a signed-in browser, as the other images). */
export const RADAR_MEDIA_PATH = '/api/panel/media/radar';
/** The largest radar image: the game's overviews are 1024x1024 PNGs of 1 to 3 MiB. */
export const RADAR_IMAGE_MAX_BYTES = 4 * 1024 * 1024;
/** A radar image is square (the calibration is for a square), and at least this many pixels a side. */
export const RADAR_IMAGE_MIN_SIDE = 256;
export const RADAR_IMAGE_MAX_SIDE = 4096;
// ---- The images of the media store: uploads and the team logos the server fetches -------------
// (docs/application.md, "Media" and "Team logos")

/**
 * The image types the media store keeps, recognised by their first bytes (never by a name or a
 * header). Uint8Array, not Buffer: the pages bundle this module.
 */
export const IMAGE_TYPES = [
  {
    ext: 'png',
    type: 'image/png',
    is: (b: Uint8Array) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { ext: 'jpg', type: 'image/jpeg', is: (b: Uint8Array) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { ext: 'gif', type: 'image/gif', is: (b: Uint8Array) => /^GIF8[79]a/.test(latin1(b, 0, 6)) },
  {
    ext: 'webp',
    type: 'image/webp',
    is: (b: Uint8Array) => latin1(b, 0, 4) === 'RIFF' && latin1(b, 8, 12) === 'WEBP',
  },
  // Team logos on HLTV are often SVG: the media store keeps one only when a parser finds nothing in
  // it that could run or load (src/persistence/svg-check.ts), and it is served with a sandboxing
  // policy besides (src/app-server/media.plugin.ts).
  { ext: 'svg', type: 'image/svg+xml', is: isSvg },
] as const;

export type ImageType = (typeof IMAGE_TYPES)[number];

/** The largest image the media store keeps: an upload, a fetched team logo. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/**
 * The largest picture the media store keeps, as its header announces it (what a browser holds once
 * it draws it, 4 bytes a pixel, whatever the file's size): a side, and the pixels in all. 4096x4096
 * (64 MiB drawn) is the largest radar overview; 8192 a side leaves room for a wide sponsor strip.
 */
export const MAX_IMAGE_SIDE = 8192;
export const MAX_IMAGE_PIXELS = 4096 * 4096;

/** The image types in words, for messages. */
export const IMAGE_TYPE_WORDS = 'PNG, JPEG, GIF, WebP or script-free SVG';

/** The type of an image by its first bytes, or null when it is none of IMAGE_TYPES. */
export const imageTypeOf = (bytes: Uint8Array): ImageType | null =>
  IMAGE_TYPES.find((image) => image.is(bytes)) ?? null;

/** The id of a stored image: 32 hex digits of its SHA-256 and the type's extension. */
export const MEDIA_ID_PATTERN = `[0-9a-f]{32}\\.(${IMAGE_TYPES.map((image) => image.ext).join('|')})`;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/**
 * An SVG document: after an optional byte order mark, white space, an XML declaration, comments and
 * a doctype, the root element is `<svg`. Only the first 4 KiB are looked at.
 */
function isSvg(bytes: Uint8Array): boolean {
  let text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096));
  text = text.replace(/^\uFEFF/, '');
  for (;;) {
    const before = text;
    text = text
      .replace(/^\s+/, '')
      .replace(/^<\?xml[\s\S]*?\?>/, '')
      .replace(/^<!--[\s\S]*?-->/, '')
      .replace(/^<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '');
    if (text === before) break;
  }
  return /^<svg[\s>/]/.test(text);
}
