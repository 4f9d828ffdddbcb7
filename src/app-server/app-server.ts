import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import type { Secrets } from '../access/secrets.ts';
import type { Sessions } from '../access/sessions.ts';
import type { Dispatch } from '../core/dispatcher.ts';
import type { GameData } from '../game/game-data.ts';
import { answerConnect } from '../http/client-error.ts';
import errorEnvelopePlugin from '../http/error-envelope.ts';
import { sourcedDispatch } from '../http/event-source.ts';
import jsonBodyPlugin from '../http/json-body.plugin.ts';
import panelApiRoutes from '../http/routes/panel-api.routes.ts';
import readRoutes from '../http/routes/read.routes.ts';
import type { TeamsRoutesOptions } from '../http/routes/teams.routes.ts';
import teamsRoutes from '../http/routes/teams.routes.ts';
import { useServiceSerializer } from '../http/serializer.ts';
import { serverOptions } from '../http/server-options.ts';
import { PAGE_WS_PATHS } from '../http/upgrade.ts';
import type { MediaStore } from '../persistence/media-store.ts';
import type { ActionDescriptor } from '../protocol/answers.ts';
import type { PanelFeed } from '../ws/ws.plugin.ts';
import wsPlugin from '../ws/ws.plugin.ts';
import type { WsDeps } from '../ws/ws-messages.ts';
import authRoutes from './auth.routes.ts';
import gameRoutes from './game.routes.ts';
import type { WatchedSystem } from './machines-view/machine-watch.ts';
import machinesViewPlugin from './machines-view/machines-view.plugin.ts';
import mediaPlugin from './media.plugin.ts';
import pageAccessPlugin from './page-access.plugin.ts';
import pagesPlugin from './pages.plugin.ts';
import sessionRoutes from './session.routes.ts';

export const DEFAULT_APP_PORT = 44554;

/** What the application server uses of the service: the WebSocket's parts, and these. */
export interface AppServerDeps extends WsDeps {
  teams: TeamsRoutesOptions['teams'];
  catalogue: readonly ActionDescriptor[];
  /** The settings command of the panel API. */
  panel: Dispatch;
  /** Game data: the endpoint and Integrations > Game. */
  game: GameData;
  /** The uploaded images. */
  media: MediaStore;
  /** The data directory: never served as a replay. */
  dataDir: string;
  secrets: WsDeps['secrets'] &
    Pick<Secrets, 'signInKey' | 'regenerateToken' | 'regenerateSignInKey' | 'viewKey' | 'regenerateViewKey'>;
  /** The operator app's signed-in browsers. */
  sessions: Sessions;
  /** The running actors, for the Machines view (their charts, their events while a page watches). */
  hud: WatchedSystem;
}

/**
 * The application server: the operator app (the main window), the HUD overlay and the scene pages,
 * over the same service as the automation server: one dispatcher, one revision. Each plugin is given
 * the parts of the service it uses.
 */
export async function buildAppServer(
  service: AppServerDeps,
  logger: Logger,
  /** The built pages (dist/pages). */
  pagesDir: string,
  /** The operator app's panel status (both servers' addresses, the settings) and its changes. */
  panel: PanelFeed,
): Promise<FastifyInstance> {
  const { access, settings, secrets, sessions } = service;
  const app = Fastify(serverOptions(access, logger, 'app')).withTypeProvider<TypeBoxTypeProvider>();
  useServiceSerializer(app);
  answerConnect(access, app.server, 'app');

  await app.register(errorEnvelopePlugin);
  await app.register(jsonBodyPlugin);
  // The WebSocket's commands name their caller as the source of their events in the Machines view.
  const ws = {
    ...service,
    commands: sourcedDispatch(service.commands),
    reports: sourcedDispatch(service.reports),
  };
  await app.register(wsPlugin, { transport: 'app', paths: PAGE_WS_PATHS, deps: ws, panel });
  await app.register(pageAccessPlugin, { access, sessions, viewKey: () => secrets.viewKey() });
  await app.register(authRoutes, { secrets, sessions });
  await app.register(sessionRoutes, { sessions });
  await app.register(panelApiRoutes, {
    base: '/api/panel',
    caller: { transport: 'app', role: 'operator' },
    panel: service.panel,
    settings,
    secrets,
    access,
  });
  await app.register(readRoutes, { catalogue: service.catalogue, state: service.hub });
  await app.register(teamsRoutes, { teams: service.teams });
  await app.register(mediaPlugin, { media: service.media, hub: service.hub, dataDir: service.dataDir });
  await app.register(gameRoutes, {
    game: service.game,
    rateLimit: access.rateLimit,
    lanAccess: () => ({ lanMode: settings.current().lanMode, token: secrets.token() }),
  });
  await app.register(pagesPlugin, { root: pagesDir });
  await app.register(machinesViewPlugin, { hud: service.hud });
  return app;
}
