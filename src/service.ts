import { join } from 'node:path';
import type { Emitter } from 'mitt';
import mittModule from 'mitt';
import type { Logger } from 'pino';
import type { InspectionEvent } from 'xstate';
import { fromPromise } from 'xstate';
import type { HostInput } from '../machines/host.machine.ts';
import { MATCH_DEFAULTS } from '../machines/match.machine.ts';
import { defaultObsSettings } from '../machines/obs-connection.machine.ts';
import type { PanelInput } from '../machines/panel.machine.ts';
import { PRODUCTION_DEFAULTS } from '../machines/production.machine.ts';
import type { HudInput } from '../machines/supervisor.machine.ts';
import { supervisorMachine } from '../machines/supervisor.machine.ts';
import type { PanelId } from '../machines/system-ids.ts';
import { PANEL_IDS } from '../machines/system-ids.ts';
import { REVEAL_DEFAULTS } from '../machines/veto-reveal.machine.ts';
import type { ImportedVeto, ImportRequest } from '../machines/veto-session.machine.ts';
import { vetoSessionMachine } from '../machines/veto-session.machine.ts';
import { loadOrCreateToken, regenerateToken } from './access/access-token.ts';
import { RateLimit } from './access/rate-limit.ts';
import { RecentRequests } from './access/recent-requests.ts';
import { INTERNAL_COMMANDS } from './core/commands/internal.commands.ts';
import { CommandRegistry } from './core/commands/registry.ts';
import { Dispatcher } from './core/dispatcher.ts';
import type { HudSystem, Snapshots } from './core/hud-system.ts';
import { ACTOR_KEYS, startHudSystem } from './core/hud-system.ts';
import { MainWindow } from './core/main-window.ts';
import { StateHub } from './core/state-hub.ts';
import { GameData } from './game/game-data.ts';
import { DEFAULT_IMPORT_SOURCES } from './import/import-sources.ts';
import type { MatchImporter } from './import/match-importer.ts';
import { logObsConnection } from './obs/obs-log.ts';
import { obsConnectionLive } from './obs/obs-socket.ts';
import {
  createDataDir,
  DataDirError,
  GAME_TOKEN_FILE,
  SIGN_IN_KEY_FILE,
  STATE_FILE,
  TOKEN_FILE,
  tidyDataDir,
} from './persistence/data-dir.ts';
import type { ServerPorts } from './persistence/data-dir-lock.ts';
import { DataDirLock } from './persistence/data-dir-lock.ts';
import { reasonOf } from './persistence/errno-words.ts';
import type { LoadedState, SavedState } from './persistence/saved-state.ts';
import { SAVED_STATE_VERSION } from './persistence/saved-state.ts';
import { STORAGE_OK, StateStore } from './persistence/state-store.ts';
import type { StoreFiles } from './persistence/store-files.ts';
import { realFiles } from './persistence/store-files.ts';
import { ServiceError } from './protocol/errors.ts';
import type { Settings, SettingsChange } from './protocol/settings.ts';
import { automationEnabled, brandingOf, gameSettings } from './settings/settings.ts';

const mitt = mittModule as unknown as typeof mittModule.default;

export { GAME_TOKEN_FILE, SIGN_IN_KEY_FILE, STATE_FILE, TOKEN_FILE };

export interface ServiceOptions {
  dataDir: string;
  logger: Logger;
  /** The main window counts as open and signed in (no application shell around the service). */
  headless: boolean;
  subscriptionActive: boolean;
  /**
   * Settings given on the command line or in the environment: they win over the saved ones for this
   * run (until the settings API changes the same field) and are never saved.
   */
  overrides?: SettingsChange;
  /** FACEIT Data API key (from the environment; never saved). */
  faceitApiKey?: string;
  /** Budget of one import (default the spec's 20 s); tests shorten it. */
  importTimeoutMs?: number;
  /** Replaces IO actors, for tests: the supervisor as the service would run it → the one to run. */
  machine?: (live: typeof supervisorMachine) => typeof supervisorMachine;
  inspect?: (event: InspectionEvent) => void;
  /** How long after the last game frame "receiving" ends (default RECEIVING_TIMEOUT_MS); tests shorten it. */
  gameReceivingTimeoutMs?: number;
  /** Wraps the store's file operations, for tests that make a write fail as a broken disk does. */
  storeFiles?: (real: StoreFiles) => StoreFiles;
}

export type ServiceEvents = {
  settings: Settings;
  /** The access token was regenerated: remote clients must come back with the new one. */
  token: undefined;
  /** The sign-in key was regenerated: every operator app browser is signed out. */
  signInKey: undefined;
  /** Something the operator app's status shows changed (a server opened or closed its port). */
  panel: undefined;
};

export interface Service {
  hud: HudSystem;
  hub: StateHub;
  store: StateStore;
  registry: CommandRegistry;
  dispatcher: Dispatcher;
  /** Game data from CS2: the live view, its status and what it tells the actors. */
  game: GameData;
  /** Reports of the application shell and the HUD overlay: loopback only. */
  internal: Dispatcher;
  /** The settings this run uses: the saved ones with the command line's overrides on top. */
  settings(): Settings;
  /** Changes the saved settings (and so the ones in use; a changed field is no longer overridden). */
  updateSettings(changes: SettingsChange): Promise<Settings>;
  /** The access token local-network devices must send. */
  token(): string;
  regenerateToken(): Promise<string>;
  /** The key of the operator app's sign-in address. */
  signInKey(): string;
  regenerateSignInKey(): Promise<string>;
  /** The operator app pages that make the main window open. */
  mainWindow: MainWindow;
  /** The data directory: the saved state, the secrets, the uploaded images. */
  dataDir: string;
  rateLimit: RateLimit;
  recent: RecentRequests;
  events: Emitter<ServiceEvents>;
  /** Where the servers listen: written to the data directory's lock for a second server and `app-url`. */
  announcePorts(ports: ServerPorts): Promise<void>;
  /** Stops the actors and saves; rejects when the last state could not be saved. */
  close(): Promise<void>;
}

const DEFAULT_SETTINGS: Settings = {
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

function hudInputFrom(
  saved: LoadedState | null,
  settings: Settings,
  host: Omit<HostInput, 'presets' | 'colorPresetId' | 'roster'>,
  now: number,
): HudInput {
  // Fields newer than the first saved states may be absent: absent is none. A part left out (it could
  // not be read) starts from its default.
  const { panels } = saved ?? {};
  const panel = (key: PanelId): PanelInput => ({ hideAt: null, ...panels?.[key] }) as PanelInput;
  return {
    host: {
      ...host,
      presets: saved?.host?.presets ?? [],
      colorPresetId: saved?.host?.colorPresetId ?? null,
      roster: saved?.host?.roster ?? [],
    },
    match: saved?.match ? { teamASide: MATCH_DEFAULTS.teamASide, ...saved.match } : MATCH_DEFAULTS,
    vetoSession: saved?.vetoSession ?? { session: null },
    vetoReveal: saved?.vetoReveal ? { beforeSession: null, ...saved.vetoReveal } : REVEAL_DEFAULTS,
    sceneWindow: saved?.sceneWindow ?? { scene: null },
    panels: panels
      ? {
          scoreboard: panel('scoreboard'),
          vetoPanel: panel('vetoPanel'),
          stats: panel('stats'),
          overlay: panel('overlay'),
        }
      : {
          scoreboard: { visible: null, hideAt: null },
          vetoPanel: { visible: null, hideAt: null },
          stats: { visible: null, hideAt: null },
          overlay: { visible: null, hideAt: null },
        },
    production: saved?.production ?? PRODUCTION_DEFAULTS,
    obs: settings.obs,
    now,
  };
}

/**
 * The saved state of the running actors. `settings` are the saved ones: what the command line
 * overrides for one run is never written. A part whose snapshots did not change since the last call
 * is the very same object, so the store serialises only what changed (state-store.ts).
 */
function savedStateBuilder(): (snapshots: Snapshots, revision: number, settings: Settings) => SavedState {
  const last = new Map<string, { from: unknown; part: unknown }>();
  /** The part `name` built from `from` (a context or a snapshot): the same object while `from` is. */
  const partOf = <T>(name: string, from: unknown, build: () => T): T => {
    let entry = last.get(name);
    if (!entry || entry.from !== from) {
      entry = { from, part: build() };
      last.set(name, entry);
    }
    return entry.part as T;
  };
  let panels: { parts: PanelInput[]; part: SavedState['panels'] } | null = null;
  return (snapshots, revision, settings) => {
    const parts = PANEL_IDS.map((key) =>
      partOf(key, snapshots[key], () => ({
        visible: snapshots[key].matches('unknown') ? null : snapshots[key].matches('shown'),
        hideAt: snapshots[key].context.hideAt,
      })),
    );
    if (!panels || parts.some((part, i) => part !== panels?.parts[i])) {
      const part = Object.fromEntries(PANEL_IDS.map((key, i) => [key, parts[i]])) as SavedState['panels'];
      panels = { parts, part };
    }
    const host = snapshots.host.context;
    const vetoSession = snapshots.vetoSession.context;
    return {
      version: SAVED_STATE_VERSION,
      savedAt: new Date().toISOString(),
      revision,
      settings,
      host: partOf('host', host, () => ({
        presets: host.presets,
        colorPresetId: host.colorPresetId,
        roster: host.roster,
      })),
      match: snapshots.match.context,
      vetoSession: partOf('vetoSession', vetoSession, () => ({ session: vetoSession.session })),
      vetoReveal: snapshots.vetoReveal.context,
      sceneWindow: snapshots.sceneWindow.context,
      panels: panels.part,
      production: snapshots.production.context,
    };
  };
}

/** A new secret in `file`; a write that fails is storage_failed and the current secret stays valid. */
async function replaceSecret(file: string, what: string): Promise<string> {
  try {
    return await regenerateToken(file);
  } catch (error) {
    if (!(error as NodeJS.ErrnoException).code) throw error;
    throw new ServiceError(
      'storage_failed',
      `the ${what} was not replaced: ${reasonOf(error, file)}; the current ${what} stays valid`,
    );
  }
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
  // A setting that could not be read starts from its default; the others are as saved.
  let savedSettings: Settings = { ...DEFAULT_SETTINGS, ...saved?.settings };
  let overrides = options.overrides ?? {};
  let settings = withChanges(savedSettings, overrides);

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
    gameReceiving: false,
  };

  const start = () =>
    startHudSystem({
      input: hudInputFrom(saved, settings, host, Date.now()),
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
    savedSettings = DEFAULT_SETTINGS;
    settings = withChanges(savedSettings, overrides);
    hud = start();
  }

  let stopObsLog = logObsConnection(hud.actor('obs'), logger);
  const hub = new StateHub(hud, saved?.revision ?? 0, STORAGE_OK);
  const savedStateOf = savedStateBuilder();
  try {
    await store.start({
      collect: () => savedStateOf(hub.snapshots(), hub.revision, savedSettings),
      // A write failed: the actors start again from the last saved state, which clients see as one
      // more revision, so nothing unsaved stays in memory as if it had been acknowledged.
      rollback(durable) {
        savedSettings = durable.settings;
        settings = withChanges(savedSettings, overrides);
        importer = null;
        const { mainWindowOpen, signedIn, subscriptionActive, gameReceiving } = hud.snapshot('host').context;
        const live = { mainWindowOpen, signedIn, subscriptionActive, gameReceiving };
        stopObsLog();
        hub.restartActors(() => hud.restart(hudInputFrom(durable, settings, live, Date.now())));
        stopObsLog = logObsConnection(hud.actor('obs'), logger);
      },
      status: (status) => hub.setStorage(status),
    });
  } catch (error) {
    stopObsLog();
    hub.close();
    hud.stop();
    await store.abandon();
    throw new DataDirError(
      `cannot write to the data directory ${dataDir}: ${reasonOf(error, join(dataDir, STATE_FILE))}`,
    );
  }
  hub.emitter.on('changed', () => void store.requestSave());
  const game = new GameData({
    hud,
    hub,
    token: await loadOrCreateToken(join(dataDir, GAME_TOKEN_FILE)),
    slotNumbering: () => gameSettings(settings).slotNumbering,
    ...defined({ receivingTimeoutMs: options.gameReceivingTimeoutMs }),
  });
  const registry = new CommandRegistry();
  const dispatcher = new Dispatcher(registry, hud, hub, store, game);
  const internal = new Dispatcher(
    new CommandRegistry(INTERNAL_COMMANDS),
    hud,
    hub,
    store,
    game,
    `the reports of /internal/<report> are ${INTERNAL_COMMANDS.map((command) => command.id).join(', ')}`,
  );
  const events = mitt<ServiceEvents>();
  const tokenFile = join(dataDir, TOKEN_FILE);
  let token = await loadOrCreateToken(tokenFile);
  const signInKeyFile = join(dataDir, SIGN_IN_KEY_FILE);
  let signInKey = await loadOrCreateToken(signInKeyFile);
  const mainWindow = new MainWindow(hud, options.headless);

  return {
    hud,
    hub,
    store,
    game,
    registry,
    dispatcher,
    internal,
    events,
    settings: () => settings,
    token: () => token,
    async regenerateToken() {
      token = await replaceSecret(tokenFile, 'access token');
      logger.info('access token regenerated: local-network devices must use the new one');
      events.emit('token', undefined);
      return token;
    },
    signInKey: () => signInKey,
    async regenerateSignInKey() {
      signInKey = await replaceSecret(signInKeyFile, 'sign-in key');
      mainWindow.signOutAll();
      events.emit('signInKey', undefined);
      return signInKey;
    },
    mainWindow,
    dataDir,
    rateLimit: new RateLimit(),
    recent: new RecentRequests(),
    async updateSettings(changes) {
      savedSettings = withChanges(savedSettings, changes);
      overrides = withoutChanged(overrides, changes);
      const next = withChanges(savedSettings, overrides);
      if (next.lanMode !== settings.lanMode)
        logger.info({ lanMode: next.lanMode }, `local network mode ${next.lanMode ? 'on' : 'off'}`);
      settings = next;
      if (changes.obs) hud.send('obs', { type: 'obs.configure', ...next.obs });
      if (changes.sources) importer = null;
      events.emit('settings', next);
      await store.requestSave();
      return next;
    },
    announcePorts: (ports) => lock.setPorts(ports),
    async close() {
      mainWindow.close();
      game.close();
      hub.close();
      stopObsLog();
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
