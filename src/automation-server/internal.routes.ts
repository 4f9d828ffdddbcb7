import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { peerOf } from '../access/peer.ts';
import type { Dispatch } from '../core/dispatcher.ts';
import { settingsAnswer } from '../http/routes/panel-api.routes.ts';
import type { StateStore } from '../persistence/state-store.ts';
import { StorageInfoSchema } from '../protocol/answers.ts';
import { REPORT_CONTRACTS } from '../protocol/commands.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';
import { publicSettings } from '../settings/settings.ts';
import type { SettingsOwner } from '../settings/settings-owner.ts';
import type { ActionParams } from './action.routes.ts';
import { CommandAnswerSchema, commandAnswerOf } from './action.routes.ts';

export interface InternalRoutesOptions {
  /** The reports of the application shell and the HUD overlay. */
  reports: Dispatch;
  settings: Pick<SettingsOwner, 'current'>;
  store: Pick<StateStore, 'status' | 'counters'>;
}

/**
 * The reports of the application around the service and what only it reads (the settings, the
 * storage): only for this machine (the access plugin refuses everyone else, whatever the token).
 * The rest of the panel API is src/http/routes/panel-api.routes.ts under /internal.
 */
const internalRoutes: FastifyPluginAsyncTypebox<InternalRoutesOptions> = async (
  app,
  { reports, settings, store },
) => {
  const run = (action: string, request: FastifyRequest) =>
    reports(action, request.body, {
      transport: 'http',
      address: peerOf(request.socket, request.ip).address,
      role: 'shell',
    });
  // Each report's answer serialised by its result schema, as the commands' are (action.routes.ts).
  for (const [id, { result }] of Object.entries(REPORT_CONTRACTS)) {
    app.post(`/internal/${id}`, { schema: { response: commandAnswerOf(result) } }, (request) =>
      run(id, request),
    );
  }
  // No params schema, as for /api/actions/<command> (action.routes.ts).
  const reportRoute = { schema: { response: answers(CommandAnswerSchema) } };
  app.post<{ Params: ActionParams }>('/internal/:action', reportRoute, (request) =>
    run(request.params.action, request),
  );
  app.get('/internal/settings', { schema: { response: settingsAnswer } }, async () => ({
    ok: true as const,
    settings: publicSettings(settings.current()),
  }));
  app.get(
    '/internal/storage',
    { schema: { response: answers(okAnswer({ storage: StorageInfoSchema })) } },
    async () => ({
      ok: true as const,
      storage: { ...store.status, ...store.counters },
    }),
  );
};

export default fp(internalRoutes, { name: 'internal-routes', dependencies: ['error-envelope'] });
