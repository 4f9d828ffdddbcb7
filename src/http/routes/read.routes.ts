import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fp from 'fastify-plugin';
import type { StateReads } from '../../core/state-hub.ts';
import { matchSummaryOf, observerViewOf, presetsOf, recorderViewOf, vetoStatusOf } from '../../core/views.ts';
import type { ActionDescriptor } from '../../protocol/answers.ts';
import {
  ActionDescriptorSchema,
  ColorPresetSchema,
  HudStateSchema,
  MatchSummarySchema,
  VetoStatusSchema,
} from '../../protocol/answers.ts';
import { answers, okAnswer } from '../../protocol/http-answers.ts';
import { ObserverViewSchema } from '../../protocol/observer.ts';
import { RecorderViewSchema } from '../../protocol/recorder.ts';
import { SERVICE_ID } from '../../version.ts';

export interface ReadRoutesOptions {
  /** The public commands with their payload schemas. */
  catalogue: readonly ActionDescriptor[];
  /** The state the reads answer from (the revision hub). */
  state: StateReads;
}

/** The read routes of the spec: health, the command catalogue, state, match, veto, presets and the observer. */
const readRoutes: FastifyPluginAsyncTypebox<ReadRoutesOptions> = async (app, { catalogue, state }) => {
  app.get('/health', { schema: { response: answers(okAnswer({ service: Type.String() })) } }, async () => ({
    ok: true as const,
    service: SERVICE_ID,
  }));
  app.get(
    '/api/actions',
    { schema: { response: answers(okAnswer({ actions: Type.Array(ActionDescriptorSchema) })) } },
    async () => ({ ok: true as const, actions: [...catalogue] }),
  );
  app.get('/api/state', { schema: { response: answers(okAnswer({ state: HudStateSchema })) } }, async () => ({
    ok: true as const,
    state: state.hudState(),
  }));
  app.get(
    '/api/match',
    { schema: { response: answers(okAnswer({ match: MatchSummarySchema })) } },
    async () => ({
      ok: true as const,
      match: matchSummaryOf(state.snapshots()),
    }),
  );
  app.get('/api/veto', { schema: { response: answers(okAnswer({ veto: VetoStatusSchema })) } }, async () => ({
    ok: true as const,
    veto: vetoStatusOf(state.snapshots()),
  }));
  app.get(
    '/api/presets',
    { schema: { response: answers(okAnswer({ presets: Type.Array(ColorPresetSchema) })) } },
    async () => ({ ok: true as const, presets: presetsOf(state.snapshots().host).presets }),
  );
  app.get(
    '/api/observer',
    { schema: { response: answers(okAnswer({ observer: ObserverViewSchema })) } },
    async () => ({ ok: true as const, observer: observerViewOf(state.snapshots().observer) }),
  );
  // Not in the spec: record and replay game data (issue 32, docs/game-data.md).
  app.get(
    '/api/recordings',
    { schema: { response: answers(okAnswer({ recorder: RecorderViewSchema })) } },
    async () => ({ ok: true as const, recorder: recorderViewOf(state.snapshots().recorder) }),
  );
};

export default fp(readRoutes, { name: 'read-routes', dependencies: ['error-envelope'] });
