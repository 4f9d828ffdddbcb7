import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import accessPlugin from './http/access-hooks.ts';
import errorEnvelopePlugin from './http/error-envelope.ts';
import jsonBodyPlugin from './http/json-body.plugin.ts';
import actionRoutes from './http/routes/action.routes.ts';
import internalRoutes from './http/routes/internal.routes.ts';
import readRoutes from './http/routes/read.routes.ts';
import servicePlugin from './http/service.plugin.ts';
import type { SettingsChange } from './saved-state.ts';
import type { Service } from './service.ts';
import wsPlugin, { WS_PATHS } from './ws/ws.plugin.ts';

export const BODY_LIMIT = 64 * 1024;

export interface AppOptions {
  service: Service;
  logger: Logger;
  /** Applies a settings change to the service and the servers (the panel API of /internal/settings). */
  applySettings(changes: SettingsChange): Promise<void>;
}

/** The HTTP and WebSocket face of the service: plugins over one service, routes thin. */
export async function buildApp({ service, logger, applySettings }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Requests are logged once each by the access layer, not twice by Fastify.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    // A shutdown lets requests in progress finish and closes idle keep-alive sockets; WebSockets are
    // closed with 1001 by the WebSocket plugin's preClose.
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(servicePlugin, { service });
  await app.register(errorEnvelopePlugin);
  await app.register(jsonBodyPlugin);
  // The WebSocket plugin's hooks before the access hooks: it marks upgrade requests so that a
  // refused one's socket is closed.
  await app.register(wsPlugin, { transport: 'ws', paths: WS_PATHS });
  await app.register(accessPlugin);
  await app.register(readRoutes);
  await app.register(actionRoutes);
  await app.register(internalRoutes, { applySettings });
  return app;
}
