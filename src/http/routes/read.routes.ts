import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fp from 'fastify-plugin';
import { matchSummaryOf, presetsOf, vetoStatusOf } from '../../core/views.ts';
import {
  ActionDescriptorSchema,
  ColorPresetSchema,
  HudStateSchema,
  MatchSummarySchema,
  VetoStatusSchema,
} from '../../protocol/answers.ts';
import { SERVICE_ID } from '../../version.ts';
import { answers, okAnswer } from './shared.ts';

/** The read routes of the spec: health, the command catalogue, state, match, veto and presets. */
const readRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { service } = app;
  app.get('/health', { schema: { response: answers(okAnswer({ service: Type.String() })) } }, async () => ({
    ok: true as const,
    service: SERVICE_ID,
  }));
  app.get(
    '/api/actions',
    { schema: { response: answers(okAnswer({ actions: Type.Array(ActionDescriptorSchema) })) } },
    async () => ({ ok: true as const, actions: [...service.registry.catalogue] }),
  );
  app.get('/api/state', { schema: { response: answers(okAnswer({ state: HudStateSchema })) } }, async () => ({
    ok: true as const,
    state: service.hub.hudState(),
  }));
  app.get(
    '/api/match',
    { schema: { response: answers(okAnswer({ match: MatchSummarySchema })) } },
    async () => ({
      ok: true as const,
      match: matchSummaryOf(service.hub.snapshots()),
    }),
  );
  app.get('/api/veto', { schema: { response: answers(okAnswer({ veto: VetoStatusSchema })) } }, async () => ({
    ok: true as const,
    veto: vetoStatusOf(service.hub.snapshots()),
  }));
  app.get(
    '/api/presets',
    { schema: { response: answers(okAnswer({ presets: Type.Array(ColorPresetSchema) })) } },
    async () => ({ ok: true as const, presets: presetsOf(service.hub.snapshots().host).presets }),
  );
};

export default fp(readRoutes, { name: 'read-routes', dependencies: ['service', 'error-envelope'] });
