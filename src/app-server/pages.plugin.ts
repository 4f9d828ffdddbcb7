import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pathOf } from '../access/peer.ts';
import { sendError } from '../http/error-envelope.ts';
import { ServiceError } from '../protocol/errors.ts';
import { sendFromDisk } from './file-send.ts';
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
 * The built pages (dist/pages): the operator app at /, the HUD overlay at /hud, the scene pages at
 * /scenes/<window|versus|talents|sponsors|mapRecap>, the observer's page at /observer, and their assets.
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
    app.get('/', (_request, reply) =>
      sendError(
        reply,
        new ServiceError('unavailable', `the pages are not built (${root}): run npm run build`),
      ),
    );
    return;
  }
  // A browser that goes away while a file is sent is not a failure to answer (as @fastify/static).
  const fileRoute = {
    errorHandler(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply) {
      if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') {
        request.raw.destroy();
        return;
      }
      return app.errorHandler(error, request, reply);
    },
  };
  // Every file of the built pages, as @fastify/static served them (index.html for a folder).
  app.get('/*', fileRoute, (request, reply) => {
    const pathname = pathnameOf(request.url);
    return pathname === null ? notFound(reply) : sendPage(request, reply, root, pathname);
  });
  app.get('/hud', fileRoute, (request, reply) => sendPage(request, reply, root, '/hud.html'));
  // For the person at the observer PC: signed in like the operator app (its WebSocket needs the session).
  app.get('/observer', fileRoute, (request, reply) => sendPage(request, reply, root, '/observer.html'));
  app.get<{ Params: { scene: string } }>('/scenes/:scene', fileRoute, (request, reply) => {
    const { scene } = request.params;
    if (!SCENE_PAGES.includes(scene)) {
      return sendError(
        reply,
        new ServiceError('not_found', `no scene page "${scene}": /scenes/ + ${SCENE_PAGES.join(', ')}`),
      );
    }
    return sendPage(request, reply, root, '/scene.html');
  });
}

const INDEX = 'index.html';

/** The request's path without its query, decoded; null when it cannot be decoded. */
function pathnameOf(url: string): string | null {
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  try {
    return decodeURI(path);
  } catch {
    return null;
  }
}

/**
 * One file of the built pages (what @fastify/static did with our options): a missing file, or a
 * folder without an index, is the server's 404; any other failure is an error answer.
 */
async function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  root: string,
  pathname: string,
): Promise<FastifyReply> {
  // send decodes the path it is given: it gets it encoded.
  const result = await sendFromDisk(request.raw, encodeURI(pathname), {
    root,
    index: INDEX,
    cacheControl: false,
    dotfiles: 'allow',
  });
  switch (result.type) {
    case 'file':
      return reply.code(result.statusCode).headers(result.headers).send(result.stream);
    case 'directory':
      // A folder named without its trailing slash is answered as with it, when it has an index.
      return !pathname.endsWith('/') && hasIndex(join(root, pathname))
        ? sendPage(request, reply, root, `${pathname}/`)
        : notFound(reply);
    case 'error': {
      const error = result.metadata.error as Error & { code?: string; status?: number };
      return error.code === 'ENOENT' || error.status === 404 ? notFound(reply) : reply.send(error);
    }
  }
}

/** The server's 404 (the envelope, or 405 for a path of another method). */
function notFound(reply: FastifyReply): FastifyReply {
  reply.callNotFound();
  return reply;
}

function hasIndex(dir: string): boolean {
  try {
    return !statSync(join(dir, INDEX)).isDirectory();
  } catch {
    return false;
  }
}

export default fp(pagesPlugin, { name: 'pages', dependencies: ['error-envelope'] });
