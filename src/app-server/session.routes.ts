/**
 * The operator app's signed-in browsers (Integrations > Local automation > Signed-in browsers):
 * listed with their device and last use, and each can be ended. Behind the panel API's sign-in.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Sessions } from '../access/sessions.ts';
import { signedOutCookie } from '../access/sign-in.ts';
import { checkPayload } from '../core/dispatcher.ts';
import { SessionRecordSchema } from '../protocol/answers.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { ServiceError } from '../protocol/errors.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';

const EndSession = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
const checkEndSession = compiledCheck(EndSession);

const sessionRoutes: FastifyPluginAsyncTypebox<{ sessions: Pick<Sessions, 'list' | 'end'> }> = async (
  app,
  { sessions },
) => {
  app.get(
    '/api/panel/sessions',
    { schema: { response: answers(okAnswer({ sessions: Type.Array(SessionRecordSchema) })) } },
    async (request) => ({
      ok: true as const,
      sessions: sessions
        .list()
        .map((session) => ({ ...session, current: session.id === request.session?.id })),
    }),
  );
  app.post(
    '/api/panel/sessions/end',
    { schema: { response: answers(okAnswer({})) } },
    async (request, reply) => {
      const { id } = checkPayload('end a session', checkEndSession, request.body) as { id: string };
      if (!(await sessions.end(id)))
        throw new ServiceError('not_found', `no signed-in browser has the session ${id}`);
      if (id === request.session?.id) reply.header('set-cookie', signedOutCookie());
      return { ok: true as const };
    },
  );
};

export default sessionRoutes;
