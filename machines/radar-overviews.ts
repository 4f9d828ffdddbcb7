/**
 * The radar's calibration per map: the numbers of the game's overview files
 * (`resource/overviews/<map>.txt`), which place the game's world on its 1024x1024 radar image.
 *
 * Source: akiver/cs-demo-manager, src/node/database/maps/default-maps.ts at commit
 * 3affbb561253a41d9a4fe255a91972e837573677 (MIT licence), its CS2 entries; the numbers come from the
 * game's own overview files. Copied from the project's shared data (radar-overviews.json) unchanged.
 * No radar image ships with the project: the images are Valve's (or SimpleRadar's, by permission
 * only); the operator uploads one per map (docs/themes.md, "Radar").
 */
import { normalizeMapName } from './map-names.ts';

export interface RadarOverview {
  /** The world x at the image's left edge. */
  posX: number;
  /** The world y at the image's top edge. */
  posY: number;
  /** World units per image pixel. */
  scale: number;
  /** On a map with two levels, a z below this is the lower level; null for one level. */
  thresholdZ: number | null;
}

/** The side of the square radar image the overview numbers are for, in pixels. */
export const RADAR_IMAGE_SIZE = 1024;

const overview = (posX: number, posY: number, scale: number, thresholdZ = 0): RadarOverview => ({
  posX,
  posY,
  scale,
  // The source writes 0 for a map of one level.
  thresholdZ: thresholdZ === 0 ? null : thresholdZ,
});

// A Map, not a plain object: a name such as "constructor" must not find an inherited member.
const OVERVIEWS = new Map<string, RadarOverview>([
  ['de_ancient', overview(-2953, 2164, 5)],
  ['de_anubis', overview(-2796, 3328, 5.22)],
  ['de_dust2', overview(-2476, 3239, 4.4)],
  ['de_inferno', overview(-2087, 3870, 4.9)],
  ['de_mirage', overview(-3230, 1713, 5)],
  ['de_nuke', overview(-3453, 2887, 7, -495)],
  ['de_overpass', overview(-4831, 1781, 5.2)],
  ['de_train', overview(-2308, 2078, 4.082077)],
  ['de_vertigo', overview(-3168, 1762, 4, 11700)],
  ['de_cache', overview(-2000, 3250, 5.5)],
  ['de_basalt', overview(-2345, 2391, 4.37)],
  ['de_edin', overview(-383, 4420, 4.803717)],
  ['de_palais', overview(-1353, 2044, 2.8003397, 103)],
  ['de_whistle', overview(-1825, 1104, 2.8)],
  ['de_thera', overview(-85, 2261, 4.846961, -4)],
  ['de_mills', overview(-4810, -320, 5.148437)],
  ['de_memento', overview(-2111, 2534, 3.9720395)],
  ['de_assembly', overview(1628, 4512, 2.84)],
]);

/** The maps the radar can draw, by their full names. */
export const CALIBRATED_MAPS: readonly string[] = [...OVERVIEWS.keys()];

/**
 * The overview of a map as the game names it (`de_dust2`, `workshop/2126169449/de_mirage`), or null
 * when the map has no calibration: the radar then draws nothing.
 */
export function radarOverviewOf(gameMapName: string): RadarOverview | null {
  const name = normalizeMapName(gameMapName);
  return name === null ? null : (OVERVIEWS.get(name) ?? null);
}

/** A world point on the radar image, in pixels of the 1024x1024 image (x right, y down). */
export function radarPixel(overview: RadarOverview, x: number, y: number): { px: number; py: number } {
  return { px: (x - overview.posX) / overview.scale, py: (overview.posY - y) / overview.scale };
}

/** Which level a height is on: the lower one only on a map of two levels, below its threshold. */
export function radarLevel(overview: RadarOverview, z: number): 'upper' | 'lower' {
  return overview.thresholdZ !== null && z < overview.thresholdZ ? 'lower' : 'upper';
}
