/**
 * The map pool in the settings (`veto.mapPool`): a change may spell the maps as veto commands do
 * (mirage, Dust II, de_nuke); the settings keep the full names, each once.
 */
import { normalizeMapName } from '../../machines/map-names.ts';
import { invalidPayload } from '../protocol/errors.ts';
import type { SettingsChange } from '../protocol/settings.ts';

/** The full names of a pool as the operator wrote it, or a refusal in words (nothing is saved). */
export function normalizedMapPool(pool: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return pool.map((name, index) => {
    const map = normalizeMapName(name);
    if (!map)
      throw invalidPayload(
        `veto.mapPool[${index}]: "${name}" is not a map name (for example mirage or de_mirage)`,
      );
    const earlier = seen.get(map);
    if (earlier !== undefined)
      throw invalidPayload(`veto.mapPool lists ${map} twice (entries ${earlier} and ${index})`);
    seen.set(map, index);
    return map;
  });
}

/** The change with its map pool normalised; a change without one is returned as it is. */
export function withNormalizedPool(changes: SettingsChange): SettingsChange {
  const pool = changes.veto?.mapPool;
  if (!pool) return changes;
  return { ...changes, veto: { ...changes.veto, mapPool: normalizedMapPool(pool) } };
}
