import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decideAccess } from '../access/access-policy.ts';
import { extractQueryToken, extractToken } from '../access/access-token.ts';
import { canonicalAddress, classifyAddress } from '../access/address-class.ts';
import { RateLimitedError } from '../access/rate-limit.ts';
import { ServiceError } from '../errors.ts';
import type { Service } from '../service.ts';
import { isOwnHost } from './host-check.ts';

/** How a WebSocket upgrade was let in: with a good token, to send one as its first message, or to be closed 4401. */
export type WsAuth = 'accepted' | 'awaiting' | 'rejected';

declare module 'fastify' {
  interface FastifyRequest {
    /** A device on the local network (rate limited, dropped when the token changes). */
    remote: boolean;
    wsAuth: WsAuth;
  }
}

/** Routes a web page may call (they carry an Origin header): nothing there changes or reveals the match. */
const ORIGIN_ALLOWED = new Set(['/health', '/api/presets', '/api/actions']);

/** The panel's API and the game's state feed: only for this machine, whatever the token. */
const isLocalOnly = (path: string) => path.startsWith('/internal/') || path === '/gsi';

export function sendError(reply: FastifyReply, error: ServiceError): FastifyReply {
  if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(error.status).send(error.toBody());
}

/**
 * Who may come in, checked before routing is acted on: the Host header, the address class, the
 * rate limit, the token and the Origin header. Every request is recorded for the panel.
 */
export function registerAccess(app: FastifyInstance, service: Service): void {
  app.decorateRequest('remote', false);
  app.decorateRequest('wsAuth', 'accepted');

  app.addHook('onRequest', async (request, reply) => {
    const refusal = await refusalOf(request, service);
    if (refusal) return sendError(reply, refusal);
  });

  app.addHook('onResponse', async (request, reply) => {
    const address = canonicalAddress(request.socket?.remoteAddress) ?? request.ip;
    const path = request.url.split('?')[0] ?? '';
    const record = {
      time: new Date().toISOString(),
      transport: 'http' as const,
      request: `${request.method} ${path}`,
      status: reply.statusCode,
      address,
    };
    service.recent.add(record);
    request.log.info(record, 'request');
  });
}

async function refusalOf(request: FastifyRequest, service: Service): Promise<ServiceError | null> {
  const address = request.socket?.remoteAddress;
  // The route the router matched, not the raw URL: /%69nternal/token and /gsi/ reach the same handlers.
  const route = request.routeOptions.url ?? '';
  const path = request.url.split('?')[0] ?? '';
  if (!isOwnHost(request.headers.host)) {
    return new ServiceError(
      'forbidden',
      `Host ${request.headers.host} is not this machine: use its address or name`,
    );
  }
  const remote = classifyAddress(address) !== 'loopback';
  request.remote = remote;
  if (remote && isLocalOnly(route))
    return new ServiceError('forbidden', `${path} is only for programs on this machine`);
  try {
    await service.rateLimit.consume(address);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }

  const upgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
  const presentedToken =
    extractToken(request.headers) ?? (upgrade ? extractQueryToken(request.url) : undefined);
  const { lanMode } = service.settings();
  const decision = decideAccess({ address, lanMode, token: service.token(), presentedToken });
  if (!decision.allow) {
    // A WebSocket from the local network may still bring its token in its first message; a wrong
    // one is refused after the upgrade, with close code 4401, as the spec says.
    if (!(upgrade && decision.error.code === 'unauthorized')) return decision.error;
    request.wsAuth = presentedToken === undefined ? 'awaiting' : 'rejected';
  }

  if (request.headers.origin !== undefined) {
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (upgrade || !reading || !ORIGIN_ALLOWED.has(route)) {
      return new ServiceError(
        'forbidden',
        'requests from web pages (with an Origin header) may only read /health, /api/presets and /api/actions',
      );
    }
  }
  return null;
}
