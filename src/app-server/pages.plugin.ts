import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pathOf } from '../access/peer.ts';
import { sendError } from '../http/error-envelope.ts';
import { ServiceError } from '../protocol/errors.ts';
import { isOverlayPagePath, SCENE_PAGES } from './page-paths.ts';

/**
 * Anti-framing, on every answer of the application server but the pages OBS shows (the HUD and the
 * scenes): no other site may put the operator app, its sign-in, the observer's page or anything
 * else of this server in a frame (clickjacking). The modern header and the old one, for older
 * browsers and OBS's own Chromium. The HUD and scene pages may be framed: they only show, carry no
 * session and nothing to click, and crews compose them inside other pages (docs/application.md).
 */
export const NO_FRAMING = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const;

/**
 * The server's one static-file path, @fastify/static: the built pages (dist/pages) here, and through
 * its `reply.sendFile` the media store's images (media.plugin.ts). The built pages: the operator app
 * at /, the HUD overlay at /hud, the scene pages at /scenes/<window|versus|talents|sponsors|mapRecap>,
 * the observer's page at /observer, and their assets.
 */
async function pagesPlugin(app: FastifyInstance, { root }: { root: string }): Promise<void> {
  // Every answer, not only the built pages': a page not built yet, an error, the sign-in redirect.
  app.addHook('onSend', async (request, reply) => {
    if (!isOverlayPagePath(pathOf(request.url))) {
      // Added to a policy the answer already has (a stored SVG's sandbox), never in its place.
      const policy = reply.getHeader('content-security-policy');
      reply.headers({
        ...NO_FRAMING,
        ...(policy
          ? { 'content-security-policy': `${policy}; ${NO_FRAMING['content-security-policy']}` }
          : {}),
      });
    }
    // Built assets carry a content hash in their name: they never change, the index does.
    if (request.url.startsWith('/assets/'))
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    else if (reply.getHeader('content-type')?.toString().startsWith('text/html'))
      reply.header('cache-control', 'no-cache');
  });
  if (!existsSync(root)) {
    app.log.warn({ root }, 'the pages are not built: run npm run build');
    // reply.sendFile still, for the media store's files (media.plugin.ts), which name their folder.
    await app.register(fastifyStatic, { serve: false });
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
}

export default fp(pagesPlugin, { name: 'pages', dependencies: ['error-envelope'] });
