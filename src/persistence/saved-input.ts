/**
 * The one mapping between the saved document and the machines, both ways, as loops over the saved
 * parts (saved-parts.ts): the input the actors start from (a saved state, or the defaults), the saved
 * state of the running actors, and whether a change of the actors is worth a write.
 */
import type { ObsSettings } from '../../machines/obs-connection.machine.ts';
import type { NetconAddress } from '../../machines/observer.machine.ts';
import type { HudInput } from '../../machines/supervisor.machine.ts';
import type { Snapshots } from '../core/hud-system.ts';
import type { StateReads } from '../core/state-hub.ts';
import type { Settings } from '../protocol/settings.ts';
import type { SettingsOwner } from '../settings/settings-owner.ts';
import type { LiveHost, OlderParts, RunStart, SavedPart, SavedPartKey, SaveRun } from './saved-parts.ts';
import { SAVED_PART_KEYS, SAVED_PARTS, saveRunOf } from './saved-parts.ts';
import type { LoadedState, SavedState } from './saved-state.ts';
import { SAVED_STATE_VERSION } from './saved-state.ts';

export type { LiveHost } from './saved-parts.ts';

/** A part as the loops see it: the types that tie it to its actor are checked where it is declared. */
type AnyPart = SavedPart<never, readonly unknown[], unknown> & {
  restore(part: unknown, start: RunStart, older: OlderParts): unknown;
  part(values: readonly unknown[]): unknown;
};
const partOf = (key: SavedPartKey) => SAVED_PARTS[key] as unknown as AnyPart;

/**
 * The input the actors start from: the saved state (or the defaults), the OBS settings, the live host.
 * `netconOverride` is the game console's address given for this run (`--netcon`), or null.
 */
export function hudInputFrom(
  saved: LoadedState | null,
  obs: ObsSettings,
  host: LiveHost,
  now: number,
  netconOverride: NetconAddress | null,
): HudInput {
  const start: RunStart = { obs, host, now, netconOverride };
  // Fields newer than the first saved states may be absent: absent is none. A part left out (it could
  // not be read) starts from its default.
  const older: OlderParts = saved ?? {};
  const restored = Object.fromEntries(
    SAVED_PART_KEYS.map((key) => [key, partOf(key).restore(older[key], start, older)]),
  ) as Pick<HudInput, SavedPartKey>;
  return { ...restored, obs, now };
}

/**
 * What of the running actors is saved, one entry per part: the values it was last built from and
 * the part. A part whose values are the same objects as last time is the very same object, so the
 * store serialises only what changed (state-store.ts).
 */
function savedParts(run: SaveRun, start: Snapshots | null) {
  const last = new Map<SavedPartKey, { from: readonly unknown[]; part: unknown | undefined }>();
  const valuesOf = (key: SavedPartKey, snapshots: Snapshots) =>
    partOf(key).from(snapshots as never, run, (last.get(key)?.from ?? null) as never);
  if (start)
    for (const key of SAVED_PART_KEYS) last.set(key, { from: valuesOf(key, start), part: undefined });
  return {
    /** Whether the values of `key` changed since last seen; remembers them. */
    changed(key: SavedPartKey, snapshots: Snapshots): boolean {
      const before = last.get(key);
      const from = valuesOf(key, snapshots);
      if (before && from.every((value, i) => value === before.from[i])) return false;
      last.set(key, { from, part: undefined });
      return true;
    },
    part(key: SavedPartKey, snapshots: Snapshots): unknown {
      this.changed(key, snapshots);
      const entry = last.get(key) as { from: readonly unknown[]; part: unknown };
      entry.part ??= partOf(key).part(entry.from);
      return entry.part;
    },
  };
}

/**
 * The saved state of the running actors, started from `saved` (the loaded state). `settings` are the
 * saved ones: what the command line overrides for one run is never written, and neither is the
 * console address of `--netcon` (`netconOverride`).
 */
export function savedStateBuilder(
  saved: LoadedState | null,
  netconOverride: NetconAddress | null,
): (snapshots: Snapshots, revision: number, settings: Settings) => SavedState {
  const parts = savedParts(saveRunOf(saved, netconOverride), null);
  return (snapshots, revision, settings) => {
    const doc: Record<string, unknown> = {
      version: SAVED_STATE_VERSION,
      // Stamped by the store when it writes this document (state-store.ts, stamp).
      savedAt: '',
      revision,
      settings,
    };
    for (const key of SAVED_PART_KEYS) doc[key] = parts.part(key, snapshots);
    return doc as SavedState;
  };
}

/** The parts saved from each actor. */
const PARTS_OF_SOURCE = new Map<string, SavedPartKey[]>();
for (const key of SAVED_PART_KEYS) {
  for (const source of SAVED_PARTS[key].sources) {
    PARTS_OF_SOURCE.set(source, [...(PARTS_OF_SOURCE.get(source) ?? []), key]);
  }
}

/**
 * Whether a commit of the hub changed what is saved (so the store should write), from the sources
 * it changed and the snapshots they changed to. Remembers what it saw last, starting from `start`.
 */
export function savedChange(
  start: Snapshots,
  saved: LoadedState | null,
  netconOverride: NetconAddress | null,
): (sources: Iterable<string>, snapshots: Snapshots) => boolean {
  const parts = savedParts(saveRunOf(saved, netconOverride), start);
  return (sources, snapshots) => {
    const looked = new Set<SavedPartKey>();
    let changed = false;
    for (const source of sources) {
      for (const key of PARTS_OF_SOURCE.get(source) ?? []) {
        if (looked.has(key)) continue;
        looked.add(key);
        if (parts.changed(key, snapshots)) changed = true;
      }
    }
    return changed;
  };
}

/**
 * What the store saves, read from where the state lives: the hub's snapshots and revision, and the
 * saved settings. The store calls it when it writes; nothing climbs back up to the wiring.
 */
export function savedStateSource(
  hub: Pick<StateReads, 'snapshots' | 'revision'>,
  settings: Pick<SettingsOwner, 'saved'>,
  saved: LoadedState | null,
  netconOverride: NetconAddress | null,
): () => SavedState {
  const savedStateOf = savedStateBuilder(saved, netconOverride);
  return () => savedStateOf(hub.snapshots(), hub.revision, settings.saved());
}
