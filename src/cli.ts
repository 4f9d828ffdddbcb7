#!/usr/bin/env node
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadOrCreateToken, regenerateToken } from './access/access-token.ts';
import { defaultDataDir } from './data-dir.ts';
import { importSourcesFromEnv } from './import/import-sources.ts';
import { DEFAULT_PORT, startServer } from './server.ts';
import { TOKEN_FILE } from './service.ts';

const USAGE = `hud-automation: local automation server for a CS2 broadcast HUD

Usage:
  hud-automation serve [options]       run the server (the default command)
  hud-automation token [--regenerate]  show the access token for local-network devices (or make a new one)
  hud-automation lan on|off            switch local network mode of the running server


Options:
  --port N             port for HTTP and WebSocket (default ${DEFAULT_PORT}; 0 picks a free one)
  --data-dir DIR       where the state is kept (default: the user's data directory)
  --headless           no application shell: the main window counts as open and signed in
  --subscription       an active subscription (enables the smart observer)
  --lan                turn local network mode on (devices on the local network, with the token)
  --obs-url URL        OBS WebSocket address (default ws://127.0.0.1:4455)
  --obs-password PW    OBS WebSocket password
  --no-obs             do not connect to OBS
  --log-level LEVEL    fatal, error, warn, info, debug, trace (default info)
  --inspect            relay the machines to the Stately inspector (open the printed address)
  --inspect-port N     port of the inspector page (default ${DEFAULT_PORT + 1})
  --regenerate         with token: make a new token (remote devices are disconnected)
  -h, --help           this text

Environment: HUD_OBS_URL, HUD_OBS_PASSWORD, HUD_FACEIT_URL, HUD_FACEIT_DATA_API_URL, HUD_HLTV_URL, FACEIT_API_KEY.
`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      headless: { type: 'boolean' },
      subscription: { type: 'boolean' },
      lan: { type: 'boolean' },
      'obs-url': { type: 'string' },
      'obs-password': { type: 'string' },
      'no-obs': { type: 'boolean' },
      'log-level': { type: 'string' },
      inspect: { type: 'boolean' },
      'inspect-port': { type: 'string' },
      regenerate: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || !['serve', 'token', 'lan'].includes(command)) {
    process.stdout.write(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const port = portOf(values.port, DEFAULT_PORT, '--port');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (command === 'token') return printToken(port, dataDir, values.regenerate ?? false);
  if (command === 'lan') return switchLan(port, positionals[1]);

  // Loaded only when asked for: the inspector client is not part of a normal start.
  const inspector = values.inspect
    ? await import('./inspector.ts').then(({ startInspector }) =>
        startInspector({ port: portOf(values['inspect-port'], DEFAULT_PORT + 1, '--inspect-port') }),
      )
    : null;
  const logger = pino({ level: values['log-level'] ?? 'info', redact: ['*.password', '*.token', 'token'] });
  const env = process.env;
  const sources = importSourcesFromEnv(env);
  const obsUrl = values['obs-url'] ?? env.HUD_OBS_URL;
  const obsPassword = values['obs-password'] ?? env.HUD_OBS_PASSWORD;
  const server = await startServer({
    port,
    logger,
    dataDir,
    headless: values.headless ?? false,
    subscriptionActive: values.subscription ?? false,
    overrides: {
      ...(values.lan ? { lanMode: true } : {}),
      obs: {
        ...(obsUrl ? { url: obsUrl } : {}),
        ...(obsPassword !== undefined ? { password: obsPassword } : {}),
        ...(values['no-obs'] ? { enabled: false } : {}),
      },
      sources: {
        faceitUrl: sources.faceitUrl,
        faceitDataApiUrl: sources.faceitDataApiUrl,
        hltvUrl: sources.hltvUrl,
      },
    },
    ...(sources.faceitApiKey ? { faceitApiKey: sources.faceitApiKey } : {}),
    ...(inspector ? { inspect: inspector.inspect } : {}),
  });
  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping: saving the state');
    server
      .close()
      .then(() => inspector?.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, `could not stop cleanly: ${(error as Error).message}`);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Announced last, in one write: whoever reads it can stop the server and knows every address.
  const inspectorLine = inspector ? `  Inspector ${inspector.url}\n` : '';
  process.stdout.write(
    `hud-automation ready\n  HTTP      ${server.httpUrl}\n  WebSocket ${server.wsUrl}\n${inspectorLine}`,
  );
}

function portOf(text: string | undefined, fallback: number, flag: string): number {
  const port = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${flag}: not a port number: ${text}`);
  return port;
}

/** A call to the running server's panel API on loopback; its `ok: false` answers become errors. */
async function askPanel<T>(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T & { ok: true }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as T & { ok: boolean; message?: string };
  if (!answer.ok) throw new Error(answer.message ?? `the server answered ${response.status}`);
  return answer as T & { ok: true };
}

/** Asks the running server; without one, reads or replaces the token file itself. */
async function printToken(port: number, dataDir: string, regenerate: boolean): Promise<void> {
  try {
    const { token } = regenerate
      ? await askPanel<{ token: string }>(port, 'POST', '/internal/token/regenerate')
      : await askPanel<{ token: string }>(port, 'GET', '/internal/token');
    process.stdout.write(`${token}\n`);
  } catch (error) {
    if (!isConnectionRefused(error)) throw error;
    const file = join(dataDir, TOKEN_FILE);
    process.stdout.write(`${regenerate ? await regenerateToken(file) : await loadOrCreateToken(file)}\n`);
  }
}

async function switchLan(port: number, mode: string | undefined): Promise<void> {
  if (mode !== 'on' && mode !== 'off') throw new Error('usage: hud-automation lan on|off');
  await askPanel(port, 'POST', '/internal/settings', { lanMode: mode === 'on' });
  process.stdout.write(`local network mode ${mode}\n`);
}

const isConnectionRefused = (error: unknown) =>
  (error as { cause?: { code?: string } } | null)?.cause?.code === 'ECONNREFUSED';

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`hud-automation: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
