import type { DoneFuncWithErrOrRes, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ORIGIN_ALLOWED } from './access-hooks.ts';

/**
 * The three public reads (/health, /api/presets, /api/actions) are readable by any web page: their
 * answers say `Access-Control-Allow-Origin: *`, and a CORS preflight (OPTIONS) for them is
 * answered. Every other route keeps refusing an Origin header (access-hooks.ts), so a page still
 * cannot send a command or read the match. No credentials are involved: the wildcard carries none.
 */
export function registerPublicCors(app: FastifyInstance): void {
  const preflight = async (_request: unknown, reply: FastifyReply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', 'GET, HEAD')
      .header('access-control-max-age', '600')
      .send();
  for (const url of ORIGIN_ALLOWED) app.options(url, preflight);

  // On the three public routes only, added as they are declared: a global onSend hook makes Fastify
  // run its onSend chain on every answer, commands and /api/state included.
  const allowOrigin = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: DoneFuncWithErrOrRes,
  ) => {
    if (request.headers.origin !== undefined && reply.statusCode < 400)
      reply.header('access-control-allow-origin', '*');
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (ORIGIN_ALLOWED.has(route.url) && route.method !== 'OPTIONS')
      route.onSend = [route.onSend ?? []].flat().concat(allowOrigin);
  });
}
