import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import fp from 'fastify-plugin';
import { gameDataRoute } from '../../app-server/game.routes.ts';
import type { PanelRoutesOptions } from '../../app-server/panel.routes.ts';
import { checkPayload } from '../../core/dispatcher.ts';
import { RequestRecordSchema, StorageInfoSchema } from '../../protocol/answers.ts';
import type { SettingsChange } from '../../protocol/settings.ts';
import { PublicSettingsSchema, SettingsChangeSchema } from '../../protocol/settings.ts';
import { publicSettings } from '../../settings/settings.ts';
import { CommandAnswerSchema } from './action.routes.ts';
import { answers, okAnswer } from './shared.ts';

const checkSettingsChange = TypeCompiler.Compile(SettingsChangeSchema);
const settingsAnswer = answers(okAnswer({ settings: PublicSettingsSchema }));
const tokenAnswer = answers(okAnswer({ token: Type.String() }));

/**
 * The panel's API and the reports of the application around the service (the overlay, the game):
 * only for this machine (the access plugin refuses everyone else, whatever the token).
 */
const internalRoutes: FastifyPluginAsyncTypebox<PanelRoutesOptions> = async (app, { applySettings }) => {
  const { service } = app;
  const reports = {
    schema: { params: Type.Object({ action: Type.String() }), response: answers(CommandAnswerSchema) },
  };
  app.post('/internal/:action', reports, (request) =>
    service.internal.dispatch(request.params.action, request.body),
  );
  // The address older cfg files post to: the same game data as the application server's /gsi
  // (the cfg's auth token required), kept for this machine only.
  gameDataRoute(app);

  app.get('/internal/settings', { schema: { response: settingsAnswer } }, async () => ({
    ok: true as const,
    settings: publicSettings(service.settings()),
  }));
  app.post('/internal/settings', { schema: { response: settingsAnswer } }, async (request) => {
    await applySettings(checkPayload('settings', checkSettingsChange, request.body) as SettingsChange);
    return { ok: true as const, settings: publicSettings(service.settings()) };
  });

  app.get('/internal/token', { schema: { response: tokenAnswer } }, async () => ({
    ok: true as const,
    token: service.token(),
  }));
  app.post('/internal/token/regenerate', { schema: { response: tokenAnswer } }, async () => ({
    ok: true as const,
    token: await service.regenerateToken(),
  }));
  app.get(
    '/internal/storage',
    { schema: { response: answers(okAnswer({ storage: StorageInfoSchema })) } },
    async () => ({
      ok: true as const,
      storage: { ...service.store.status, ...service.store.counters },
    }),
  );
  app.get(
    '/internal/requests',
    { schema: { response: answers(okAnswer({ requests: Type.Array(RequestRecordSchema) })) } },
    async () => ({ ok: true as const, requests: service.recent.list() }),
  );
};

export default fp(internalRoutes, { name: 'internal-routes', dependencies: ['service', 'error-envelope'] });
