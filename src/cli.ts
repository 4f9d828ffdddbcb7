#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadOrCreateToken, regenerateToken } from './access/access-token.ts';
import { startedForCompileCache } from './compile-cache-hook.ts';
import type { ImportSources } from './import/import-sources.ts';
import { IMPORT_SOURCE_ENV, importSourcesFromEnv } from './import/import-sources.ts';
import { createLogger, defaultLogFormat, LOG_FORMATS, LOG_LEVELS } from './logger.ts';
import { checkNetconAddress } from './observer/netcon-address.ts';
import { defaultDataDir, SIGN_IN_KEY_FILE, TOKEN_FILE, VIEW_KEY_FILE } from './persistence/data-dir.ts';
import { readRunningServer } from './persistence/data-dir-lock.ts';
import type { SettingsChange } from './protocol/settings.ts';
import { DEFAULT_APP_PORT, DEFAULT_PORT, signInUrlOf, startServer } from './server.ts';
import { VERSION } from './version.ts';

const USAGE = `hud-automation: local automation server for a CS2 broadcast HUD

Usage:
  hud-automation serve [options]       run the server (the default command)
  hud-automation token [--regenerate]  show the access token for local-network devices (or make a new one)
  hud-automation view-key [--regenerate]
                                       the view key: the read-only key of the HUD and scene addresses for
                                       another machine (--regenerate: a new one, those pages disconnected)
  hud-automation lan on|off            switch local network mode of the running server, and save it
  hud-automation app-url [--regenerate]
                                       the operator app's sign-in address of the server running on the data
                                       directory (--regenerate: a new key, every browser signed out)
  hud-automation gsi-config [--install | --check] [--cs2-dir DIR] [--lan | --address HOST]
                                       the game's cfg file for game data (docs/game-data.md): print it and
                                       where it goes, install it into every CS2 install Steam lists, or
                                       check that an installed one is current (exit 0) or not (exit 1)
  hud-automation record [--stop]       record the game's frames on the running server (recordings/ in its
                                       data directory), or stop and close the file
  hud-automation replay [FILE] [--speed N] [--stop]
                                       replay a recording through the running server at 1x (or N times
                                       faster, up to 16); without FILE list the recordings
  hud-automation observer-score FILE…  the automatic observer's director against the human observer of
                                       spectator recordings (this service's, or GSI captures): agreement,
                                       cuts per minute, median hold, picks that died within 3 s


Options:
  --port N             port of the automation server, HTTP and WebSocket (default ${DEFAULT_PORT}; 0 picks a free one)
  --app-port N         port of the application server: the operator app and its pages (default ${DEFAULT_APP_PORT})
  --data-dir DIR       where the state is kept (default: the user's data directory)
  --headless           no application shell: the main window counts as open and signed in
  --subscription       an active subscription (enables the smart observer)
  --lan                local network mode on for this run (devices on the local network, with the token)
  --obs-url URL        OBS WebSocket address for this run, ws://host:port (saved default ws://127.0.0.1:4455)
  --obs-password PW    OBS WebSocket password for this run
  --no-obs             do not connect to OBS in this run
  --netcon HOST:PORT   the game console the observer moves the camera through, for this run (CS2 started
                       with -netconport PORT; loopback or local-network IP only; saved default 127.0.0.1:2121)
  --log-level LEVEL    fatal, error, warn, info, debug (every request), trace, silent (default info)
  --log-format FORMAT  pretty or json (default: pretty on a terminal, json otherwise)
  --inspect            relay the machines to the Stately inspector (open the printed address)
  --inspect-port N     port of the inspector page (default ${DEFAULT_PORT + 1})
  --regenerate         with token: make a new token (remote devices are disconnected); with view-key: a new
                       view key; with app-url: a new sign-in key (every browser signed out). Through the
                       server running on the data directory; when it cannot be reached nothing changes (exit 1)
  --install, --check   with gsi-config: write the cfg file into CS2, or check it
  --cs2-dir DIR        with gsi-config: this CS2 install folder (repeatable) instead of Steam's libraries
  --address HOST       with gsi-config: the address the game posts to (--lan: this machine's local-network one)
  --stop               with record or replay: stop it
  --speed N            with replay: times the game's pace, 1 to 16 (default 1)
  -v, --version        the version
  -h, --help           this text

Flags and environment variables hold for the run they are given to and are never saved; the saved
settings change through the panel API (hud-automation lan on|off, POST /internal/settings).

Environment: HUD_OBS_URL, HUD_OBS_PASSWORD, HUD_FACEIT_URL, HUD_FACEIT_DATA_API_URL, HUD_HLTV_URL, FACEIT_API_KEY.
`;

/** A mistake in how the command was called: exit code 2, with the usage when the command itself is wrong. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage: boolean,
  ) {
    super(message);
  }
}

const COMMANDS = [
  'serve',
  'token',
  'view-key',
  'lan',
  'app-url',
  'gsi-config',
  'record',
  'replay',
  'observer-score',
];

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        'app-port': { type: 'string' },
        'data-dir': { type: 'string' },
        headless: { type: 'boolean' },
        subscription: { type: 'boolean' },
        lan: { type: 'boolean' },
        'obs-url': { type: 'string' },
        'obs-password': { type: 'string' },
        'no-obs': { type: 'boolean' },
        netcon: { type: 'string' },
        'log-level': { type: 'string' },
        'log-format': { type: 'string' },
        inspect: { type: 'boolean' },
        'inspect-port': { type: 'string' },
        regenerate: { type: 'boolean' },
        install: { type: 'boolean' },
        check: { type: 'boolean' },
        'cs2-dir': { type: 'string', multiple: true },
        address: { type: 'string' },
        stop: { type: 'boolean' },
        speed: { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown flags and missing values.
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_'))
      throw new UsageError((error as Error).message, true);
    throw error;
  }
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const command = positionals[0] ?? 'serve';
  if (!COMMANDS.includes(command)) throw new UsageError(`unknown command: ${command}`, true);
  const port = portOf(values.port, DEFAULT_PORT, '--port');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const portGiven = values.port !== undefined;
  if (command === 'token' || command === 'view-key')
    return printSecret(command, port, portGiven, dataDir, values.regenerate ?? false);
  if (command === 'lan') return switchLan(port, dataDir, positionals[1]);
  if (command === 'app-url') return printAppUrl(dataDir, values.regenerate ?? false);
  if (command === 'gsi-config') return gsiConfig(values, dataDir);
  if (command === 'observer-score') return observerScore(positionals.slice(1));
  if (command === 'record' || command === 'replay')
    return recordOrReplay(command, values, positionals.slice(1), port, dataDir);
  if (positionals.length > 1) throw new UsageError(`serve takes no arguments: ${positionals[1]}`, true);

  const env = process.env;
  const sources = sourcesOf(env);
  const overrides = overridesOf(values, env, sources);
  const logger = await createLogger({
    level: oneOf(LOG_LEVELS, values['log-level'] ?? 'info', '--log-level'),
    format: oneOf(LOG_FORMATS, values['log-format'] ?? defaultLogFormat(process.stdout), '--log-format'),
  });
  // Loaded only when asked for: the inspector client is not part of a normal start.
  const inspector = values.inspect
    ? await import('./inspector.ts').then(({ startInspector }) =>
        startInspector({ port: portOf(values['inspect-port'], DEFAULT_PORT + 1, '--inspect-port') }),
      )
    : null;
  const { faceitApiKey } = sources;
  const server = await startServer({
    port,
    appPort: portOf(values['app-port'], DEFAULT_APP_PORT, '--app-port'),
    logger,
    dataDir,
    headless: values.headless ?? false,
    subscriptionActive: values.subscription ?? false,
    overrides,
    ...(values.netcon !== undefined ? { netcon: netconOf(values.netcon) } : {}),
    ...(faceitApiKey ? { faceitApiKey } : {}),
    ...(inspector ? { inspect: inspector.inspect } : {}),
  });
  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping: open requests finish, WebSocket clients are told, the state is saved');
    server
      .close()
      .then(() => inspector?.close())
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, `could not stop cleanly: ${(error as Error).message}`);
          process.exit(1);
        },
      );
  };
  // Once each: a second Ctrl-C ends the process at once, without waiting for open requests.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Announced last, in one write: whoever reads it can stop the server and knows every address.
  const inspectorLine = inspector ? `  Inspector ${inspector.url}\n` : '';
  const automation = server.automation.server.listening
    ? `  HTTP      ${server.httpUrl}\n  WebSocket ${server.wsUrl}\n`
    : '  Automation server switched off (operator app: Integrations > Local automation)\n';
  // The sign-in address carries the key: shown on a terminal, never written into a service's log
  // (stdout is a file or a journal then), which says where to get it instead.
  const operatorApp = process.stdout.isTTY
    ? server.signInUrl()
    : `${server.applicationUrl}/  (sign-in address: ${thisCli(['app-url', ...(values['data-dir'] ? ['--data-dir', dataDir] : [])])})`;
  // Before the announcement: whoever stops the server once it is ready finds the cache written.
  startedForCompileCache();
  process.stdout.write(`hud-automation ready\n  Operator app  ${operatorApp}\n${automation}${inspectorLine}`);
}

type Values = ReturnType<typeof parse>['values'];

/**
 * A command line of this very CLI, as it was started (node, its flags such as `--import tsx`, the
 * script), so the banner names a command that works as printed: `hud-automation` is on the PATH only
 * when the package is installed, not under `npm start`. Debugger flags are left out.
 */
function thisCli(args: readonly string[]): string {
  const node = process.execArgv.filter((flag) => !flag.startsWith('--inspect'));
  return [process.execPath, ...node, process.argv[1] ?? 'hud-automation', ...args].map(shellWord).join(' ');
}

/** A word a POSIX shell reads back as it is: quoted when it holds anything but plain characters. */
const shellWord = (word: string) =>
  /^[\w./:=@+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;

const SOURCE_KEYS = ['faceitUrl', 'faceitDataApiUrl', 'hltvUrl', 'faceitKeyHost'] as const;

/**
 * What the flags and the environment set for this run only: they win over the saved settings and
 * are never saved (lasting changes go through POST /internal/settings).
 */
function overridesOf(values: Values, env: NodeJS.ProcessEnv, sources: ImportSources): SettingsChange {
  const fromEnv = (name: string) => env[name]?.trim() || undefined;
  const obsUrl = values['obs-url'] ?? fromEnv('HUD_OBS_URL');
  const obsPassword = values['obs-password'] ?? env.HUD_OBS_PASSWORD;
  return {
    ...(values.lan ? { lanMode: true } : {}),
    obs: {
      ...(obsUrl !== undefined
        ? { url: obsUrlOf(obsUrl, values['obs-url'] ? '--obs-url' : 'HUD_OBS_URL') }
        : {}),
      ...(obsPassword !== undefined ? { password: obsPassword } : {}),
      ...(values['no-obs'] ? { enabled: false } : {}),
    },
    // Only the sources the environment names: the others keep their saved values.
    sources: Object.fromEntries(
      SOURCE_KEYS.filter((key) => fromEnv(IMPORT_SOURCE_ENV[key])).map((key) => [key, sources[key]]),
    ),
  };
}

/** `--netcon HOST:PORT` (`[v6]:PORT` for IPv6), checked by the same rule as set_observer_console. */
function netconOf(text: string): { host: string; port: number } {
  const parts = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text.trim());
  const host = parts?.[1] ?? parts?.[2];
  if (!parts || host === undefined) {
    throw new UsageError(`--netcon takes HOST:PORT (127.0.0.1:2121, [::1]:2121), not "${text}"`, false);
  }
  const address = checkNetconAddress(host, Number(parts[3]));
  if (!address.ok) throw new UsageError(`--netcon: ${address.message}`, false);
  return { host: address.host, port: address.port };
}

function sourcesOf(env: NodeJS.ProcessEnv): ImportSources {
  try {
    return importSourcesFromEnv(env);
  } catch (error) {
    throw new UsageError((error as Error).message, false);
  }
}

/**
 * obs-websocket listens on ws://host:port (wss:// behind a TLS proxy). Checked at start: `localhost:4455`
 * parses as a URL of scheme "localhost:" and would fail every retry instead.
 */
function obsUrlOf(text: string, name: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // Reported below, with the form it should have.
  }
  if ((url?.protocol === 'ws:' || url?.protocol === 'wss:') && url.hostname !== '') return text;
  const guess = text.includes('://') ? '' : ` (did you mean ws://${text}?)`;
  throw new UsageError(
    `${name} must be an OBS WebSocket address of the form ws://host:port, such as ws://127.0.0.1:4455; got "${text}"${guess}`,
    false,
  );
}

function oneOf<T extends string>(allowed: readonly T[], text: string, flag: string): T {
  if ((allowed as readonly string[]).includes(text)) return text as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got "${text}"`, false);
}

function portOf(text: string | undefined, fallback: number, flag: string): number {
  const port = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`${flag}: not a port number: ${text}`, false);
  return port;
}

/** The panel API of a running server, on loopback: `call` throws its `ok: false` answers as errors. */
interface PanelLink {
  call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  /** Where it was reached, for messages. */
  where: string;
}

/** A running server answers its panel API at once; one that does not within this is not reachable. */
const PANEL_TIMEOUT_MS = 5_000;

async function askPanel<T>(url: string, method: 'GET' | 'POST', body?: unknown, cookie?: string): Promise<T> {
  const response = await fetch(url, {
    method,
    signal: AbortSignal.timeout(PANEL_TIMEOUT_MS),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as T & { ok: boolean; message?: string };
  if (!answer.ok) throw new Error(answer.message ?? `the server answered ${response.status}`);
  return answer;
}

/** The automation server's panel API (/internal/…), which answers loopback only. */
const automationPanel = (port: number): PanelLink => ({
  call: (method, path, body) => askPanel(`http://127.0.0.1:${port}/internal${path}`, method, body),
  where: `port ${port}`,
});

/**
 * The operator app's panel API (/api/panel/…), signed in with the data directory's key for the one
 * call (its session ends right after): the way in while the automation server is switched off.
 */
function applicationPanel(appPort: number, dataDir: string): PanelLink {
  const base = `http://127.0.0.1:${appPort}`;
  return {
    where: `application port ${appPort}`,
    async call(method, path, body) {
      const key = (await readFile(join(dataDir, SIGN_IN_KEY_FILE), 'utf8')).trim();
      const signIn = await fetch(`${base}/auth/sign-in`, {
        method: 'POST',
        signal: AbortSignal.timeout(PANEL_TIMEOUT_MS),
        headers: { 'content-type': 'application/json', 'user-agent': 'hud-automation command line' },
        body: JSON.stringify({ key }),
      });
      const cookie = signIn.headers.get('set-cookie')?.split(';')[0];
      if (!cookie)
        throw new Error(`the operator app refused the data directory's sign-in key (${signIn.status})`);
      try {
        return await askPanel(`${base}/api/panel${path}`, method, body, cookie);
      } finally {
        // A key regenerated by the call has ended this session already; otherwise end it now.
        await fetch(`${base}/auth/sign-out`, { method: 'POST', headers: { cookie } }).catch(() => undefined);
      }
    },
  };
}

/**
 * The server to ask: the one running on the data directory (its lock names its ports: the
 * automation port, or with the automation server switched off the application port), else one on
 * the port given; null when none runs, so the command may work on the files itself. A server that
 * runs but cannot be reached is an error: nothing may change behind its back.
 */
async function runningPanel(port: number, dataDir: string): Promise<PanelLink | null> {
  const running = await readRunningServer(dataDir);
  if (!running) return (await answers(automationPanel(port))) ? automationPanel(port) : null;
  const where = `the server running on ${dataDir} (pid ${running.pid})`;
  if (running.port !== null && (await answers(automationPanel(running.port), where))) {
    return automationPanel(running.port);
  }
  if (running.appPort !== null) return applicationPanel(running.appPort, dataDir);
  throw new Error(`${where} is still starting: nothing changed; ask again in a moment`);
}

/** Whether a panel API listens there (false: nothing listens); a listener that does not answer throws. */
async function answers(link: PanelLink, who = `the server on ${link.where}`): Promise<boolean> {
  try {
    await link.call('GET', '/token');
    return true;
  } catch (error) {
    if (isConnectionRefused(error)) return false;
    throw new Error(`${who} does not answer (${(error as Error).message}): nothing changed`);
  }
}

/** Runs `call` on the running server; names it and says that nothing changed when it fails. */
async function throughServer<T>(
  link: PanelLink,
  what: string,
  call: (link: PanelLink) => Promise<T>,
): Promise<T> {
  try {
    return await call(link);
  } catch (error) {
    const silent = isConnectionRefused(error) || (error as Error).name === 'TimeoutError';
    const reason = silent ? 'it does not answer' : (error as Error).message;
    throw new Error(
      `could not ${what} through the running server (${link.where}): ${reason}. Nothing changed.`,
    );
  }
}

/** The secrets `token` and `view-key` show: the panel route, its answer's field, the file. */
const PRINTED_SECRETS = {
  token: { what: 'the token', route: '/token', field: 'token', file: TOKEN_FILE },
  'view-key': { what: 'the view key', route: '/view-key', field: 'viewKey', file: VIEW_KEY_FILE },
} as const;

/** Asks the running server; without one, reads or replaces the secret's file itself. */
async function printSecret(
  secret: keyof typeof PRINTED_SECRETS,
  port: number,
  portGiven: boolean,
  dataDir: string,
  regenerate: boolean,
): Promise<void> {
  const { what, route, field, file } = PRINTED_SECRETS[secret];
  const link = await runningPanel(port, dataDir);
  if (!link && regenerate && portGiven)
    throw new Error(
      `no hud-automation server answers on port ${port} (nor runs on ${dataDir}): nothing changed`,
    );
  if (link) {
    const answer = await throughServer(link, `${regenerate ? 'regenerate' : 'read'} ${what}`, (panel) =>
      regenerate
        ? panel.call<Record<string, string>>('POST', `${route}/regenerate`)
        : panel.call<Record<string, string>>('GET', route),
    );
    process.stdout.write(`${answer[field]}\n`);
    return;
  }
  // No server runs on the data directory: the file is what the next start reads.
  const path = join(dataDir, file);
  process.stdout.write(`${regenerate ? await regenerateToken(path) : await loadOrCreateToken(path)}\n`);
}

/** Reads the lock of the server running on the data directory for its application port. */
async function printAppUrl(dataDir: string, regenerate: boolean): Promise<void> {
  const running = await readRunningServer(dataDir);
  if (!running)
    throw new Error(
      `no hud-automation server is running on the data directory ${dataDir}: start one with hud-automation serve (and the same --data-dir)`,
    );
  if (running.appPort === null)
    throw new Error(`the server on ${dataDir} (pid ${running.pid}) is still starting: ask again in a moment`);
  let key = (await readFile(join(dataDir, SIGN_IN_KEY_FILE), 'utf8')).trim();
  if (regenerate) {
    const link = (await runningPanel(DEFAULT_PORT, dataDir)) as PanelLink;
    ({ key } = await throughServer(link, 'regenerate the sign-in key', (panel) =>
      panel.call<{ key: string }>('POST', '/sign-in-key/regenerate'),
    ));
  }
  process.stdout.write(`${signInUrlOf(running.appPort, key)}\n`);
}

async function switchLan(port: number, dataDir: string, mode: string | undefined): Promise<void> {
  if (mode !== 'on' && mode !== 'off')
    throw new UsageError(`lan takes on or off; got ${mode ?? 'nothing'}`, true);
  const link = await runningPanel(port, dataDir);
  if (!link)
    throw new Error(
      `no hud-automation server is running on ${dataDir} or port ${port}: start one (with --lan for this run), or give its --data-dir or --port`,
    );
  await throughServer(link, `switch local network mode ${mode}`, (panel) =>
    panel.call('POST', '/settings', { lanMode: mode === 'on' }),
  );
  process.stdout.write(`local network mode ${mode}\n`);
}

async function gsiConfig(values: Values, dataDir: string): Promise<void> {
  if (values.lan && values.address)
    throw new UsageError('gsi-config takes --lan or --address, not both', false);
  const { runGsiConfig } = await import('./game/gsi-config-command.ts');
  const code = await runGsiConfig(
    {
      dataDir,
      appPort: portOf(values['app-port'], DEFAULT_APP_PORT, '--app-port'),
      install: values.install ?? false,
      check: values.check ?? false,
      cs2Dirs: values['cs2-dir'] ?? [],
      host: values.address ?? (values.lan ? 'lan' : 'loopback'),
    },
    { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
  );
  process.exitCode = code;
}

/** What the recorder commands answer (src/protocol/recorder.ts), as far as the command line prints it. */
interface RecorderAnswer {
  result: {
    recorder: {
      recording: { file: string } | null;
      replay: { file: string; speed: number; frames: number; durationMs: number } | null;
      ended: { text: string } | null;
      recordings: Array<{ file: string; bytes: number }>;
    };
  };
}

/**
 * record and replay: the running server's commands (game_record_*, game_replay_*), on its automation
 * port (the data directory's lock names it, else --port). The server's refusal is printed as it said it.
 */
async function recordOrReplay(
  command: 'record' | 'replay',
  values: Values,
  args: string[],
  port: number,
  dataDir: string,
): Promise<void> {
  const file = args[0];
  if (args.length > 1 || (command === 'record' && file !== undefined))
    throw new UsageError(`${command} takes ${command === 'replay' ? 'one FILE' : 'no arguments'}`, true);
  if (values.stop && file !== undefined) throw new UsageError('replay takes FILE or --stop, not both', false);
  if (values.speed !== undefined && (command !== 'replay' || file === undefined))
    throw new UsageError('--speed goes with replay FILE', false);
  const speed = values.speed === undefined ? undefined : Number(values.speed);
  if (speed !== undefined && !(speed >= 1 && speed <= 16))
    throw new UsageError(`--speed takes a number from 1 to 16; got ${values.speed}`, false);
  const running = await readRunningServer(dataDir);
  const base = `http://127.0.0.1:${running?.port ?? port}`;
  const call = async (action: string, payload?: unknown): Promise<RecorderAnswer> => {
    try {
      return await askPanel<RecorderAnswer>(`${base}/api/actions/${action}`, 'POST', payload);
    } catch (error) {
      if (isConnectionRefused(error))
        throw new Error(
          `no hud-automation server answers on ${base}: start one, or give its --data-dir or --port`,
        );
      throw error;
    }
  };
  if (command === 'record') {
    if (values.stop) {
      const { recorder } = (await call('game_record_stop')).result;
      process.stdout.write(`${recorder.ended?.text ?? 'stopped'}\n`);
      return;
    }
    const { recorder } = (await call('game_record_start')).result;
    process.stdout.write(
      `recording to ${recorder.recording?.file} in ${running ? join(dataDir, 'recordings') : "the server's data directory"}; stop with hud-automation record --stop\n`,
    );
    return;
  }
  if (values.stop) {
    const { recorder } = (await call('game_replay_stop')).result;
    process.stdout.write(`${recorder.ended?.text ?? 'stopped'}\n`);
    return;
  }
  if (file === undefined) {
    const { recorder } = await askPanel<{ recorder: RecorderAnswer['result']['recorder'] }>(
      `${base}/api/recordings`,
      'GET',
    ).catch((error: unknown) => {
      if (isConnectionRefused(error)) throw new Error(`no hud-automation server answers on ${base}`);
      throw error;
    });
    if (recorder.recordings.length === 0) process.stdout.write('no recordings yet: hud-automation record\n');
    for (const { file: name, bytes } of recorder.recordings)
      process.stdout.write(`${name}  ${(bytes / 1024).toFixed(0)} KiB\n`);
    return;
  }
  const { recorder } = (await call('game_replay_start', { file, ...(speed ? { speed } : {}) })).result;
  const replay = recorder.replay;
  process.stdout.write(
    `replaying ${replay?.file} at ${replay?.speed}x: ${replay?.frames} frames, ${((replay?.durationMs ?? 0) / 1000).toFixed(1)} s of game; stop with hud-automation replay --stop\n`,
  );
}

/** observer-score: runs the director on each recording, blinded to the human's choice, and compares. */
async function observerScore(files: string[]): Promise<void> {
  if (files.length === 0) throw new UsageError('observer-score takes one or more recordings', true);
  const { FIGURES_HEADER, figuresLine, framesOfText, scoreDirector, totalOf } = await import(
    './observer/director-score.ts'
  );
  const { parseRecording } = await import('./recorder/recordings.ts');
  const { basename } = await import('node:path');
  const all = [];
  // Every file read and measured before anything is printed: a bad one prints nothing but its error.
  const lines = [FIGURES_HEADER];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new Error(`cannot read ${file}: ${(error as Error).message}`);
    }
    const name = basename(file);
    let frames: ReturnType<typeof framesOfText>;
    try {
      frames = framesOfText(text, (recording) => parseRecording(name, recording).frames as typeof frames);
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
    const figures = scoreDirector(frames);
    all.push(figures);
    lines.push(figuresLine(name, figures));
  }
  lines.push(figuresLine('total', totalOf(all)));
  process.stdout.write(`${lines.join('\n')}\n`);
}

const isConnectionRefused = (error: unknown) =>
  (error as { cause?: { code?: string } } | null)?.cause?.code === 'ECONNREFUSED';

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`hud-automation: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof UsageError) {
    process.stderr.write(error.showUsage ? `\n${USAGE}` : 'hud-automation --help lists the options.\n');
    process.exit(2);
  }
  process.exit(1);
});
