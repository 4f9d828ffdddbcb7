import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import fp from 'fastify-plugin';
import { peerOf } from '../access/peer.ts';
import type { Dispatch } from '../core/dispatcher.ts';
import { HudStateSchema } from '../protocol/answers.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';

/** What every command answers: the HUD-state fields it is about (with the revision) and its result. */
export const CommandAnswerSchema = okAnswer({
  state: Type.Partial(HudStateSchema),
  result: Type.Object({}, { additionalProperties: true }),
});

/** POST /api/actions/<command>: the HTTP face of the dispatcher, for programs. */
const actionRoutes: FastifyPluginAsyncTypebox<{ commands: Dispatch }> = async (app, { commands }) => {
  app.post(
    '/api/actions/:action',
    {
      schema: {
        params: Type.Object({ action: Type.String() }),
        response: answers(CommandAnswerSchema),
      },
    },
    (request) =>
      commands(request.params.action, request.body, {
        transport: 'http',
        address: peerOf(request.socket, request.ip).address,
        role: 'program',
      }),
  );
};

export default fp(actionRoutes, { name: 'action-routes', dependencies: ['error-envelope'] });
