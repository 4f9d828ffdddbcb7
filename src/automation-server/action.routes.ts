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

/** What a command answers: its own result schema (src/protocol/commands.ts) inside the envelope. */
export const commandAnswerOf = (result: TSchema) => answers(commandAnswer(result));

/** What a name that is no command would answer, were it one: it never is (404), but the route needs one. */
export const CommandAnswerSchema = commandAnswer(Type.Object({}, { additionalProperties: true }));

/** The command named in the path of POST /api/actions/<command> and /internal/<report>. */
export interface ActionParams {
  action: string;
}

export interface ActionRoutesOptions {
  commands: Dispatch;
  /** Each command's result schema: each command gets a route of its own, its answer serialised by it. */
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
  // Each command has a route of its own, its answer serialised by its result schema: a handler that
  // answers a field its contract does not have loses it, one that misses a required field fails.
  for (const [id, result] of results) {
    app.post(`/api/actions/${id}`, { schema: { response: commandAnswerOf(result) } }, (request) =>
      run(id, request),
    );
  }
  // What no command's route takes: the dispatcher names an unknown command. No params schema: a path
  // parameter is always a string. A schema would only make Fastify build its validator (Ajv and its meta-schema, a sixth
  // of the start-up) before the server listens.
  app.post<{ Params: ActionParams }>(
    '/api/actions/:action',
    { schema: { response: answers(CommandAnswerSchema) } },
    (request) => run(request.params.action, request),
  );
};

export default fp(actionRoutes, { name: 'action-routes', dependencies: ['error-envelope'] });
