/**
 * Several radar overviews in one action (issue 35): the files the operator picks (several images, a
 * folder, or a .zip of them), each given to its map by its name as the game names its overview files
 * (`de_mirage_radar_psd.png`, `de_nuke_lower_radar_psd.png`: the map's full name in it, `_lower` for a
 * two-level map's lower level). A file whose name names no calibrated map is left out and said so.
 */
import { unzipSync } from 'fflate';
import { CALIBRATED_MAPS } from '../../../machines/radar-overviews.ts';

export interface RadarFile {
  name: string;
  blob: Blob;
}

export interface RadarTarget {
  map: string;
  level: 'image' | 'lower';
}

const IMAGE_NAME = /\.(png|jpe?g|webp|gif)$/i;

/** Whether a file's name is an image's (PNG, JPEG, WebP, GIF). */
export const isImageName = (name: string): boolean => IMAGE_NAME.test(name);
/** The longest names first: de_dust2 before de_dust, so a map's name is not taken for a shorter one's. */
const BY_LENGTH = [...CALIBRATED_MAPS].sort((a, b) => b.length - a.length);

/** The map and level a file is for, by its name (its folders left out); null when none. */
export function radarTargetOf(path: string): RadarTarget | null {
  const name = (path.split(/[\\/]/).at(-1) ?? '').toLowerCase();
  if (!IMAGE_NAME.test(name)) return null;
  const map = BY_LENGTH.find((candidate) => new RegExp(`(^|[^a-z0-9])${candidate}(?![a-z0-9])`).test(name));
  if (!map) return null;
  return {
    map,
    level: /(^|_)lower(_|\.|$)/.test(name.slice(name.indexOf(map) + map.length)) ? 'lower' : 'image',
  };
}

/** The images among the picked files, a .zip's opened (its images, whatever their folders). */
export async function radarFilesOf(files: readonly File[]): Promise<RadarFile[]> {
  const out: RadarFile[] = [];
  for (const file of files) {
    const path = file.webkitRelativePath || file.name;
    if (/\.zip$/i.test(file.name)) {
      const entries = unzipSync(new Uint8Array(await file.arrayBuffer()), {
        filter: (entry) => IMAGE_NAME.test(entry.name),
      });
      for (const [name, bytes] of Object.entries(entries)) out.push({ name, blob: new Blob([bytes]) });
    } else out.push({ name: path, blob: file });
  }
  return out;
}
