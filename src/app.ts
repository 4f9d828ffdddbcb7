import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import accessPlugin from './http/access-hooks.ts';
import { answerConnect } from './http/client-error.ts';
import { registerPublicCors } from './http/cors.ts';
import errorEnvelopePlugin from './http/error-envelope.ts';
import jsonBodyPlugin from './http/json-body.plugin.ts';
import actionRoutes from './http/routes/action.routes.ts';
import internalRoutes from './http/routes/internal.routes.ts';
import readRoutes from './http/routes/read.routes.ts';
import { useServiceSerializer } from './http/serializer.ts';
import { serverOptions } from './http/server-options.ts';
import servicePlugin from './http/service.plugin.ts';
import type { SettingsChange } from './protocol/settings.ts';
import type { Service } from './service.ts';
import wsPlugin from './ws/ws.plugin.ts';
import { WS_PATHS } from './ws/ws-routes.ts';

export { BODY_LIMIT } from './http/server-options.ts';

export interface AppOptions {
  service: Service;
  logger: Logger;
  /** Applies a settings change to the service and the servers (the panel API of /internal/settings). */
  applySettings(changes: SettingsChange): Promise<void>;
}

/** The HTTP and WebSocket face of the service: plugins over one service, routes thin. */
export async function buildApp({ service, logger, applySettings }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(service, logger)).withTypeProvider<TypeBoxTypeProvider>();
  useServiceSerializer(app);
  answerConnect(service, app.server);

  await app.register(servicePlugin, { service });
  await app.register(errorEnvelopePlugin);
  await app.register(jsonBodyPlugin);
  // The WebSocket plugin's hooks before the access hooks: it marks upgrade requests so that a
  // refused one's socket is closed.
  await app.register(wsPlugin, { transport: 'ws', paths: WS_PATHS });
  await app.register(accessPlugin);
  registerPublicCors(app);
  await app.register(readRoutes);
  await app.register(actionRoutes);
  await app.register(internalRoutes, { applySettings });
  return app;
}
