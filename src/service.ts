import { join } from 'node:path';
import type { Emitter } from 'mitt';
import mittModule from 'mitt';
import type { Logger } from 'pino';
import type { InspectionEvent } from 'xstate';
import { fromPromise } from 'xstate';
import type { HostInput } from '../machines/host.machine.ts';
import { MATCH_DEFAULTS } from '../machines/match.machine.ts';
import type { ObsSettings } from '../machines/obs-connection.machine.ts';
import { defaultObsSettings } from '../machines/obs-connection.machine.ts';
import { PRODUCTION_DEFAULTS } from '../machines/production.machine.ts';
import type { HudInput } from '../machines/supervisor.machine.ts';
import { supervisorMachine } from '../machines/supervisor.machine.ts';
import { REVEAL_DEFAULTS } from '../machines/veto-reveal.machine.ts';
import type { ImportedVeto, ImportRequest } from '../machines/veto-session.machine.ts';
import { vetoSessionMachine } from '../machines/veto-session.machine.ts';
import { loadOrCreateToken, regenerateToken } from './access/access-token.ts';
import { RateLimit } from './access/rate-limit.ts';
import { INTERNAL_COMMANDS } from './commands/internal.commands.ts';
import { CommandRegistry } from './commands/registry.ts';
import { createDataDir, DataDirError, STATE_FILE, TOKEN_FILE, tidyDataDir } from './data-dir.ts';
import { Dispatcher } from './dispatcher.ts';
import { ServiceError } from './errors.ts';
import type { HudSystem } from './hud-system.ts';
import { ACTOR_KEYS, startHudSystem } from './hud-system.ts';
import type { ImportSources } from './import/import-sources.ts';
import { DEFAULT_IMPORT_SOURCES } from './import/import-sources.ts';
import type { MatchImporter } from './import/match-importer.ts';
import { obsConnectionLive } from './obs/obs-socket.ts';
import { DataDirLock } from './persistence/data-dir-lock.ts';
import type { StoreFiles } from './persistence/store-files.ts';
import { realFiles } from './persistence/store-files.ts';
import { RecentRequests } from './recent-requests.ts';
import type { SavedState, Settings } from './saved-state.ts';
import { SAVED_STATE_VERSION } from './saved-state.ts';
import { StateHub } from './state-hub.ts';
import { reasonOf, STORAGE_OK, StateStore } from './state-store.ts';

const mitt = mittModule as unknown as typeof mittModule.default;

export { STATE_FILE, TOKEN_FILE };

export interface ServiceOptions {
  dataDir: string;
  logger: Logger;
  /** The main window counts as open and signed in (no application shell around the service). */
  headless: boolean;
  subscriptionActive: boolean;
  /** Settings given on the command line or in the environment: they win over saved ones. */
  overrides?: { lanMode?: boolean; obs?: Partial<ObsSettings>; sources?: Partial<ImportSources> };
  /** FACEIT Data API key (from the environment; never saved). */
  faceitApiKey?: string;
  /** Budget of one import (default the spec's 20 s); tests shorten it. */
  importTimeoutMs?: number;
  /** Replaces IO actors, for tests: the supervisor as the service would run it → the one to run. */
  machine?: (live: typeof supervisorMachine) => typeof supervisorMachine;
  inspect?: (event: InspectionEvent) => void;
  /** Wraps the store's file operations, for tests that make a write fail as a broken disk does. */
  storeFiles?: (real: StoreFiles) => StoreFiles;
}

export type ServiceEvents = {
  settings: Settings;
  /** The access token was regenerated: remote clients must come back with the new one. */
  token: undefined;
};

export interface SettingsChange {
  lanMode?: boolean;
  obs?: Partial<ObsSettings>;
  sources?: Partial<Settings['sources']>;
}

export interface Service {
  hud: HudSystem;
  hub: StateHub;
  store: StateStore;
  registry: CommandRegistry;
  dispatcher: Dispatcher;
  /** Reports of the application shell, the HUD overlay and the game: loopback only. */
  internal: Dispatcher;
  settings(): Settings;
  updateSettings(changes: SettingsChange): Promise<Settings>;
  /** The access token local-network devices must send. */
  token(): string;
  regenerateToken(): Promise<string>;
  rateLimit: RateLimit;
  recent: RecentRequests;
  events: Emitter<ServiceEvents>;
  /** The server listens on `port`: a second server on the same data directory is told it. */
  announcePort(port: number): Promise<void>;
  /** Stops the actors and saves; rejects when the last state could not be saved. */
  close(): Promise<void>;
}

const DEFAULT_SETTINGS: Settings = {
  lanMode: false,
  obs: defaultObsSettings,
  sources: {
    faceitUrl: DEFAULT_IMPORT_SOURCES.faceitUrl,
    faceitDataApiUrl: DEFAULT_IMPORT_SOURCES.faceitDataApiUrl,
    hltvUrl: DEFAULT_IMPORT_SOURCES.hltvUrl,
  },
};

const defined = <T extends object>(value: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

function settingsFrom(saved: SavedState | null, overrides: ServiceOptions['overrides']): Settings {
  const base = saved?.settings ?? DEFAULT_SETTINGS;
  return {
    lanMode: overrides?.lanMode ?? base.lanMode,
    obs: { ...base.obs, ...defined(overrides?.obs) },
    sources: { ...base.sources, ...defined(overrides?.sources) },
  };
}

function hudInputFrom(
  saved: SavedState | null,
  settings: Settings,
  host: Omit<HostInput, 'presets' | 'colorPresetId'>,
): HudInput {
  return {
    host: { ...host, presets: saved?.host.presets ?? [], colorPresetId: saved?.host.colorPresetId ?? null },
    match: saved?.match ?? MATCH_DEFAULTS,
    vetoSession: saved?.vetoSession ?? { session: null },
    vetoReveal: saved?.vetoReveal ?? REVEAL_DEFAULTS,
    sceneWindow: saved?.sceneWindow ?? { scene: null },
    panels: saved?.panels ?? {
      scoreboard: { visible: null },
      vetoPanel: { visible: null },
      stats: { visible: null },
      overlay: { visible: null },
    },
    production: saved?.production ?? PRODUCTION_DEFAULTS,
    obs: settings.obs,
  };
}

function savedStateOf(hud: HudSystem, revision: number, settings: Settings): SavedState {
  const snapshots = hud.snapshots();
  const panel = (key: 'scoreboard' | 'vetoPanel' | 'stats' | 'overlay') => ({
    visible: snapshots[key].matches('unknown') ? null : snapshots[key].matches('shown'),
  });
  const { presets, colorPresetId } = snapshots.host.context;
  return {
    version: SAVED_STATE_VERSION,
    savedAt: new Date().toISOString(),
    revision,
    settings,
    host: { presets, colorPresetId },
    match: snapshots.match.context,
    vetoSession: { session: snapshots.vetoSession.context.session },
    vetoReveal: snapshots.vetoReveal.context,
    sceneWindow: snapshots.sceneWindow.context,
    panels: {
      scoreboard: panel('scoreboard'),
      vetoPanel: panel('vetoPanel'),
      stats: panel('stats'),
      overlay: panel('overlay'),
    },
    production: snapshots.production.context,
  };
}

/**
 * Starts the actors from the saved state (or the defaults) and wires the hub, the store and the
 * dispatcher. Holds the data directory's lock from here until close.
 */
export async function startService(options: ServiceOptions): Promise<Service> {
  await createDataDir(options.dataDir);
  const lock = await DataDirLock.acquire(options.dataDir);
  try {
    return await startLocked(options, lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function startLocked(options: ServiceOptions, lock: DataDirLock): Promise<Service> {
  const { dataDir, logger } = options;
  await tidyDataDir(dataDir);
  const files = options.storeFiles ? options.storeFiles(realFiles) : realFiles;
  const store = await StateStore.open(dataDir, files, logger);
  let saved = store.loaded;
  let settings = settingsFrom(saved, options.overrides);

  // The importers (and their HTML parser) load on the first import, not at start-up; a change of
  // the source settings makes the next import use a new one.
  let importer: Promise<MatchImporter> | null = null;
  const currentImporter = () =>
    (importer ??= import('./import/match-importer.ts').then(({ createMatchImporter }) =>
      createMatchImporter({
        sources: { ...settings.sources, ...defined({ faceitApiKey: options.faceitApiKey }) },
        ...defined({ timeoutMs: options.importTimeoutMs }),
      }),
    ));
  const matchImport = fromPromise<ImportedVeto, ImportRequest>(async ({ input, signal }) =>
    (await currentImporter()).importMatch(input, signal),
  );
  const live = supervisorMachine.provide({
    actors: {
      vetoSession: vetoSessionMachine.provide({ actors: { matchImport } }),
      obsConnection: obsConnectionLive,
    },
  });
  const machine = options.machine ? options.machine(live) : live;
  const host = {
    mainWindowOpen: options.headless,
    signedIn: options.headless,
    subscriptionActive: options.subscriptionActive,
    roster: [],
  };

  const start = () =>
    startHudSystem({
      input: hudInputFrom(saved, settings, host),
      machine,
      ...(options.inspect ? { inspect: options.inspect } : {}),
    });
  let hud = start();
  // A saved state that a machine cannot take (a state that no longer exists) leaves that child in error.
  const broken = ACTOR_KEYS.filter((key) => hud.actor(key).getSnapshot().status === 'error');
  if (saved && broken.length > 0) {
    hud.stop();
    await store.discard('unusable', `actors ${broken.join(', ')} could not start from it`);
    saved = null;
    settings = settingsFrom(null, options.overrides);
    hud = start();
  }

  const hub = new StateHub(hud, saved?.revision ?? 0, STORAGE_OK);
  try {
    await store.start({
      collect: () => savedStateOf(hud, hub.revision, settings),
      // A write failed: the actors start again from the last saved state, which clients see as one
      // more revision, so nothing unsaved stays in memory as if it had been acknowledged.
      rollback(durable) {
        settings = durable.settings;
        importer = null;
        const { mainWindowOpen, signedIn, subscriptionActive, roster } = hud.snapshot('host').context;
        const live = { mainWindowOpen, signedIn, subscriptionActive, roster };
        hub.restartActors(() => hud.restart(hudInputFrom(durable, settings, live)));
      },
      status: (status) => hub.setStorage(status),
    });
  } catch (error) {
    hub.close();
    hud.stop();
    await store.abandon();
    throw new DataDirError(
      `cannot write to the data directory ${dataDir}: ${reasonOf(error, join(dataDir, STATE_FILE))}`,
    );
  }
  hub.emitter.on('changed', () => void store.requestSave());
  const registry = new CommandRegistry();
  const dispatcher = new Dispatcher(registry, hud, hub, store);
  const internal = new Dispatcher(new CommandRegistry(INTERNAL_COMMANDS), hud, hub, store);
  const events = mitt<ServiceEvents>();
  const tokenFile = join(dataDir, TOKEN_FILE);
  let token = await loadOrCreateToken(tokenFile);

  return {
    hud,
    hub,
    store,
    registry,
    dispatcher,
    internal,
    events,
    settings: () => settings,
    token: () => token,
    async regenerateToken() {
      try {
        token = await regenerateToken(tokenFile);
      } catch (error) {
        if (!(error as NodeJS.ErrnoException).code) throw error;
        throw new ServiceError(
          'storage_failed',
          `the access token was not replaced: ${reasonOf(error, tokenFile)}; the current token stays valid`,
        );
      }
      events.emit('token', undefined);
      return token;
    },
    rateLimit: new RateLimit(),
    recent: new RecentRequests(),
    async updateSettings(changes) {
      const next: Settings = {
        lanMode: changes.lanMode ?? settings.lanMode,
        obs: { ...settings.obs, ...defined(changes.obs) },
        sources: { ...settings.sources, ...defined(changes.sources) },
      };
      settings = next;
      if (changes.obs) hud.send('obs', { type: 'obs.configure', ...next.obs });
      if (changes.sources) importer = null;
      events.emit('settings', next);
      await store.requestSave();
      return next;
    },
    announcePort: (port) => lock.setPort(port),
    async close() {
      hub.close();
      hud.stop();
      events.all.clear();
      try {
        await store.close();
      } finally {
        await lock.release();
      }
    },
  };
}
