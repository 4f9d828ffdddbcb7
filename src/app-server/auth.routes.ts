import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { tokensEqual } from '../access/access-token.ts';
import { peerOf } from '../access/peer.ts';
import type { Secrets } from '../access/secrets.ts';
import type { Sessions } from '../access/sessions.ts';
import { sessionCookie, signedOutCookie } from '../access/sign-in.ts';
import { checkPayload } from '../core/dispatcher.ts';
import { compiledCheck } from '../protocol/compiled-check.ts';
import { ServiceError } from '../protocol/errors.ts';
import { answers, okAnswer } from '../protocol/http-answers.ts';

const SignIn = Type.Object(
  { key: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);
const checkSignIn = compiledCheck(SignIn);

export interface AuthRoutesOptions {
  secrets: Pick<Secrets, 'signInKey'>;
  sessions: Pick<Sessions, 'create' | 'end'>;
}

/** Signing in and out of the operator app: each sign-in is a session of that browser. */
const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, { secrets, sessions }) => {
  const startSession = async (request: FastifyRequest) =>
    sessionCookie(
      await sessions.create(request.headers['user-agent'], peerOf(request.socket, request.ip).address),
    );

  // The sign-in address: /?key=<key>. The key leaves the address bar at once (a redirect to /), so
  // it is not kept in the history or shown on a screen share.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const url = new URL(request.url, 'http://localhost');
    const key = url.searchParams.get('key');
    if (key === null) return;
    url.searchParams.delete('key');
    const target = `${url.pathname}${url.search}`;
    if (tokensEqual(secrets.signInKey(), key)) reply.header('set-cookie', await startSession(request));
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
    reply.header('set-cookie', await startSession(request));
    return { ok: true as const };
  });

  app.post('/auth/sign-out', { schema: { response: answers(okAnswer({})) } }, async (request, reply) => {
    // The session ends on the server: the cookie, copied or not, opens nothing any more.
    if (request.session) await sessions.end(request.session.id);
    reply.header('set-cookie', signedOutCookie());
    return { ok: true as const };
  });
};

export default fp(authRoutes, { name: 'auth-routes', dependencies: ['page-access'] });
