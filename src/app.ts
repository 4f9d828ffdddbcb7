import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Caller } from './commands/command.ts';
import { checkPayload } from './dispatcher.ts';
import { ServiceError } from './errors.ts';
import { peerOf, registerAccess, sendError } from './http/access-hooks.ts';
import { clientErrorHandler, frameworkErrorHandler, MAX_HEADER_BYTES } from './http/client-error.ts';
import { timeoutOptions } from './http/connection-limits.ts';
import { registerPublicCors } from './http/cors.ts';
import { toServiceError } from './http/error-envelope.ts';
import { rebind } from './http/listen.ts';
import type { Settings } from './saved-state.ts';
import { ImportSourcesSchema, ObsSettingsSchema } from './saved-state.ts';
import { strict } from './schemas.ts';
import type { Service } from './service.ts';
import { SERVICE_ID } from './version.ts';
import { matchSummaryOf, presetsOf, vetoStatusOf } from './views.ts';
import { registerWebSocket } from './ws/ws-gateway.ts';

export const BODY_LIMIT = 64 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    service: Service;
  }
}

export interface AppOptions {
  service: Service;
  logger: Logger;
}

export function callerOf(request: FastifyRequest): Caller {
  return { transport: 'http', address: peerOf(request.socket, request.ip).address };
}

/** The HTTP face of the service: thin routes over the dispatcher and the views. */
export async function buildApp({ service, logger }: AppOptions): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Requests are logged once each by the access layer, not twice by Fastify.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    // A client that keeps a socket open must not hold up a shutdown.
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true },
    // Failures before routing answer in the service's envelope too (src/http/client-error.ts).
    frameworkErrors: frameworkErrorHandler(service),
    clientErrorHandler: clientErrorHandler(service),
    ...timeoutOptions,
    http: { ...timeoutOptions.http, maxHeaderSize: MAX_HEADER_BYTES },
  });
  app.decorate('service', service);

  // An empty body is "no payload", whatever Content-Type says (curl -X POST -H 'Content-Type: application/json').
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // JSON only: any other body is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });

  // Method + path patterns, for telling a wrong method (405) from an unknown path (404).
  const routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  app.addHook('onRoute', ({ url, method }) => {
    const pattern = new RegExp(`^${url.replace(/:[^/]+/g, '[^/]+')}/?$`);
    let entry = routes.find((route) => route.pattern.source === pattern.source);
    if (!entry) {
      entry = { pattern, methods: new Set() };
      routes.push(entry);
    }
    for (const m of [method].flat()) entry.methods.add(m);
  });

  // The WebSocket plugin's hooks first: it marks upgrade requests so that a refused one's socket is closed.
  await registerWebSocket(app, service);
  registerAccess(app, service);
  registerPublicCors(app);

  app.setErrorHandler((error, request, reply) => {
    const known = toServiceError(error);
    if (known) return sendError(reply, known);
    request.log.error({ err: error, url: request.url }, 'request failed');
    return reply
      .code(500)
      .send({ ok: false, error: 'internal_error', message: 'internal error: see the service log' });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const route = routes.find((candidate) => candidate.pattern.test(path));
    if (route) {
      const allowed = [...route.methods].filter((m) => m !== 'HEAD').join(', ');
      reply.header('allow', allowed);
      return sendError(
        reply,
        new ServiceError('method_not_allowed', `${request.method} is not allowed on ${path}: use ${allowed}`),
      );
    }
    return sendError(reply, new ServiceError('not_found', `no route ${request.method} ${path}`));
  });

  app.get('/health', async () => ({ ok: true, service: SERVICE_ID }));
  app.get('/api/actions', async () => ({ ok: true, actions: service.registry.catalogue }));
  app.get('/api/state', async () => ({ ok: true, state: service.hub.hudState() }));
  app.get('/api/match', async () => ({ ok: true, match: matchSummaryOf(service.hud.snapshots()) }));
  app.get('/api/veto', async () => ({ ok: true, veto: vetoStatusOf(service.hud.snapshots()) }));
  app.get('/api/presets', async () => ({
    ok: true,
    presets: presetsOf(service.hud.snapshot('host')).presets,
  }));
  app.post<{ Params: { action: string } }>('/api/actions/:action', (request) =>
    service.dispatcher.dispatch(request.params.action, request.body, callerOf(request)),
  );

  app.post<{ Params: { action: string } }>('/internal/:action', (request) =>
    service.internal.dispatch(request.params.action, request.body, callerOf(request)),
  );
  // The address a CS2 gamestate_integration_*.cfg posts to.
  app.post('/gsi', (request) => service.internal.dispatch('gsi_update', request.body, callerOf(request)));
  app.get('/internal/settings', async () => ({ ok: true, settings: publicSettings(service.settings()) }));
  app.post('/internal/settings', async (request) => {
    const changes = checkPayload('settings', checkSettingsChange, request.body) as SettingsChange;
    const wasLan = service.settings().lanMode;
    const settings = await service.updateSettings(changes);
    if (settings.lanMode !== wasLan) await rebind(app, settings.lanMode);
    return { ok: true, settings: publicSettings(settings) };
  });
  app.get('/internal/token', async () => ({ ok: true, token: service.token() }));
  app.post('/internal/token/regenerate', async () => ({ ok: true, token: await service.regenerateToken() }));
  app.get('/internal/requests', async () => ({ ok: true, requests: service.recent.list() }));

  return app;
}

const SettingsChange = Type.Object(
  {
    lanMode: Type.Optional(Type.Boolean()),
    obs: Type.Optional(Type.Partial(ObsSettingsSchema, strict)),
    sources: Type.Optional(Type.Partial(ImportSourcesSchema, strict)),
  },
  { ...strict, minProperties: 1 },
);
type SettingsChange = Static<typeof SettingsChange>;
const checkSettingsChange = TypeCompiler.Compile(SettingsChange);

/** Settings as the panel shows them: the OBS password only as set or not. */
function publicSettings(settings: Settings) {
  const { password, ...obs } = settings.obs;
  return { ...settings, obs: { ...obs, passwordSet: password !== '' } };
}
