#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { defaultDataDir } from './data-dir.ts';
import { importSourcesFromEnv } from './import/import-sources.ts';
import { DEFAULT_PORT, startServer } from './server.ts';

const USAGE = `hud-automation: local automation server for a CS2 broadcast HUD

Usage:
  hud-automation serve [options]     run the server (the default command)

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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || command !== 'serve') {
    process.stdout.write(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port number: ${values.port}`);

  const logger = pino({ level: values['log-level'] ?? 'info', redact: ['*.password', '*.token', 'token'] });
  const env = process.env;
  const sources = importSourcesFromEnv(env);
  const obsUrl = values['obs-url'] ?? env.HUD_OBS_URL;
  const obsPassword = values['obs-password'] ?? env.HUD_OBS_PASSWORD;
  const server = await startServer({
    port,
    logger,
    dataDir: values['data-dir'] ?? defaultDataDir(),
    headless: values.headless ?? false,
    subscriptionActive: values.subscription ?? false,
    overrides: {
      ...(values.lan ? { lanMode: true } : {}),
      obs: {
        ...(obsUrl ? { url: obsUrl } : {}),
        ...(obsPassword !== undefined ? { password: obsPassword } : {}),
        ...(values['no-obs'] ? { enabled: false } : {}),
      },
      sources: { faceitUrl: sources.faceitUrl, faceitDataApiUrl: sources.faceitDataApiUrl, hltvUrl: sources.hltvUrl },
    },
    ...(sources.faceitApiKey ? { faceitApiKey: sources.faceitApiKey } : {}),
  });
  process.stdout.write(`hud-automation ready\n  HTTP      ${server.httpUrl}\n  WebSocket ${server.wsUrl}\n`);

  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping: saving the state');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'could not stop cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`hud-automation: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
