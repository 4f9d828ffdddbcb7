/**
 * The media store: the images the broadcast pages show besides the pages themselves (uploads, the
 * team logos the server fetched), in the data directory's media folder, each named by its content.
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError } from '../protocol/errors.ts';
import type { ImageType } from '../protocol/media.ts';
import { OWNER_ONLY } from './data-dir.ts';
import { reasonOf } from './errno-words.ts';

export const MEDIA_DIR = 'media';

/** The folder of the media store in a data directory. */
export const mediaDirOf = (dataDir: string) => join(dataDir, MEDIA_DIR);

/**
 * Keeps an image and resolves to its id, `<32 hex digits of its SHA-256>.<ext>`: the same image
 * twice is the same file. Written aside and renamed, so a file of that name is always whole; a write
 * the disk refuses (full, read-only, failing) leaves nothing and is 507 storage_failed in words.
 */
export async function storeImage(dataDir: string, bytes: Uint8Array, type: ImageType): Promise<string> {
  const id = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${type.ext}`;
  const dir = mediaDirOf(dataDir);
  const partial = join(dir, `.${id}.${process.pid}.${Math.random().toString(36).slice(2)}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(partial, bytes, { mode: OWNER_ONLY });
    await rename(partial, join(dir, id));
  } catch (error) {
    await rm(partial, { force: true });
    if (!(error as NodeJS.ErrnoException).code) throw error;
    throw new ServiceError(
      'storage_failed',
      `the image was not stored: ${reasonOf(error, partial)}; nothing was kept`,
    );
  }
  return id;
}
