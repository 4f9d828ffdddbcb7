import type { Logger } from 'pino';
import { defaultObsSettings } from '../../machines/obs-connection.machine.ts';
import { DEFAULT_IMPORT_SOURCES } from '../import/import-sources.ts';
import type { Settings, SettingsChange } from '../protocol/settings.ts';
import { checkedHotkeys } from './hotkey-settings.ts';
import { withNormalizedPool } from './map-pool.ts';
import { automationEnabled, brandingOf, gameSettings, hotkeysOf, vetoSettings } from './settings.ts';
import { withCheckedSources } from './source-settings.ts';

export const DEFAULT_SETTINGS: Settings = {
  lanMode: false,
  automation: { enabled: true },
  obs: defaultObsSettings,
  sources: {
    faceitUrl: DEFAULT_IMPORT_SOURCES.faceitUrl,
    faceitDataApiUrl: DEFAULT_IMPORT_SOURCES.faceitDataApiUrl,
    hltvUrl: DEFAULT_IMPORT_SOURCES.hltvUrl,
  },
};

const defined = <T extends object>(value: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

function withChanges(base: Settings, changes: SettingsChange): Settings {
  return {
    lanMode: changes.lanMode ?? base.lanMode,
    obs: { ...base.obs, ...defined(changes.obs) },
    sources: { ...base.sources, ...defined(changes.sources) },
    automation: { enabled: changes.automation?.enabled ?? automationEnabled(base) },
    branding: { ...brandingOf(base), ...defined(changes.branding) },
    game: { ...gameSettings(base), ...defined(changes.game) },
    // The map pool.
    veto: { ...vetoSettings(base), ...defined(changes.veto) },
    // A key set to null is kept as null (no key), unlike a field left out.
    hotkeys: { ...hotkeysOf(base), ...(defined(changes.hotkeys) as Record<string, string | null>) },
  };
}

/** The overrides without the fields a settings change sets: the operator's latest word wins. */
function withoutChanged(overrides: SettingsChange, changes: SettingsChange): SettingsChange {
  const unchanged = <T extends object>(override: Partial<T> | undefined, changed: Partial<T> | undefined) =>
    Object.fromEntries(
      Object.entries(override ?? {}).filter(([key]) => changed?.[key as keyof T] === undefined),
    ) as Partial<T>;
  return {
    lanMode: changes.lanMode === undefined ? overrides.lanMode : undefined,
    obs: unchanged(overrides.obs, changes.obs),
    sources: unchanged(overrides.sources, changes.sources),
  };
}

/** Reacts to a settings change (the store saves, the servers rebind, OBS reconnects): awaited in order. */
export type SettingsListener = (settings: Settings, changes: SettingsChange) => void | Promise<void>;

/**
 * The one owner of the settings: the saved ones (what lasts) and the command line's overrides for
 * this run (given on the command line or in the environment, never saved). A change through the
 * settings command saves that field and ends its override.
 */
export class SettingsOwner {
  #saved: Settings;
  #overrides: SettingsChange;
  #current: Settings;
  readonly #listeners: SettingsListener[] = [];

  constructor(
    saved: Partial<Settings> | undefined,
    overrides: SettingsChange,
    private readonly logger: Logger,
  ) {
    // A setting that could not be read starts from its default; the others are as saved.
    this.#saved = { ...DEFAULT_SETTINGS, ...saved };
    this.#overrides = overrides;
    this.#current = withChanges(this.#saved, overrides);
  }

  /** The settings this run uses: the saved ones with the command line's overrides on top. */
  current(): Settings {
    return this.#current;
  }

  /** The settings that last: what the saved state holds. */
  saved(): Settings {
    return this.#saved;
  }

  /** Runs after every change, in the order added; a change is done when every listener is. */
  onChange(listener: SettingsListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners.indexOf(listener);
      if (index >= 0) this.#listeners.splice(index, 1);
    };
  }

  /** Changes the saved settings (and so the ones in use; a changed field is no longer overridden). */
  async update(requested: SettingsChange): Promise<Settings> {
    // Refused here (400, nothing saved) when the map pool names no map or a map twice, or a source
    // is no address.
    const changes = withCheckedSources(withNormalizedPool(requested));
    // Refused (409, nothing saved) when a key would be another switch's too.
    checkedHotkeys(withChanges(this.#saved, changes), changes);
    this.#saved = withChanges(this.#saved, changes);
    this.#overrides = withoutChanged(this.#overrides, changes);
    const next = withChanges(this.#saved, this.#overrides);
    if (next.lanMode !== this.#current.lanMode)
      this.logger.info({ lanMode: next.lanMode }, `local network mode ${next.lanMode ? 'on' : 'off'}`);
    this.#current = next;
    for (const listener of [...this.#listeners]) await listener(next, changes);
    return next;
  }

  /** Back to the last saved settings after a failed write (the overrides stay as they are). */
  restore(durable: Settings): void {
    this.#saved = durable;
    this.#current = withChanges(this.#saved, this.#overrides);
  }

  close(): void {
    this.#listeners.length = 0;
  }
}
