import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import fp from 'fastify-plugin';
import { tokensEqual } from '../access/access-token.ts';
import type { Secrets } from '../access/secrets.ts';
import { sessionCookie, signedOutCookie } from '../access/sign-in.ts';
import { checkPayload } from '../core/dispatcher.ts';
import { ServiceError } from '../protocol/errors.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';

const SignIn = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);
const checkSignIn = TypeCompiler.Compile(SignIn);

/** Signing in and out of the operator app. */
const authRoutes: FastifyPluginAsyncTypebox<{ secrets: Pick<Secrets, 'signInKey'> }> = async (
  app,
  { secrets },
) => {
  // The sign-in address: /?key=<key>. The key leaves the address bar at once (a redirect to /), so
  // it is not kept in the history or shown on a screen share.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const url = new URL(request.url, 'http://localhost');
    const key = url.searchParams.get('key');
    if (key === null) return;
    url.searchParams.delete('key');
    const target = `${url.pathname}${url.search}`;
    if (tokensEqual(secrets.signInKey(), key)) reply.header('set-cookie', sessionCookie(secrets.signInKey()));
    // A wrong key lands on the sign-in form, which says what to do.
    return reply.redirect(target, 303);
  });

  app.get(
    '/auth/status',
    { schema: { response: answers(okAnswer({ signedIn: Type.Boolean() })) } },
    async (request) => ({
      ok: true as const,
      signedIn: request.signedIn,
    }),
  );

  app.post('/auth/sign-in', { schema: { response: answers(okAnswer({})) } }, async (request, reply) => {
    const { key } = checkPayload('sign-in', checkSignIn, request.body) as Static<typeof SignIn>;
    if (!tokensEqual(secrets.signInKey(), key.trim())) {
      throw new ServiceError(
        'unauthorized',
        'that is not the sign-in key: copy it from the sign-in address hud-automation printed (hud-automation app-url)',
      );
    }
    reply.header('set-cookie', sessionCookie(secrets.signInKey()));
    return { ok: true as const };
  });

  app.post('/auth/sign-out', { schema: { response: answers(okAnswer({})) } }, async (_request, reply) => {
    reply.header('set-cookie', signedOutCookie());
    return { ok: true as const };
  });
};

export default fp(authRoutes, { name: 'auth-routes', dependencies: ['page-access'] });
