import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fp from 'fastify-plugin';
import { HudStateSchema } from '../../protocol/answers.ts';
import { answers, okAnswer } from './shared.ts';

/** What every command answers: the HUD-state fields it is about (with the revision) and its result. */
export const CommandAnswerSchema = okAnswer({
  state: Type.Partial(HudStateSchema),
  result: Type.Object({}, { additionalProperties: true }),
});

/** POST /api/actions/<command>: the HTTP face of the dispatcher. */
const actionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { service } = app;
  app.post(
    '/api/actions/:action',
    {
      schema: {
        params: Type.Object({ action: Type.String() }),
        response: answers(CommandAnswerSchema),
      },
    },
    (request) => service.dispatcher.dispatch(request.params.action, request.body),
  );
};

export default fp(actionRoutes, { name: 'action-routes', dependencies: ['service', 'error-envelope'] });
