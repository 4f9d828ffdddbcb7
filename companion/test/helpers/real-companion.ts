/**
 * A real Bitfocus Companion for the end-to-end test: built once from the source archive in
 * ../shared/companion/ into a cache outside the repository (scripts/build-real-companion.sh, which
 * runs the shared script's own build steps), started headless with this module as a packaged
 * developer module, and driven as its web UI and a Stream Deck are: its admin tRPC API over
 * WebSocket (connections, presets on buttons, statuses, button faces, import) and its HTTP API
 * (press a button, read a variable).
 *
 *   const found = findCompanion();            // { archive?, build? } or { skip: why }
 *   const companion = await startCompanion(await buildCompanion(found), { moduleDir });
 *   const id = await companion.addConnection('hud', { host, port, token: '' });
 *   await companion.press({ pageNumber: 1, row: 0, column: 0 });
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { httpJson } from './hud-server.ts';

export const COMPANION_VERSION = '4.2.6';
const MODULE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARCHIVE_NAME = `companion-v${COMPANION_VERSION}.tar.gz`;
const READY_TIMEOUT_MS = 120_000;
/** Every host name Companion looks up resolves to loopback (see loopback-only.mjs). */
const LOOPBACK_ONLY = fileURLToPath(new URL('./loopback-only.mjs', import.meta.url));

/** Where builds are kept: HUD_COMPANION_CACHE, else $XDG_CACHE_HOME or ~/.cache, under hud-automation/. */
export const CACHE_ROOT = resolve(
  process.env.HUD_COMPANION_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'hud-automation'),
);

/** The source archive: HUD_COMPANION_ARCHIVE, else ../shared/companion/ beside the repository. */
export const ARCHIVE = resolve(
  process.env.HUD_COMPANION_ARCHIVE ?? join(MODULE_ROOT, '..', '..', 'shared', 'companion', ARCHIVE_NAME),
);

/** In CI (CI=true) or with HUD_REQUIRE_COMPANION=1 a missing Companion is a failure, not a skip. */
export const COMPANION_REQUIRED = process.env.CI === 'true' || process.env.HUD_REQUIRE_COMPANION === '1';

export type Found = { archive: string; dir: string } | { dir: string } | { skip: string };

function sha256Prefix(file: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => done(hash.digest('hex').slice(0, 16)))
      .on('error', fail);
  });
}

const isComplete = (dir: string) => existsSync(join(dir, '.complete'));

/**
 * The build to use: the one keyed by the archive's hash (built when missing), or without the
 * archive any complete cached build of this version, or why there is none.
 */
export async function findCompanion(): Promise<Found> {
  if (existsSync(ARCHIVE)) {
    return { archive: ARCHIVE, dir: join(CACHE_ROOT, `companion-${COMPANION_VERSION}-${await sha256Prefix(ARCHIVE)}`) };
  }
  const cached = existsSync(CACHE_ROOT)
    ? readdirSync(CACHE_ROOT)
        .filter((name) => name.startsWith(`companion-${COMPANION_VERSION}-`) && !name.endsWith('.lock'))
        .map((name) => join(CACHE_ROOT, name))
        .find(isComplete)
    : undefined;
  if (cached) return { dir: cached };
  return {
    skip:
      `no Companion ${COMPANION_VERSION}: neither its source archive (${ARCHIVE}, or HUD_COMPANION_ARCHIVE) ` +
      `nor a cached build (${CACHE_ROOT}/companion-${COMPANION_VERSION}-*, or HUD_COMPANION_CACHE) is here`,
  };
}

export interface CompanionBuild {
  /** The cache folder: node-v22…/, companion/ (the built checkout). */
  dir: string;
  node: string;
  /** Companion's own package folder (dist/main.js). */
  app: string;
  /** What building took, or "cached". */
  built: string;
}

/** Builds Companion into its cache folder unless a complete build is there; the log goes to build.log. */
export async function buildCompanion(found: { archive?: string; dir: string }): Promise<CompanionBuild> {
  let built = 'cached';
  if (!isComplete(found.dir)) {
    if (!found.archive) throw new Error(`${found.dir} is not a complete build and there is no archive`);
    const started = Date.now();
    await mkdir(found.dir, { recursive: true });
    const log = join(`${found.dir}.build.log`);
    await new Promise<void>((done, fail) => {
      const out = createWriteStream(log);
      const child = spawn('bash', [join(MODULE_ROOT, 'scripts', 'build-real-companion.sh'), found.archive as string, found.dir], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CI: '' }, // CI=true makes yarn refuse the patched lockfile
      });
      child.stdout.pipe(out);
      child.stderr.pipe(out);
      child.once('exit', (code) =>
        code === 0 ? done() : fail(new Error(`building Companion failed (${code}): see ${log}`)),
      );
    });
    built = `built in ${Math.round((Date.now() - started) / 1000)} s (log: ${log})`;
  }
  const nodeDir = readdirSync(found.dir).find((name) => /^node-v22\.[\d.]+-linux-x64$/.test(name));
  if (!nodeDir) throw new Error(`no Node 22 in ${found.dir}`);
  return {
    dir: found.dir,
    node: join(found.dir, nodeDir, 'bin', 'node'),
    app: join(found.dir, 'companion', 'companion'),
    built,
  };
}

/** Installs a packaged module (`npm run package`'s pkg/) as Companion loads a developer module. */
export async function installDevModule(pkgDir: string): Promise<string> {
  const modules = await mkdtemp(join(tmpdir(), 'companion-devmodules-'));
  await cp(pkgDir, join(modules, 'hud-automation', 'pkg'), { recursive: true });
  // Load pkg/ (the bundled build, as an imported package is) instead of the source folder.
  await writeFile(join(modules, 'hud-automation', 'DEBUG-PACKAGED'), '');
  return modules;
}

export interface Location {
  pageNumber: number;
  row: number;
  column: number;
}

export interface ConnectionStatus {
  category: string | null;
  level: string | null;
  message: string | null;
}

export interface ConnectionConfig {
  host: string;
  port: number;
  token: string;
  variablesGame?: boolean;
  variablesPlayers?: boolean;
}

type Trpc = any;

export interface PresetWatch {
  /** The connection's presets once `has` accepts them (30 s at most); the watch ends then. */
  until(has: (presets: Record<string, any>) => boolean): Promise<Record<string, any>>;
}

export interface RealCompanion {
  readonly port: number;
  readonly version: string;
  readonly output: string[];
  readonly trpc: Trpc;
  addConnection(label: string, config: ConnectionConfig): Promise<string>;
  setConfig(connectionId: string, label: string, config: ConnectionConfig): Promise<void>;
  /**
   * Follows the connection's presets from now on: resolves once Companion sent what it has, so a
   * change made after that reaches `until` as one of Companion's patches.
   */
  watchPresets(connectionId: string): Promise<PresetWatch>;
  placePreset(connectionId: string, presetId: string, location: Location): Promise<string>;
  /** `POST /api/location/<page>/<row>/<col>/press`: a Stream Deck key press. */
  press(location: Location): Promise<void>;
  /** `GET /api/variable/<label>/<name>/value`. */
  variable(label: string, name: string): Promise<string>;
  waitForVariable(label: string, name: string, expected: (value: string) => boolean, what: string): Promise<string>;
  waitForStatus(connectionId: string, expected: (status: ConnectionStatus) => boolean, what: string): Promise<ConnectionStatus>;
  /** The button's face as Companion renders it: a PNG data URL. */
  face(location: Location): Promise<string>;
  /** Companion's export of a page (`/int/export/page/<n>?format=json`). */
  exportPage(pageNumber: number): Promise<any>;
  /** Imports a page export as the web UI's Import does (upload, then import to a page). */
  importPage(exported: unknown, targetPage: number): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** Resolves a package from Companion's own node_modules (its tRPC client speaks its API). */
async function companionImport(build: CompanionBuild, name: string): Promise<any> {
  const require = createRequire(join(build.app, 'package.json'));
  return import(pathToFileURL(require.resolve(name)).href);
}

/** A free TCP port on loopback (in a namespace of its own every port is free anyway). */
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

export async function waitUntil<T>(
  read: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    // Companion's HTTP API has no change feed for variables: poll, briefly.
    await new Promise((done) => setTimeout(done, 100));
  }
}

export interface CompanionPlace {
  /** A network namespace to run Companion in (a desk on another machine), with its address there. */
  namespace: string;
  address: string;
}

export async function startCompanion(
  build: CompanionBuild,
  options: { modules: string; place?: CompanionPlace },
): Promise<RealCompanion> {
  const port = await freePort();
  const address = options.place?.address ?? '127.0.0.1';
  const configDir = await mkdtemp(join(tmpdir(), 'companion-config-'));
  const output: string[] = [];
  const command = [
    build.node,
    [
      '--import',
      pathToFileURL(LOOPBACK_ONLY).href,
      'dist/main.js',
      '--admin-address',
      address,
      '--admin-port',
      String(port),
      '--config-dir',
      configDir,
      '--extra-module-path',
      options.modules,
      '--log-level',
      'info',
    ],
  ] as const;
  const [file, args] = options.place
    ? ['ip', ['netns', 'exec', options.place.namespace, command[0], ...command[1]]]
    : [command[0], [...command[1]]];
  const child: ChildProcess = spawn(file, args, {
    cwd: build.app,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, COMPANION_DEV_MODULES: '1' },
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const host = address.includes(':') ? `[${address}]` : address;
  const base = `http://${host}:${port}`;
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`Companion exited (${child.exitCode}):\n${output.join('')}`);
        return httpJson(`${base}/`).then(
          (answer) => (answer.status === 200 ? true : undefined),
          () => undefined,
        );
      },
      'Companion to answer HTTP',
      READY_TIMEOUT_MS,
    );
  } catch (error) {
    child.kill('SIGTERM');
    throw new Error(`${(error as Error).message}\n${output.join('').slice(-4000)}`);
  }

  const { createTRPCClient, createWSClient, wsLink } = await companionImport(build, '@trpc/client');
  const wsClient = createWSClient({ url: `ws://${host}:${port}/trpc`, WebSocket });
  const trpc: Trpc = createTRPCClient({ links: [wsLink({ client: wsClient })] });
  const { appVersion } = await trpc.appInfo.version.query();
  const { default: jsonPatch } = await companionImport(build, 'fast-json-patch');

  /** The first value of a subscription that `pick` accepts. */
  function first<T>(
    subscription: any,
    input: unknown,
    pick: (data: any) => T | undefined,
    what: string,
    timeoutMs = 30_000,
  ): Promise<T> {
    return new Promise((done, fail) => {
      let sub: { unsubscribe(): void } | undefined;
      const timer = setTimeout(() => {
        sub?.unsubscribe();
        fail(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      sub = subscription.subscribe(input, {
        onData: (data: unknown) => {
          const value = pick(data);
          if (value === undefined) return;
          clearTimeout(timer);
          // Unsubscribing inside onData is deferred so tRPC finishes its own bookkeeping first.
          queueMicrotask(() => sub?.unsubscribe());
          done(value);
        },
        onError: (error: Error) => {
          clearTimeout(timer);
          fail(error);
        },
      });
    });
  }

  const companion: RealCompanion = {
    port,
    version: appVersion,
    output,
    trpc,
    async addConnection(label, config) {
      const connectionId: string = await trpc.instances.connections.add.mutate({
        module: { type: 'hud-automation' },
        label,
        versionId: 'dev',
      });
      await companion.setConfig(connectionId, label, config);
      return connectionId;
    },
    async setConfig(connectionId, label, config) {
      const error = await trpc.instances.connections.setConfig.mutate({
        connectionId,
        label,
        enabled: true,
        config,
      });
      if (error) throw new Error(`setConfig: ${error}`);
    },
    watchPresets(connectionId) {
      const latest: Record<string, Record<string, any>> = {};
      let check: (() => void) | undefined;
      return new Promise((started, fail) => {
        const sub = trpc.instances.definitions.presets.subscribe(undefined, {
          onData: (data: any) => {
            // Companion 4.2's preset stream (lib/Instance/Definitions.ts): 'init' with every
            // connection's presets, 'add' for a connection's first, then 'patch' with the diff of
            // shared-lib/lib/Diff.ts ({ added, changed: JSON patches per preset, removed }).
            if (data?.type === 'init') {
              Object.assign(latest, data.definitions);
              started({ until });
            } else if (data?.type === 'add') latest[data.connectionId] = data.definitions;
            else if (data?.type === 'patch') {
              const presets = { ...latest[data.connectionId], ...data.added };
              for (const [id, operations] of Object.entries(data.changed ?? {})) {
                presets[id] = jsonPatch.applyPatch(structuredClone(presets[id]), operations as any[]).newDocument;
              }
              for (const id of data.removed ?? []) delete presets[id];
              latest[data.connectionId] = presets;
            } else if (data?.type === 'remove') delete latest[data.connectionId];
            check?.();
          },
          onError: fail,
        });
        const until = (has: (presets: Record<string, any>) => boolean) =>
          new Promise<Record<string, any>>((done, timedOut) => {
            // Unsubscribing inside onData is deferred so tRPC finishes its own bookkeeping first.
            const end = () => {
              check = undefined;
              queueMicrotask(() => sub.unsubscribe());
            };
            const timer = setTimeout(() => {
              end();
              timedOut(new Error(`timed out waiting for the presets of ${connectionId}`));
            }, 30_000);
            check = () => {
              const mine = latest[connectionId];
              if (!mine || !has(mine)) return;
              clearTimeout(timer);
              end();
              done(mine);
            };
            check();
          });
      });
    },
    placePreset(connectionId, presetId, location) {
      return trpc.controls.importPreset.mutate({ connectionId, presetId, location });
    },
    async press({ pageNumber, row, column }) {
      const answer = await httpJson(`${base}/api/location/${pageNumber}/${row}/${column}/press`, {
        method: 'POST',
      });
      if (answer.status >= 300) throw new Error(`press ${pageNumber}/${row}/${column}: ${answer.status}`);
    },
    async variable(label, name) {
      const answer = await httpJson(`${base}/api/variable/${label}/${name}/value`);
      return typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? '');
    },
    waitForVariable(label, name, expected, what) {
      return waitUntil(async () => {
        const value = await companion.variable(label, name);
        return expected(value) ? value : undefined;
      }, `$(${label}:${name}) ${what}`);
    },
    waitForStatus(connectionId, expected, what) {
      let statuses: Record<string, ConnectionStatus> = {};
      return first(
        trpc.instances.statuses.watch,
        undefined,
        (data) => {
          if (data?.type === 'init') statuses = { ...data.statuses };
          else if (data?.type === 'update') statuses[data.instanceId] = data.status;
          else if (data?.type === 'remove') delete statuses[data.instanceId];
          const status = statuses[connectionId];
          return status && expected(status) ? status : undefined;
        },
        `the status of ${connectionId} ${what}`,
      );
    },
    face(location) {
      return first(
        trpc.preview.graphics.location,
        { location },
        (data) => (typeof data?.image === 'string' ? (data.image as string) : undefined),
        `the face of ${location.pageNumber}/${location.row}/${location.column}`,
      );
    },
    async exportPage(pageNumber) {
      const answer = await httpJson(`${base}/int/export/page/${pageNumber}?format=json`);
      if (answer.status !== 200) throw new Error(`export of page ${pageNumber}: ${answer.status}`);
      return typeof answer.body === 'string' ? JSON.parse(answer.body) : answer.body;
    },
    async importPage(exported, targetPage) {
      const data = Buffer.from(JSON.stringify(exported));
      const upload = trpc.importExport.prepareImport;
      const sessionId: string = await upload.start.mutate({ name: 'page.companionconfig', size: data.length });
      await upload.uploadChunk.mutate({ sessionId, offset: 0, data: data.toString('base64') });
      const [error] = await upload.complete.mutate({
        sessionId,
        expectedChecksum: createHash('sha1').update(data).digest('hex'),
      });
      if (error) throw new Error(`import: ${error}`);
      return trpc.importExport.importSinglePage.mutate({ targetPage, sourcePage: 1, connectionIdRemapping: {} });
    },
    async stop() {
      wsClient.close();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(configDir, { recursive: true, force: true });
    },
  };
  return companion;
}

/** The version a build is (its package.json), to name in the log before it starts. */
export function versionOf(build: CompanionBuild): string {
  return JSON.parse(readFileSync(join(build.app, 'package.json'), 'utf8')).version;
}
