import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import { answerConnect } from '../http/client-error.ts';
import errorEnvelopePlugin from '../http/error-envelope.ts';
import jsonBodyPlugin from '../http/json-body.plugin.ts';
import readRoutes from '../http/routes/read.routes.ts';
import { useServiceSerializer } from '../http/serializer.ts';
import { serverOptions } from '../http/server-options.ts';
import servicePlugin from '../http/service.plugin.ts';
import type { PanelStatus } from '../protocol/websocket.ts';
import type { Service } from '../service.ts';
import wsPlugin from '../ws/ws.plugin.ts';
import { PAGE_WS_PATHS } from '../ws/ws-routes.ts';
import authRoutes from './auth.routes.ts';
import gameRoutes from './game.routes.ts';
import mediaPlugin from './media.plugin.ts';
import pageAccessPlugin from './page-access.plugin.ts';
import pagesPlugin from './pages.plugin.ts';
import type { PanelRoutesOptions } from './panel.routes.ts';
import panelRoutes from './panel.routes.ts';

export const DEFAULT_APP_PORT = 44554;

export interface AppServerOptions extends PanelRoutesOptions {
  service: Service;
  logger: Logger;
  /** The built pages (dist/pages). */
  pagesDir: string;
  panelStatus(): Omit<PanelStatus, 'overlayPages'>;
}

/**
 * The application server: the operator app (the main window), the HUD overlay and the scene pages,
 * over the same service as the automation server: one dispatcher, one revision.
 */
export async function buildAppServer(options: AppServerOptions): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(options.service, options.logger)).withTypeProvider<TypeBoxTypeProvider>();
  useServiceSerializer(app);
  answerConnect(options.service, app.server);

  await app.register(servicePlugin, { service: options.service });
  await app.register(errorEnvelopePlugin);
  await app.register(jsonBodyPlugin);
  await app.register(wsPlugin, { transport: 'app', paths: PAGE_WS_PATHS, panelStatus: options.panelStatus });
  await app.register(pageAccessPlugin);
  await app.register(authRoutes);
  await app.register(panelRoutes, { applySettings: options.applySettings });
  await app.register(readRoutes);
  await app.register(mediaPlugin);
  await app.register(gameRoutes);
  await app.register(pagesPlugin, { root: options.pagesDir });
  return app;
}
