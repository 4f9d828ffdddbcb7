/**
 * What may be served as a replay clip (docs/obs.md, "What /replay serves"). OBS names the file, but
 * anything that answers at OBS's address can name any file, so the file itself must show that it is a
 * clip: a video container OBS writes, by its name and by its first bytes, read from the very file
 * that is then served, inside the folder OBS records to and never in the service's data directory.
 */
import { constants, type FileHandle, open, realpath } from 'node:fs/promises';
import { extname, isAbsolute, relative } from 'node:path';
import { ServiceError } from '../protocol/errors.ts';

interface Container {
  /** The content type a video element plays it as. */
  type: string;
  /** Its signature, from the file's first bytes. */
  is(head: Buffer): boolean;
}

const ftyp = (head: Buffer) => head.toString('latin1', 4, 8) === 'ftyp';
const ebml = (head: Buffer) => head.readUInt32BE(0) === 0x1a45dfa3;
const flv = (head: Buffer) => head.toString('latin1', 0, 3) === 'FLV';
// An MPEG transport stream is packets of 188 bytes, each opening with the sync byte 0x47.
const mpegTs = (head: Buffer) => head[0] === 0x47 && (head.length <= 188 || head[188] === 0x47);

/** The formats OBS records a replay in (Settings > Output > Recording Format), by file extension. */
const CONTAINERS: Record<string, Container> = {
  '.mp4': { type: 'video/mp4', is: ftyp },
  '.m4v': { type: 'video/mp4', is: ftyp },
  '.mov': { type: 'video/quicktime', is: ftyp },
  '.mkv': { type: 'video/x-matroska', is: ebml },
  '.webm': { type: 'video/webm', is: ebml },
  '.flv': { type: 'video/x-flv', is: flv },
  '.ts': { type: 'video/mp2t', is: mpegTs },
};

/** Enough of the file's start for every signature above. */
const HEAD_BYTES = 189;

/** A clip as OBS reported it: the file, and the folder OBS said it records to. */
export interface ReportedClip {
  path: string;
  folder: string;
}

/** A clip that passed every rule, open: serve `handle`'s bytes, then close it. */
export interface OpenClip {
  handle: FileHandle;
  size: number;
  type: string;
}

const refused = (why: string) => new ServiceError('not_found', `that replay is not served: ${why}`);

/** Whether `path` is `folder` or inside it (both already resolved). */
function isInside(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}

/**
 * Opens the clip OBS reported, or refuses it in words (`not_found`): it must resolve (links followed)
 * to a file inside OBS's recording folder, outside `dataDir`, named and shaped like a video container.
 * The checks on the content are made on the open file, so a name swapped after the path checks
 * still serves only a video.
 */
export async function openReplayClip({ path, folder }: ReportedClip, dataDir: string): Promise<OpenClip> {
  if (!isAbsolute(path) || !isAbsolute(folder)) {
    throw refused('OBS did not name the clip and its recording folder as absolute paths');
  }
  const [real, realFolder, realData] = await Promise.all([
    realpath(path).catch(() => null),
    realpath(folder).catch(() => null),
    realpath(dataDir).catch(() => dataDir),
  ]);
  if (real === null) throw refused('the file is no longer there');
  if (realFolder === null) throw refused("OBS's recording folder is no longer there");
  if (!isInside(real, realFolder)) throw refused("the file is not in OBS's recording folder");
  // The data directory may well be inside the recording folder (OBS records to the home folder by
  // default on Linux): only its own files are out of bounds.
  if (isInside(real, realData)) throw refused("the service's data directory is never served");
  const container = CONTAINERS[extname(real).toLowerCase()];
  if (!container) throw refused(`a clip is a ${Object.keys(CONTAINERS).join(', ')} file`);
  // O_NOFOLLOW: the name resolved above must still be the file itself, not a link put there since.
  const handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch(() => null);
  if (handle === null) throw refused('the file cannot be opened');
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw refused('it is not a file');
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    if (bytesRead < 8 || !container.is(head.subarray(0, bytesRead))) {
      throw refused(`the file is not a ${extname(real).slice(1)} video`);
    }
    return { handle, size: stats.size, type: container.type };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
