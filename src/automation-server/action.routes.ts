import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { peerOf } from '../access/peer.ts';
import type { Dispatch } from '../core/dispatcher.ts';
import { HudStateSchema } from '../protocol/answers.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';

/** What a command answers: the HUD-state fields it is about (with the revision) and its `result`. */
const commandAnswer = (result: TSchema) => okAnswer({ state: Type.Partial(HudStateSchema), result });

/** What every command answers, its result untyped. */
export const CommandAnswerSchema = commandAnswer(Type.Object({}, { additionalProperties: true }));

/** The command named in the path of POST /api/actions/<command> and /internal/<report>. */
export interface ActionParams {
  action: string;
}

export interface ActionRoutesOptions {
  commands: Dispatch;
  /** The results that declare their schema: each such command gets a route of its own. */
  results: ReadonlyMap<string, TSchema>;
}

/** POST /api/actions/<command>: the HTTP face of the dispatcher, for programs. */
const actionRoutes: FastifyPluginAsyncTypebox<ActionRoutesOptions> = async (app, { commands, results }) => {
  const run = (action: string, request: FastifyRequest) =>
    commands(action, request.body, {
      transport: 'http',
      address: peerOf(request.socket, request.ip).address,
      role: 'program',
    });
  // A command that declares its result gets a route of its own, its answer serialised by that schema.
  for (const [id, result] of results) {
    app.post(`/api/actions/${id}`, { schema: { response: answers(commandAnswer(result)) } }, (request) =>
      run(id, request),
    );
  }
  // No params schema: a path parameter is always a string, and the dispatcher names an unknown
  // command. A schema would only make Fastify build its validator (Ajv and its meta-schema, a sixth
  // of the start-up) before the server listens.
  app.post<{ Params: ActionParams }>(
    '/api/actions/:action',
    { schema: { response: answers(CommandAnswerSchema) } },
    (request) => run(request.params.action, request),
  );
};

export default fp(actionRoutes, { name: 'action-routes', dependencies: ['error-envelope'] });
