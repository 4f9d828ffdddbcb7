import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ServiceError } from '../errors.ts';
import { sendError } from '../http/error-envelope.ts';

/**
 * The built pages (dist/pages): the operator app at /, its assets. An unknown path that a browser
 * asks as a page gets the app (it routes on the client); anything else stays a 404 envelope.
 */
async function pagesPlugin(app: FastifyInstance, { root }: { root: string }): Promise<void> {
  if (!existsSync(root)) {
    app.log.warn({ root }, 'the pages are not built: run npm run build');
    app.get('/', (_request, reply) =>
      sendError(
        reply,
        new ServiceError('unavailable', `the pages are not built (${root}): run npm run build`),
      ),
    );
    return;
  }
  await app.register(fastifyStatic, { root, index: 'index.html', wildcard: true, cacheControl: false });
  // Built assets carry a content hash in their name: they never change, the index does.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/assets/'))
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    else if (reply.getHeader('content-type')?.toString().startsWith('text/html'))
      reply.header('cache-control', 'no-cache');
  });
}

export default fp(pagesPlugin, { name: 'pages', dependencies: ['error-envelope'] });
