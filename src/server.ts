import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildAppServer, DEFAULT_APP_PORT } from './app-server/app-server.ts';
import { buildAutomationServer } from './automation-server/automation-server.ts';
import { ConnectionBudget } from './http/connection-limits.ts';
import { Listener } from './http/listen.ts';
import { CLOSE } from './protocol/websocket.ts';
import type { Service, ServiceOptions } from './service.ts';
import { startService } from './service.ts';
import { automationEnabled, publicSettings } from './settings/settings.ts';
import { PAGES_DIR } from './version.ts';
import type { PanelFeed } from './ws/ws.plugin.ts';

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
  service: Service;
  /** The automation server (programs: Stream Deck, Companion, scripts), port 44555. */
  automation: FastifyInstance;
  /** The application server (the operator app and the pages OBS loads), port 44554. */
  application: FastifyInstance;
  /** The automation server's port (kept while it is switched off). */
  port: number;
  httpUrl: string;
  wsUrl: string;
  /** The application server's port. */
  applicationPort: number;
  applicationUrl: string;
  /** The operator app's sign-in address (it changes when the sign-in key is regenerated). */
  signInUrl(): string;
  close(): Promise<void>;
}

const appUrlOf = (appPort: number) => `http://127.0.0.1:${appPort}`;

/** The operator app's sign-in address: opening it signs the browser in (docs/application.md). */
export const signInUrlOf = (appPort: number, key: string) => `${appUrlOf(appPort)}/?key=${key}`;

/** The service, its automation server and its application server, listening. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const service = await startService(options);
  const { settings } = service;
  let automation: Listener;
  let application: Listener;
  // The operator app's status shows both servers' addresses: it changes when a server rebinds.
  const panel: PanelFeed = {
    status: () => ({
      settings: publicSettings(settings.current()),
      automation: {
        enabled: automationEnabled(settings.current()),
        listening: automation.listening,
        port: automation.port || null,
        httpUrls: automation.urls('http'),
        wsUrls: automation.urls('ws'),
        clients: automationServer.websocketServer.clients.size,
      },
      app: { appUrls: application.urls('http') },
    }),
  };

  const automationServer = await buildAutomationServer(service, options.logger);
  const applicationServer = await buildAppServer(
    service,
    options.logger,
    options.pagesDir ?? PAGES_DIR,
    panel,
  );
  applicationServer.addHook('onClose', async () => automationServer.close());
  automationServer.addHook('onClose', async () => service.close());
  const connections = new ConnectionBudget();
  for (const server of [automationServer, applicationServer]) {
    closeConnectionsWhenStopping(server);
    connections.watch(server.server);
  }
  await Promise.all([automationServer.ready(), applicationServer.ready()]);
  // The programs on the automation server's WebSocket (Companion holds one): the operator app asks
  // before its tab closes while any is connected, so the status follows each one that comes or goes.
  automationServer.websocketServer.on('connection', (socket) => {
    service.notices.emit('panel.changed', undefined);
    socket.once('close', () => service.notices.emit('panel.changed', undefined));
  });
  automation = new Listener(
    automationServer.server,
    options.port,
    '--port',
    'Automation server',
    automationServer.log,
  );
  application = new Listener(
    applicationServer.server,
    options.appPort,
    '--app-port',
    'Application server',
    applicationServer.log,
  );
  // A settings change that is saved reaches the listeners last: local network mode rebinds both
  // servers, and the automation server opens or closes its port.
  settings.onChange(async (next) => {
    const open = automationEnabled(next);
    if (!open && automation.listening) {
      automationServer.closeSockets(CLOSE.goingAway, 'the local automation server was switched off');
    }
    await automation.apply(open, next.lanMode);
    await application.apply(true, next.lanMode);
    service.notices.emit('panel.changed', undefined);
  });
  const { lanMode } = settings.current();
  try {
    await application.apply(true, lanMode);
    await automation.apply(automationEnabled(settings.current()), lanMode);
    // A second server on the same data directory names these ports; `app-url` reads them.
    await service.announcePorts({ port: automation.port || null, appPort: application.port });
  } catch (error) {
    // Saves and lets go of the data directory's lock.
    await applicationServer.close();
    throw error;
  }

  let closed: Promise<void> | null = null;
  const applicationUrl = appUrlOf(application.port);
  return {
    service,
    automation: automationServer,
    application: applicationServer,
    get port() {
      return automation.port;
    },
    get httpUrl() {
      return `http://127.0.0.1:${automation.port}`;
    },
    get wsUrl() {
      return `ws://127.0.0.1:${automation.port}`;
    },
    applicationPort: application.port,
    applicationUrl,
    signInUrl: () => signInUrlOf(application.port, service.secrets.signInKey()),
    close: () => (closed ??= applicationServer.close()),
  };
}

/**
 * A request in progress when the server stops gets its answer (forceCloseConnections: 'idle'), then
 * its connection closes: kept alive, it would hold the shutdown until the client hangs up.
 */
function closeConnectionsWhenStopping(app: FastifyInstance): void {
  // Not a hook on every answer: once stopping, Node closes a keep-alive connection as soon as its
  // answer is out (it applies keepAliveTimeout when a response ends), and Fastify answers a request
  // that still arrives with 503 and Connection: close.
  app.addHook('preClose', async () => {
    app.server.keepAliveTimeout = 1;
  });
}
