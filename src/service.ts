/**
 * The service's wiring: the actors from the saved state, the revision hub, the store, the
 * dispatcher and its catalogues, the settings, the secrets and the game data. Nothing here decides
 * anything; each part owns its rules (docs/architecture.md).
 */
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import type { Logger } from 'pino';
import type { InspectionEvent } from 'xstate';
import { fromPromise } from 'xstate';
import { gameMachine, RECEIVING_TIMEOUT_MS } from '../machines/game.machine.ts';
import { gameRecorderMachine } from '../machines/game-recorder.machine.ts';
import { matchMachine } from '../machines/match.machine.ts';
import type { NetconAddress } from '../machines/observer.machine.ts';
import { supervisorMachine } from '../machines/supervisor.machine.ts';
import type { ImportedVeto, ImportRequest } from '../machines/veto-session.machine.ts';
import { vetoSessionMachine } from '../machines/veto-session.machine.ts';
import type { Access } from './access/access.ts';
import { loadOrCreateToken } from './access/access-token.ts';
import { RateLimit } from './access/rate-limit.ts';
import { RecentRequests } from './access/recent-requests.ts';
import { Secrets } from './access/secrets.ts';
import { Sessions } from './access/sessions.ts';
import { INTERNAL_COMMANDS } from './core/commands/internal.commands.ts';
import { CommandRegistry } from './core/commands/registry.ts';
import { SETTINGS_COMMANDS } from './core/commands/settings.commands.ts';
import type { Catalogue, Dispatch } from './core/dispatcher.ts';
import { Dispatcher } from './core/dispatcher.ts';
import type { HudSystem, SnapshotOf } from './core/hud-system.ts';
import { ACTOR_KEYS, startHudSystem } from './core/hud-system.ts';
import { MainWindow } from './core/main-window.ts';
import type { NoticeBus } from './core/notices.ts';
import { createNoticeBus } from './core/notices.ts';
import { StateHub } from './core/state-hub.ts';
import { TeamsDatabase } from './core/teams-database.ts';
import { GameData } from './game/game-data.ts';
import type { LogoFetchOptions } from './import/logo-fetch.ts';
import { createLogoFetch, fetchLogo, LOGO_FETCH_TIMEOUT_MS } from './import/logo-fetch.ts';
import type { MatchImporter } from './import/match-importer.ts';
import { logObsConnection } from './obs/obs-log.ts';
import { obsConnectionLive } from './obs/obs-socket.ts';
import { createObserverLive } from './observer/netcon-socket.ts';
import {
  createDataDir,
  DataDirError,
  GAME_TOKEN_FILE,
  oldCopiesIn,
  STATE_FILE,
  scrubOldCopies,
  tidyDataDir,
} from './persistence/data-dir.ts';
import type { ServerPorts } from './persistence/data-dir-lock.ts';
import { DataDirLock } from './persistence/data-dir-lock.ts';
import { reasonOf } from './persistence/errno-words.ts';
import type { MediaQuota } from './persistence/media-store.ts';
import { MEDIA_GRACE_MS, MEDIA_QUOTA, MediaStore } from './persistence/media-store.ts';
import { RevisionLease } from './persistence/revision-lease.ts';
import type { LiveHost } from './persistence/saved-input.ts';
import { hudInputFrom, savedChange, savedStateSource } from './persistence/saved-input.ts';
import type { LoadedState } from './persistence/saved-state.ts';
import { STORAGE_OK, StateStore } from './persistence/state-store.ts';
import type { StoreFiles } from './persistence/store-files.ts';
import { realFiles } from './persistence/store-files.ts';
import { loadTeamsFile, writeTeamsFile } from './persistence/teams-file.ts';
import type { ActionDescriptor } from './protocol/answers.ts';
import { ServiceError } from './protocol/errors.ts';
import { mediaUrl } from './protocol/media.ts';
import type { SettingsChange } from './protocol/settings.ts';
import { createFrameReplayer, createFrameWriter, RecordingsFolder } from './recorder/recordings.ts';
import { gameSettings } from './settings/settings.ts';
import { DEFAULT_SETTINGS, SettingsOwner } from './settings/settings-owner.ts';
import { PlayerStatsLookup } from './stats/player-stats-lookup.ts';

export interface ServiceOptions {
  dataDir: string;
  logger: Logger;
  /** The main window counts as open and signed in (no application shell around the service). */
  headless: boolean;
  subscriptionActive: boolean;
  /**
   * Settings given on the command line or in the environment: they win over the saved ones for this
   * run (until the settings command changes the same field) and are never saved.
   */
  overrides?: SettingsChange;
  /** FACEIT Data API key (from the environment; never saved). */
  faceitApiKey?: string;
  /** Budget of one import (default the spec's 20 s); tests shorten it. */
  importTimeoutMs?: number;
  /** Budget of one player-stats lookup (default STATS_LOOKUP_TIMEOUT_MS); tests shorten it. */
  statsTimeoutMs?: number;
  /** Budget of one team logo fetch (default LOGO_FETCH_TIMEOUT_MS); tests shorten it. */
  logoTimeoutMs?: number;
  /** Replaces IO actors, for tests: the supervisor as the service would run it → the one to run. */
  machine?: (live: typeof supervisorMachine) => typeof supervisorMachine;
  inspect?: (event: InspectionEvent) => void;
  /** How long after the last game frame "receiving" ends (default RECEIVING_TIMEOUT_MS); tests shorten it. */
  gameReceivingTimeoutMs?: number;
  /** Wraps the store's file operations, for tests that make a write fail as a broken disk does. */
  storeFiles?: (real: StoreFiles) => StoreFiles;
  /** Revisions per lease (default LEASE_BLOCK); tests make it small to use up blocks. */
  leaseBlock?: number;
  /** The game console's address for this run (`--netcon`): wins over the saved one, never saved. */
  netcon?: NetconAddress;
  /** The media store's bounds (default MEDIA_QUOTA); tests make them small. */
  mediaQuota?: MediaQuota;
  /** How long a new image is kept though nothing uses it (default MEDIA_GRACE_MS); tests shorten it. */
  mediaGraceMs?: number;
  /** The game data's clock, the frames' arrival times (default Date.now); tests step it. */
  gameClock?: () => number;
  /** Where a recording of game data stops (default RECORDING_LIMIT_BYTES); tests shorten it. */
  recordingLimitBytes?: number;
}

export interface Service {
  hud: HudSystem;
  /** The revision, the HUD state and the snapshots the read routes answer from; the events. */
  hub: StateHub;
  store: StateStore;
  /** The public commands, as GET /api/actions lists them. */
  catalogue: readonly ActionDescriptor[];
  /** The schema of each public command's result that declares one (a typed HTTP answer). */
  results: ReadonlyMap<string, TSchema>;
  /** The public commands (POST /api/actions/<action>, WebSocket triggers). */
  commands: Dispatch;
  /** The reports of the application shell and the HUD overlay (/internal/<report>, WebSocket report). */
  reports: Dispatch;
  /** The settings command of the panel API (POST /internal/settings, POST /api/panel/settings). */
  panel: Dispatch;
  /** Game data from CS2: the live view, its status and what it tells the actors. */
  game: GameData;
  /** What happens without a revision: notices, and the live game's messages (src/core/notices.ts). */
  notices: NoticeBus;
  settings: SettingsOwner;
  secrets: Secrets;
  /** The operator app's signed-in browsers. */
  sessions: Sessions;
  /** The operator app pages that make the main window open. */
  mainWindow: MainWindow;
  /** The data directory: the saved state, the secrets, the uploaded images. */
  dataDir: string;
  /** The uploaded images and the fetched team logos. */
  media: MediaStore;
  /** The database of teams and players (teams.json). */
  teams: TeamsDatabase;
  /** What the access checks read: the mode, the token, the budgets, the recent requests. */
  access: Access;
  /** Where the servers listen: written to the data directory's lock for a second server and `app-url`. */
  announcePorts(ports: ServerPorts): Promise<void>;
  /** Stops the actors and saves; rejects when the last state could not be saved. */
  close(): Promise<void>;
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
  const oldCopies = await oldCopiesIn(dataDir);
  const store = await StateStore.open(dataDir, files, logger);
  await scrubPasswordCopies(dataDir, oldCopies, store.loaded, logger);
  const settings = new SettingsOwner(store.loaded?.settings, options.overrides ?? {}, logger);
  const notices = createNoticeBus();
  const media = await MediaStore.open(dataDir, {
    quota: options.mediaQuota ?? MEDIA_QUOTA,
    graceMs: options.mediaGraceMs ?? MEDIA_GRACE_MS,
    // The state as it is saved, the settings in force (the saved ones and this run's overrides), and
    // the photos and logos of the teams and players (asked when an image needs room, after the start).
    inUse: () => [store.current(), settings.current(), teams.document()],
  });
  // Its own file: damage there costs the teams and players only, never the saved state.
  const teams = new TeamsDatabase(await loadTeamsFile(dataDir, logger), {
    write: (document) => writeTeamsFile(dataDir, document),
    fetchImage: (url) => fetchLogo(url, imageStoreOf(media, options, 'image')),
    // Loaded with the first read, as the veto importers are: a start never loads the HTML parser.
    readRosters: async (source) =>
      (await import('./import/rosters.ts')).readRosters(source, {
        sources: () => ({
          ...settings.current().sources,
          ...(options.faceitApiKey === undefined ? {} : { faceitApiKey: options.faceitApiKey }),
        }),
        ...(options.importTimeoutMs === undefined ? {} : { timeoutMs: options.importTimeoutMs }),
      }),
  });
  const importer = importerOf(settings, options);
  const receivingTimeoutMs = options.gameReceivingTimeoutMs ?? RECEIVING_TIMEOUT_MS;
  const recordings = new RecordingsFolder(dataDir, options.recordingLimitBytes);
  const recorder = gameRecorderMachine.provide({
    actors: {
      frameWriter: createFrameWriter(recordings, Date.now),
      // The game data is made once the actors run; a replay starts from a command, after that.
      frameReplayer: createFrameReplayer(() => (frame, at, file) => game.replay(frame, at, file), Date.now),
    },
  });
  const live = liveSupervisor(media, importer.actor, receivingTimeoutMs, recorder, options);
  const machine = options.machine ? options.machine(live) : live;
  const netconOverride = options.netcon ?? null;
  /** The actors' input from a saved state (or none) and what the application reports now. */
  const inputOf = (from: LoadedState | null, host: LiveHost) =>
    hudInputFrom(from, settings.current().obs, host, Date.now(), netconOverride);
  const startHost: LiveHost = {
    mainWindowOpen: options.headless,
    signedIn: options.headless,
    subscriptionActive: options.subscriptionActive,
    gameReceiving: false,
  };
  const { hud, saved } = await startActors(store, settings, (from) =>
    startHudSystem({
      input: inputOf(from, startHost),
      machine,
      ...(options.inspect ? { inspect: options.inspect } : {}),
    }),
  );

  // The recordings folder as it is at start, before the hub counts revisions.
  // A folder that cannot be read is said when a recording is asked for, not a reason not to start.
  const recordedBefore = await recordings.list().catch((error: unknown) => {
    logger.warn({ err: error }, 'recordings: the folder could not be listed');
    return [];
  });
  hud.send('recorder', { type: 'recorder.files', recordings: recordedBefore });

  // Follows the OBS actor across a rollback's restart (hud.follow), so it is wired once.
  const stopObsLog = logObsConnection(
    {
      getSnapshot: () => hud.snapshot('obs'),
      subscribe: (listener) => ({ unsubscribe: hud.follow('obs', listener) }),
    },
    logger,
  );
  // Revisions sent before a crash may be above the saved one: go on above every one of them.
  const lease = await RevisionLease.open(dataDir, saved?.revision ?? 0, logger, options.leaseBlock);
  const hub = new StateHub(
    hud,
    settings.current(),
    teams.document(),
    Math.max(saved?.revision ?? 0, lease.startAt),
    STORAGE_OK,
    (revision) => lease.cover(revision),
    notices,
  );
  const collect = savedStateSource(hub, settings, saved, netconOverride);
  try {
    await lease.take(hub.revision);
    await store.start({
      collect,
      // A write failed: the actors start again from the last saved state, which clients see as one
      // more revision, so nothing unsaved stays in memory as if it had been acknowledged.
      rollback(durable) {
        settings.restore(durable.settings);
        importer.reset();
        const { mainWindowOpen, signedIn, subscriptionActive, gameReceiving } = hud.snapshot('host').context;
        const liveHost = { mainWindowOpen, signedIn, subscriptionActive, gameReceiving };
        // The settings and the actors as saved, as one revision.
        hub.batch(() => {
          hub.setSettings(settings.current());
          hub.restartActors(() => hud.restart(inputOf(durable, liveHost)));
        });
        // The recorder starts again idle (a recording running is closed as it stood): its list is the folder's.
        void recordings.list().then(
          (files) => hud.send('recorder', { type: 'recorder.files', recordings: files }),
          () => {},
        );
      },
      status: (status) => {
        hub.setStorage(status);
        // The disk takes writes again: the game actor applies the frame it held meanwhile.
        if (status.ok) hub.batch(() => hud.send('game', { type: 'game.storage.restored' }));
      },
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
  const savedChanged = savedChange(hub.snapshots(), saved, netconOverride);
  hub.emitter.on('changed', ({ sources, snapshots }) => {
    if (savedChanged(sources, snapshots)) void store.requestSave();
  });
  const stats = statsLookupOf(settings, options);
  // A settings change: clients see it with a new revision, OBS reconnects with new settings, the
  // next import uses new sources, and the change is saved before the other listeners hear of it
  // (the servers rebind after this).
  settings.onChange((next, changes) => {
    hub.setSettings(next);
    if (changes.obs) hud.send('obs', { type: 'obs.configure', ...next.obs });
    if (changes.sources) {
      importer.reset();
      stats.reset();
    }
    return store.requestSave();
  });

  // Separate files: read (or made, a synced write each on a first start) side by side.
  const [gameToken, secrets, sessions] = await Promise.all([
    loadOrCreateToken(join(dataDir, GAME_TOKEN_FILE)),
    Secrets.load(dataDir, notices),
    Sessions.load(dataDir, notices),
  ]);
  const game = new GameData({
    hud,
    hub,
    notices,
    token: gameToken,
    slotNumbering: () => gameSettings(settings.current()).slotNumbering,
    storage: () => store.status,
    mapFigures: hud.snapshot('host').context.mapFigures,
    receivingTimeoutMs,
    replaying: () => hud.snapshot('recorder').context.replay !== null,
    // Only while a recording runs: in its other states the recorder takes no frame, and sending it
    // each one would be a step of its machine (and a line of the Machines view) for nothing.
    accepted: (frame, at) => {
      if (hud.snapshot('recorder').matches('recording'))
        hud.send('recorder', { type: 'recorder.frame', frame, at });
    },
    identityOf: (steamid) => teams.identityOf(steamid),
    ...(options.gameClock ? { now: options.gameClock } : {}),
  });
  const stopRecorderFollow = hud.follow('recorder', relistWhenRecordingEnds(hud, recordings, logger));
  teams.onChange(() => {
    hub.setTeams(teams.document());
    game.refreshIdentities();
  });
  const mainWindow = new MainWindow(hud, options.headless);
  notices.on('secret.regenerated', (name) => {
    if (name === 'token') logger.info('access token regenerated: local-network devices must use the new one');
    if (name !== 'signInKey') return;
    // A new sign-in key signs every browser out: their sessions end at once (in memory, then the file).
    mainWindow.signOutAll();
    sessions
      .endAll()
      .catch((error: unknown) => logger.error({ err: error }, 'the ended sessions were not saved'));
  });

  const dispatcher = new Dispatcher({ hud, hub, notices, game, stats, settings, recordings, teams }, store);
  const through =
    (catalogue: Catalogue): Dispatch =>
    (action, payload, caller) =>
      dispatcher.dispatch(catalogue, action, payload, caller);
  const commands = new CommandRegistry();
  const reports = new CommandRegistry(INTERNAL_COMMANDS);

  return {
    hud,
    hub,
    store,
    game,
    notices,
    catalogue: commands.catalogue,
    results: commands.results,
    commands: through({ registry: commands, listed: 'GET /api/actions lists them' }),
    reports: through({
      registry: reports,
      listed: `the reports of /internal/<report> are ${INTERNAL_COMMANDS.map((command) => command.id).join(', ')}`,
    }),
    panel: through({
      registry: new CommandRegistry(SETTINGS_COMMANDS),
      listed: 'the panel API changes settings',
    }),
    settings,
    secrets,
    sessions,
    mainWindow,
    dataDir,
    media,
    teams,
    access: {
      lanMode: () => settings.current().lanMode,
      token: () => secrets.token(),
      rateLimit: new RateLimit(),
      recent: new RecentRequests(notices),
    },
    announcePorts: (ports) => {
      game.automationPort(ports.port);
      return lock.setPorts(ports);
    },
    async close() {
      mainWindow.close();
      stopRecorderFollow();
      game.close();
      hub.close();
      stopObsLog();
      hud.stop();
      settings.close();
      await sessions.close();
      notices.all.clear();
      try {
        await store.close();
        // Only once the last state is saved: the next start goes on from its revision.
        await lease.settle(hub.revision);
      } finally {
        await lock.release();
      }
    },
  };
}

/** Removes the OBS password from old copies of the saved state (files of versions that kept it there). */
async function scrubPasswordCopies(
  dataDir: string,
  oldCopies: string[],
  loaded: LoadedState | null,
  logger: Logger,
): Promise<void> {
  const scrubbed = await scrubOldCopies(dataDir, oldCopies, loaded?.settings?.obs?.password ?? '');
  if (scrubbed.length === 0) return;
  logger.info(
    { files: scrubbed },
    `removed the OBS password from ${scrubbed.length} old copies of the saved state`,
  );
}

/**
 * Starts the actors from the loaded state. A saved state that a machine cannot take (a state that
 * no longer exists) leaves that child in error: then the files are moved aside and everything
 * starts from the defaults, the settings too.
 */
async function startActors(
  store: StateStore,
  settings: SettingsOwner,
  start: (from: LoadedState | null) => HudSystem,
): Promise<{ hud: HudSystem; saved: LoadedState | null }> {
  const saved = store.loaded;
  const hud = start(saved);
  const broken = ACTOR_KEYS.filter((key) => hud.actor(key).getSnapshot().status === 'error');
  if (!saved || broken.length === 0) return { hud, saved };
  hud.stop();
  await store.discard('unusable', `actors ${broken.join(', ')} could not start from it`);
  settings.restore({ ...DEFAULT_SETTINGS });
  return { hud: start(null), saved: null };
}

/** The supervisor with its IO actors: the logo fetch, the importer, the OBS socket, the game console. */
function liveSupervisor(
  media: MediaStore,
  matchImport: ReturnType<typeof importerOf>['actor'],
  receivingTimeoutMs: number,
  recorder: typeof gameRecorderMachine,
  options: ServiceOptions,
) {
  const { logger } = options;
  return supervisorMachine.provide({
    actors: {
      match: matchMachine.provide({ actors: { logoFetch: logoFetchOf(media, options) } }),
      vetoSession: vetoSessionMachine.provide({ actors: { matchImport } }),
      obs: obsConnectionLive,
      game: gameMachine.provide({ delays: { receivingTimeout: receivingTimeoutMs } }),
      recorder,
      observer: createObserverLive({
        onLine: (line) => logger.debug({ line }, 'observer: sent to the game console'),
        onRefused: (steamid) => logger.info({ steamid }, 'observer: no account id, the camera is not moved'),
      }),
    },
  });
}

/** A recording that ended by itself (its limit, the disk): the list shows the file as it was left. */
function relistWhenRecordingEnds(hud: HudSystem, recordings: RecordingsFolder, logger: Logger) {
  let wasRecording = false;
  return (snapshot: SnapshotOf<'recorder'>) => {
    const recording = snapshot.context.recording !== null;
    if (wasRecording && !recording)
      void recordings.list().then(
        (files) => hud.send('recorder', { type: 'recorder.files', recordings: files }),
        (error: unknown) => logger.warn({ err: error }, 'recordings: the folder could not be listed'),
      );
    wasRecording = recording;
  };
}

/** The player-stats providers of show_player_stats, with the sources in force. */
function statsLookupOf(settings: SettingsOwner, options: ServiceOptions): PlayerStatsLookup {
  return new PlayerStatsLookup({
    faceit: () => {
      const { faceitDataApiUrl, faceitKeyHost } = settings.current().sources;
      return { dataApiUrl: faceitDataApiUrl, keyHost: faceitKeyHost, apiKey: options.faceitApiKey };
    },
    ...(options.statsTimeoutMs === undefined ? {} : { timeoutMs: options.statsTimeoutMs }),
    onBackgroundFailure: (player, error) =>
      options.logger.info({ steamid: player.steamid, error: error.message }, 'player stats: a lookup failed'),
  });
}

/** The team logos, fetched once into the data directory's media store (docs/application.md, "Team logos"). */
function logoFetchOf(media: MediaStore, options: ServiceOptions) {
  return createLogoFetch(imageStoreOf(media, options, 'logo'));
}

/** A fetched image (a team logo, a player's photo) kept in the media store. */
function imageStoreOf(media: MediaStore, options: ServiceOptions, what: string): LogoFetchOptions {
  return {
    timeoutMs: options.logoTimeoutMs ?? LOGO_FETCH_TIMEOUT_MS,
    async store(bytes, type) {
      try {
        return mediaUrl(await media.store(bytes, type));
      } catch (error) {
        throw new ServiceError(
          'storage_failed',
          `the ${what} loaded but could not be kept: ${error instanceof ServiceError ? error.message : reasonOf(error, media.dir)}`,
        );
      }
    },
  };
}

/**
 * The importers (and their HTML parser) load on the first import, not at start-up; a change of the
 * source settings makes the next import use a new one.
 */
function importerOf(settings: SettingsOwner, options: ServiceOptions) {
  let importer: Promise<MatchImporter> | null = null;
  const current = () =>
    (importer ??= import('./import/match-importer.ts').then(({ createMatchImporter }) =>
      createMatchImporter({
        sources: {
          ...settings.current().sources,
          ...(options.faceitApiKey === undefined ? {} : { faceitApiKey: options.faceitApiKey }),
        },
        ...(options.importTimeoutMs === undefined ? {} : { timeoutMs: options.importTimeoutMs }),
      }),
    ));
  return {
    actor: fromPromise<ImportedVeto, ImportRequest>(async ({ input, signal }) =>
      (await current()).importMatch(input, signal),
    ),
    reset: () => {
      importer = null;
    },
  };
}
