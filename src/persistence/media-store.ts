/**
 * The media store: the images the broadcast pages show besides the pages themselves (uploads, the
 * team logos the server fetched), in the data directory's media folder, each named by its content.
 * Bounded in size and count (a quota); what nothing uses is removed, oldest first, to make room
 * (docs/application.md, "Media").
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { invalidPayload, ServiceError } from '../protocol/errors.ts';
import type { ImageType } from '../protocol/media.ts';
import { MEDIA_ID_PATTERN } from '../protocol/media.ts';
import { writeFileAtomic } from './atomic-file.ts';
import { DataDirError, OWNER_ONLY } from './data-dir.ts';
import { describeFsError, reasonOf } from './errno-words.ts';
import { imageProblem } from './image-check.ts';

export const MEDIA_DIR = 'media';

/** The folder of the media store in a data directory. */
export const mediaDirOf = (dataDir: string) => join(dataDir, MEDIA_DIR);

/** How much the media store keeps: both bounds hold at once. */
export interface MediaQuota {
  /** The images' bytes together. */
  bytes: number;
  /** How many images. */
  count: number;
}

/**
 * An event uses a few dozen images (an event logo, up to 24 sponsors and 12 talent photos, the teams'
 * logos, a radar overview per map), mostly 10 to 200 KiB, the overviews 1 to 3 MiB. 512 MiB is 256
 * images even at the largest upload (2 MiB), and little beside what OBS records in an hour on the
 * same disk; 1,000 images is many events' uploads, and bounds a flood of small ones (each is a file
 * the start counts).
 */
export const MEDIA_QUOTA: MediaQuota = { bytes: 512 * 1024 * 1024, count: 1_000 };

/**
 * How long a new image is kept though nothing uses it yet: the operator uploads a logo in the Match
 * view or the Branding view, and saves the form that names it afterwards.
 */
export const MEDIA_GRACE_MS = 10 * 60 * 1000;

export interface MediaStoreOptions {
  quota: MediaQuota;
  graceMs: number;
  /**
   * What may name an image, read when room must be made: an image whose id appears anywhere in its
   * JSON (as `/media/<id>` or alone) is in use. So a field added later that names an image keeps
   * it without a list of fields to update here.
   */
  inUse(): unknown;
}

interface StoredImage {
  size: number;
  /** When it was stored (its file's modification time): the grace runs from here. */
  at: number;
}

const MEDIA_ID = new RegExp(`^${MEDIA_ID_PATTERN}$`);
const MEDIA_IDS = new RegExp(MEDIA_ID_PATTERN, 'g');
/** A write that did not finish: `.<id>.<pid>.<random>` (store, below). */
const PARTIAL = new RegExp(`^\\.${MEDIA_ID_PATTERN}\\.\\d+\\.[0-9a-z]*$`);

const sizeOf = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;
const images = (count: number) => `${count} ${count === 1 ? 'image' : 'images'}`;
const minutes = (ms: number) => `${Number((ms / 60_000).toFixed(1))} minutes`;

/** The ids of the images named anywhere in `value`. */
const mediaIdsIn = (value: unknown): Set<string> =>
  new Set(Array.from(JSON.stringify(value ?? null).matchAll(MEDIA_IDS), ([id]) => id));

/**
 * The images of one data directory. Their bytes and count are read once, when it opens, and kept
 * from then on, so an upload does not read the whole folder. Stores run one after another.
 */
export class MediaStore {
  readonly dir: string;
  readonly #options: MediaStoreOptions;
  readonly #images: Map<string, StoredImage>;
  #bytes = 0;
  /** The store in progress: the next waits for it, so two uploads cannot both take the last room. */
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(dir: string, images: Map<string, StoredImage>, options: MediaStoreOptions) {
    this.dir = dir;
    this.#images = images;
    this.#options = options;
    for (const image of images.values()) this.#bytes += image.size;
  }

  /**
   * Counts the images in the data directory's media folder and removes the partial files a crash
   * left (under the data directory's lock: no other writer is running). Other files are left alone
   * and not counted: only an upload or a logo fetch adds to the folder.
   */
  static async open(dataDir: string, options: MediaStoreOptions): Promise<MediaStore> {
    const dir = mediaDirOf(dataDir);
    const stored = new Map<string, StoredImage>();
    try {
      const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      for (const entry of entries) {
        if (PARTIAL.test(entry.name)) await rm(join(dir, entry.name), { force: true });
        else if (entry.isFile() && MEDIA_ID.test(entry.name)) {
          const { size, mtimeMs } = await stat(join(dir, entry.name));
          stored.set(entry.name, { size, at: mtimeMs });
        }
      }
    } catch (error) {
      throw new DataDirError(`cannot read the media folder ${dir}: ${describeFsError(error)}`);
    }
    return new MediaStore(dir, stored, options);
  }

  /**
   * Keeps an image and resolves to its id, `<32 hex digits of its SHA-256>.<ext>`: the same image
   * twice is the same file, and storing it again always succeeds (its grace starts again). Written
   * aside and renamed, so a file of that name is always whole. A new image over the quota first
   * makes room by removing unused ones; when it cannot, or when the disk refuses the write (full,
   * read-only, failing), it is 507 storage_failed in words and nothing changed. An image a browser
   * should not be given (a picture too large to hold once drawn, an SVG that could run or load
   * something: image-check.ts) is refused first, invalid_payload in words, whoever brought it.
   */
  async store(bytes: Uint8Array, type: ImageType): Promise<string> {
    // Checked before the queue: a large SVG read in slices holds up no other store.
    const problem = await imageProblem(bytes, type);
    if (problem) throw invalidPayload(problem);
    const stored = this.#queue.then(() => this.#store(bytes, type));
    this.#queue = stored.catch(() => {});
    return stored;
  }

  async #store(bytes: Uint8Array, type: ImageType): Promise<string> {
    const id = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${type.ext}`;
    if (this.#images.has(id) && (await this.#touch(id))) return id;
    const room = this.#roomFor(bytes.length);
    const file = join(this.dir, id);
    const partial = join(this.dir, `.${id}.${process.pid}.${Math.random().toString(36).slice(2)}`);
    let written = false;
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(file, bytes, { mode: OWNER_ONLY, temp: partial });
      written = true;
      // Only once the new image is written: a write the disk refuses removes nothing.
      for (const old of room) {
        await rm(join(this.dir, old), { force: true });
        this.#forget(old);
      }
    } catch (error) {
      // The quota holds: an image that could not make its room is not kept either.
      if (written) await rm(file, { force: true }).catch(() => {});
      if (!(error as NodeJS.ErrnoException).code) throw error;
      throw new ServiceError(
        'storage_failed',
        `the image was not stored: ${reasonOf(error, partial)}; nothing was kept`,
      );
    }
    this.#images.set(id, { size: bytes.length, at: Date.now() });
    this.#bytes += bytes.length;
    return id;
  }

  /** A stored image asked for again: its grace starts again. False when its file is gone. */
  async #touch(id: string): Promise<boolean> {
    const now = new Date();
    try {
      await utimes(join(this.dir, id), now, now);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return true;
      // Removed by hand: stored again as a new image.
      this.#forget(id);
      return false;
    }
    (this.#images.get(id) as StoredImage).at = now.getTime();
    return true;
  }

  #forget(id: string): void {
    this.#bytes -= this.#images.get(id)?.size ?? 0;
    this.#images.delete(id);
  }

  /**
   * The images to remove so that one of `size` bytes fits: none while it fits; else those nothing
   * uses and stored before the grace, oldest first, as few as make room. Refused in words when even
   * all of them would not.
   */
  #roomFor(size: number): string[] {
    const { quota, graceMs } = this.#options;
    let count = this.#images.size + 1;
    let bytes = this.#bytes + size;
    const fits = () => count <= quota.count && bytes <= quota.bytes;
    if (fits()) return [];
    const used = mediaIdsIn(this.#options.inUse());
    const since = Date.now() - graceMs;
    const unused = [...this.#images]
      .filter(([id, image]) => !used.has(id) && image.at <= since)
      .sort(([a, x], [b, y]) => x.at - y.at || a.localeCompare(b));
    const room: string[] = [];
    for (const [id, image] of unused) {
      if (fits()) break;
      room.push(id);
      count -= 1;
      bytes -= image.size;
    }
    if (fits()) return room;
    throw this.#full(size, used, since);
  }

  #full(size: number, used: ReadonlySet<string>, since: number): ServiceError {
    const { quota, graceMs } = this.#options;
    const bound = `the media store keeps at most ${images(quota.count)} and ${sizeOf(quota.bytes)}`;
    if (size > quota.bytes) {
      return new ServiceError(
        'storage_failed',
        `the image was not stored: ${bound}, and it is ${sizeOf(size)}`,
      );
    }
    const ids = [...this.#images.keys()];
    const inUse = ids.filter((id) => used.has(id)).length;
    const recent = ids.filter(
      (id) => !used.has(id) && (this.#images.get(id) as StoredImage).at > since,
    ).length;
    return new ServiceError(
      'storage_failed',
      `the image was not stored: ${bound}, and holds ${images(this.#images.size)} (${sizeOf(this.#bytes)}): ` +
        `${inUse} in use (the branding's event logo, sponsors, talent photos and radar images, the teams' logos) ` +
        `and ${recent} stored in the last ${minutes(graceMs)}, which are kept. ` +
        'Remove an image from the branding or a team, then try again',
    );
  }
}
