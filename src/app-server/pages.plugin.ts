import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from '../http/error-envelope.ts';
import { ServiceError } from '../protocol/errors.ts';
import { SCENE_PAGES } from './page-paths.ts';

/**
 * The built pages (dist/pages): the operator app at /, the HUD overlay at /hud, the scene pages at
 * /scenes/<window|versus|talents|sponsors|mapRecap>, the observer's page at /observer, and their assets.
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
  app.get('/hud', (_request, reply) => reply.sendFile('hud.html'));
  // For the person at the observer PC: signed in like the operator app (its WebSocket needs the session).
  app.get('/observer', (_request, reply) => reply.sendFile('observer.html'));
  app.get<{ Params: { scene: string } }>('/scenes/:scene', (request, reply) => {
    const { scene } = request.params;
    if (!SCENE_PAGES.includes(scene)) {
      return sendError(
        reply,
        new ServiceError('not_found', `no scene page "${scene}": /scenes/ + ${SCENE_PAGES.join(', ')}`),
      );
    }
    return reply.sendFile('scene.html');
  });
  // Built assets carry a content hash in their name: they never change, the index does.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/assets/'))
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    else if (reply.getHeader('content-type')?.toString().startsWith('text/html'))
      reply.header('cache-control', 'no-cache');
  });
}

export default fp(pagesPlugin, { name: 'pages', dependencies: ['error-envelope'] });
