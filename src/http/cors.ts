import type { FastifyInstance, FastifyReply } from 'fastify';
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

  // A callback hook: an async one costs every answer a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      request.headers.origin !== undefined &&
      reply.statusCode < 400 &&
      ORIGIN_ALLOWED.has(request.routeOptions.url ?? '')
    )
      reply.header('access-control-allow-origin', '*');
    done(null, payload);
  });
}
