import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import { buildAppServer, DEFAULT_APP_PORT } from './app-server/app-server.ts';
import { limitConnectionsPerDevice } from './http/connection-limits.ts';
import { Listener } from './http/listen.ts';
import type { SettingsChange } from './protocol/settings.ts';
import type { PanelStatus } from './protocol/websocket.ts';
import { CLOSE } from './protocol/websocket.ts';
import type { Service, ServiceOptions } from './service.ts';
import { startService } from './service.ts';
import { automationEnabled, publicSettings } from './settings/settings.ts';
import { PAGES_DIR } from './version.ts';

export const DEFAULT_PORT = 44555;
export { DEFAULT_APP_PORT };

export interface ServerOptions extends ServiceOptions {
  /** The automation server's port; 0 picks a free one. */
  port: number;
  /** The application server's port (the operator app and pages); 0 picks a free one. */
  appPort: number;
  logger: Logger;
  /** The built pages; by default dist/pages of this package. */
  pagesDir?: string;
}

export interface RunningServer {
  /** The automation server (programs: Stream Deck, Companion, scripts). */
  app: FastifyInstance;
  /** The application server (the operator app and the pages OBS loads). */
  application: FastifyInstance;
  service: Service;
  /** The automation server's port (kept while it is switched off). */
  port: number;
  httpUrl: string;
  wsUrl: string;
  appPort: number;
  appUrl: string;
  /** The operator app's sign-in address (it changes when the sign-in key is regenerated). */
  signInUrl(): string;
  /** Applies a change of the lasting settings to the service and both servers. */
  applySettings(changes: SettingsChange): Promise<void>;
  close(): Promise<void>;
}

const appUrlOf = (appPort: number) => `http://127.0.0.1:${appPort}`;

/** The operator app's sign-in address: opening it signs the browser in (docs/application.md). */
export const signInUrlOf = (appPort: number, key: string) => `${appUrlOf(appPort)}/?key=${key}`;

/** The service, its automation server and its application server, listening. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const service = await startService(options);
  let automation: Listener;
  let application: Listener;
  const panelStatus = (): Omit<PanelStatus, 'overlayPages'> => ({
    settings: publicSettings(service.settings()),
    automation: {
      enabled: automationEnabled(service.settings()),
      listening: automation.listening,
      port: automation.port || null,
      httpUrls: automation.urls('http'),
      wsUrls: automation.urls('ws'),
    },
    app: { appUrls: application.urls('http') },
  });
  const applySettings = async (changes: SettingsChange) => {
    const settings = await service.updateSettings(changes);
    const open = automationEnabled(settings);
    if (!open && automation.listening) {
      automationApp.closeSockets(CLOSE.goingAway, 'the local automation server was switched off');
    }
    await automation.apply(open, settings.lanMode);
    await application.apply(true, settings.lanMode);
    service.events.emit('panel', undefined);
  };

  const automationApp = await buildApp({ service, logger: options.logger, applySettings });
  const appServer = await buildAppServer({
    service,
    logger: options.logger,
    pagesDir: options.pagesDir ?? PAGES_DIR,
    panelStatus,
    applySettings,
  });
  appServer.addHook('onClose', async () => automationApp.close());
  automationApp.addHook('onClose', async () => service.close());
  for (const server of [automationApp, appServer]) {
    closeConnectionsWhenStopping(server);
    limitConnectionsPerDevice(server.server);
  }
  await Promise.all([automationApp.ready(), appServer.ready()]);
  automation = new Listener(
    automationApp.server,
    options.port,
    '--port',
    'Automation server',
    automationApp.log,
  );
  application = new Listener(
    appServer.server,
    options.appPort,
    '--app-port',
    'Application server',
    appServer.log,
  );
  const { lanMode } = service.settings();
  try {
    await application.apply(true, lanMode);
    await automation.apply(automationEnabled(service.settings()), lanMode);
    // A second server on the same data directory names these ports; `app-url` reads them.
    await service.announcePorts({ port: automation.port || null, appPort: application.port });
  } catch (error) {
    // Saves and lets go of the data directory's lock.
    await appServer.close();
    throw error;
  }

  let closed: Promise<void> | null = null;
  const appUrl = appUrlOf(application.port);
  return {
    app: automationApp,
    application: appServer,
    service,
    get port() {
      return automation.port;
    },
    get httpUrl() {
      return `http://127.0.0.1:${automation.port}`;
    },
    get wsUrl() {
      return `ws://127.0.0.1:${automation.port}`;
    },
    appPort: application.port,
    appUrl,
    signInUrl: () => signInUrlOf(application.port, service.signInKey()),
    applySettings,
    close: () => (closed ??= appServer.close()),
  };
}

/**
 * A request in progress when the server stops gets its answer (forceCloseConnections: 'idle'), then
 * its connection closes: kept alive, it would hold the shutdown until the client hangs up.
 */
function closeConnectionsWhenStopping(app: FastifyInstance): void {
  let stopping = false;
  app.addHook('preClose', async () => {
    stopping = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (stopping) reply.header('connection', 'close');
    done(null, payload);
  });
}
