/** The radar's calibration: map names as the game sends them, the overview formula, the levels. */
import { describe, expect, it } from 'vitest';
import {
  CALIBRATED_MAPS,
  RADAR_IMAGE_SIZE,
  radarLevel,
  radarOverviewOf,
  radarPixel,
} from '../../machines/radar-overviews.ts';

describe('the radar overviews', () => {
  it('knows the Active Duty maps and reads workshop names', () => {
    for (const map of [
      'de_ancient',
      'de_anubis',
      'de_dust2',
      'de_inferno',
      'de_mirage',
      'de_nuke',
      'de_overpass',
      'de_train',
    ]) {
      expect(CALIBRATED_MAPS).toContain(map);
    }
    expect(radarOverviewOf('workshop/2126169449/de_mirage')).toEqual(radarOverviewOf('de_mirage'));
    expect(radarOverviewOf('de_nowhere')).toBeNull();
    expect(radarOverviewOf('constructor')).toBeNull();
    expect(radarOverviewOf('')).toBeNull();
  });

  it("places the world on the 1024 image as the game's overview files say", () => {
    const dust2 = radarOverviewOf('de_dust2');
    if (!dust2) throw new Error('no de_dust2');
    // The image's top-left corner is (pos_x, pos_y); x runs right, y runs down.
    expect(radarPixel(dust2, -2476, 3239)).toEqual({ px: 0, py: 0 });
    const far = radarPixel(dust2, -2476 + RADAR_IMAGE_SIZE * 4.4, 3239 - RADAR_IMAGE_SIZE * 4.4);
    expect(far.px).toBeCloseTo(1024, 9);
    expect(far.py).toBeCloseTo(1024, 9);
  });

  it('tells the lower level only on maps of two levels', () => {
    const nuke = radarOverviewOf('de_nuke');
    const vertigo = radarOverviewOf('de_vertigo');
    const dust2 = radarOverviewOf('de_dust2');
    if (!nuke || !vertigo || !dust2) throw new Error('missing maps');
    expect([radarLevel(nuke, -496), radarLevel(nuke, -495), radarLevel(nuke, 0)]).toEqual([
      'lower',
      'upper',
      'upper',
    ]);
    expect([radarLevel(vertigo, 11_500), radarLevel(vertigo, 11_800)]).toEqual(['lower', 'upper']);
    expect(dust2.thresholdZ).toBeNull();
    expect(radarLevel(dust2, -10_000)).toBe('upper');
  });
});
