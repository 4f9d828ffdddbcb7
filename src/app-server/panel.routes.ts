import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import fp from 'fastify-plugin';
import { checkPayload } from '../core/dispatcher.ts';
import { answers, okAnswer } from '../http/routes/shared.ts';
import { RequestRecordSchema } from '../protocol/answers.ts';
import type { SettingsChange } from '../protocol/settings.ts';
import { PublicSettingsSchema, SettingsChangeSchema } from '../protocol/settings.ts';
import { publicSettings } from '../settings/settings.ts';

const checkSettingsChange = TypeCompiler.Compile(SettingsChangeSchema);
const tokenAnswer = answers(okAnswer({ token: Type.String() }));

export interface PanelRoutesOptions {
  /** Applies a settings change to the servers (LAN mode rebinds, automation opens or closes its port). */
  applySettings(changes: SettingsChange): Promise<void>;
}

/** The operator app's panel: settings, the access token, the recent requests. Signed-in browsers only. */
const panelRoutes: FastifyPluginAsyncTypebox<PanelRoutesOptions> = async (app, { applySettings }) => {
  const { service } = app;
  app.get(
    '/api/panel/requests',
    { schema: { response: answers(okAnswer({ requests: Type.Array(RequestRecordSchema) })) } },
    async () => ({ ok: true as const, requests: service.recent.list() }),
  );
  app.get('/api/panel/token', { schema: { response: tokenAnswer } }, async () => ({
    ok: true as const,
    token: service.token(),
  }));
  app.post('/api/panel/token/regenerate', { schema: { response: tokenAnswer } }, async () => ({
    ok: true as const,
    token: await service.regenerateToken(),
  }));
  app.post(
    '/api/panel/settings',
    { schema: { response: answers(okAnswer({ settings: PublicSettingsSchema })) } },
    async (request) => {
      await applySettings(checkPayload('settings', checkSettingsChange, request.body) as SettingsChange);
      return { ok: true as const, settings: publicSettings(service.settings()) };
    },
  );
};

export default fp(panelRoutes, { name: 'panel-routes', dependencies: ['service', 'page-access'] });
