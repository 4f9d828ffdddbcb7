import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import type { Logger } from 'pino';
import type { Secrets } from '../access/secrets.ts';
import type { Dispatch } from '../core/dispatcher.ts';
import { gameDataRoute } from '../game/game-data.route.ts';
import type { GameData } from '../game/game-data.ts';
import accessPlugin from '../http/access-hooks.ts';
import { answerConnect } from '../http/client-error.ts';
import { registerPublicCors } from '../http/cors.ts';
import errorEnvelopePlugin from '../http/error-envelope.ts';
import { sourcedDispatch } from '../http/event-source.ts';
import jsonBodyPlugin from '../http/json-body.plugin.ts';
import panelApiRoutes from '../http/routes/panel-api.routes.ts';
import readRoutes from '../http/routes/read.routes.ts';
import type { TeamsRoutesOptions } from '../http/routes/teams.routes.ts';
import teamsRoutes from '../http/routes/teams.routes.ts';
import { useServiceSerializer } from '../http/serializer.ts';
import { serverOptions } from '../http/server-options.ts';
import { WS_PATHS } from '../http/upgrade.ts';
import type { StateStore } from '../persistence/state-store.ts';
import type { ActionDescriptor } from '../protocol/answers.ts';
import wsPlugin from '../ws/ws.plugin.ts';
import type { WsDeps } from '../ws/ws-messages.ts';
import actionRoutes from './action.routes.ts';
import { hlaeRoute } from './hlae.routes.ts';
import internalRoutes from './internal.routes.ts';

export { BODY_LIMIT } from '../http/server-options.ts';

/** What the automation server uses of the service: the WebSocket's parts, and these. */
export interface AutomationServerDeps extends WsDeps {
  catalogue: readonly ActionDescriptor[];
  results: ReadonlyMap<string, TSchema>;
  /** The settings command of the panel API. */
  panel: Dispatch;
  store: Pick<StateStore, 'status' | 'counters'>;
  teams: TeamsRoutesOptions['teams'];
  game: WsDeps['game'] &
    Pick<GameData, 'read' | 'ingest' | 'hlaeConnected' | 'hlaeLive' | 'hlaeDeath' | 'hlaeClosed'>;
  secrets: WsDeps['secrets'] &
    Pick<Secrets, 'regenerateToken' | 'regenerateSignInKey' | 'viewKey' | 'regenerateViewKey'>;
}

/**
 * The automation server (port 44555), for programs: the spec's routes and WebSocket, and the panel
 * API of the application shell on this machine. Each plugin is given the parts of the service it uses.
 */
export async function buildAutomationServer(
  service: AutomationServerDeps,
  logger: Logger,
): Promise<FastifyInstance> {
  const { access, settings, secrets } = service;
  const app = Fastify(serverOptions(access, logger, 'http')).withTypeProvider<TypeBoxTypeProvider>();
  useServiceSerializer(app);
  answerConnect(access, app.server, 'http');

  await app.register(errorEnvelopePlugin);
  await app.register(jsonBodyPlugin);
  // The WebSocket plugin's hooks before the access hooks: it marks upgrade requests so that a
  // refused one's socket is closed.
  // Its commands run inside sourcedDispatch, so the Machines view names their source (WebSocket).
  await app.register(wsPlugin, {
    transport: 'ws',
    paths: WS_PATHS,
    deps: {
      ...service,
      commands: sourcedDispatch(service.commands),
      reports: sourcedDispatch(service.reports),
    },
    panel: null,
  });
  await app.register(accessPlugin, { access });
  registerPublicCors(app);
  await app.register(readRoutes, { catalogue: service.catalogue, state: service.hub });
  await app.register(teamsRoutes, { teams: service.teams });
  await app.register(actionRoutes, { commands: service.commands, results: service.results });
  await app.register(internalRoutes, { reports: service.reports, settings, store: service.store });
  await app.register(panelApiRoutes, {
    base: '/internal',
    caller: { transport: 'http', role: 'shell' },
    panel: service.panel,
    settings,
    secrets,
    access,
  });
  // The address older cfg files post to: the same game data as the application server's /gsi (the
  // cfg's auth token required), kept for this machine only.
  gameDataRoute(app, service.game, access.rateLimit);
  // HLAE's game events for the killfeed (docs/game-data.md, "The killfeed from HLAE").
  hlaeRoute(app, service.game);
  return app;
}
