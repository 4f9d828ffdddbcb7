import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Access } from '../access/access.ts';
import { decideAccess } from '../access/access-policy.ts';
import { extractQueryToken, extractToken } from '../access/access-token.ts';
import type { Peer } from '../access/peer.ts';
import { pathOf, peerOf } from '../access/peer.ts';
import type { SessionRecord } from '../access/sessions.ts';
import { ServiceError } from '../protocol/errors.ts';
import { GAME_DATA_PATH } from '../protocol/game.ts';
import { closeAfterRefusal } from './connection-limits.ts';
import { sendError } from './error-envelope.ts';
import { hostRefusal, missingHost } from './host-check.ts';
import { isUpgrade, upgradePathRefusal, WS_PATHS } from './upgrade.ts';

/** How a WebSocket upgrade was let in: with a good token, to send one as its first message, or to be closed 4401. */
export type WsAuth = 'accepted' | 'awaiting' | 'rejected';

declare module 'fastify' {
  interface FastifyRequest {
    /** A device on the local network (rate limited, dropped when the token changes). */
    remote: boolean;
    wsAuth: WsAuth;
    /** A signed-in browser of the operator app (the application server only). */
    signedIn: boolean;
    /** Its session (the application server only). */
    session: SessionRecord | null;
  }
}

/** Routes a web page may call (they carry an Origin header): nothing there changes or reveals the match. */
export const ORIGIN_ALLOWED: ReadonlySet<string> = new Set(['/health', '/api/presets', '/api/actions']);

/** The panel's API and the game's state feed: only for this machine, whatever the token. */
const isLocalOnly = (path: string) => path.startsWith('/internal/') || path === GAME_DATA_PATH;

/**
 * Who may come in, checked before routing is acted on: the Host header, the address class, the
 * rate limit, the token and the Origin header. Every request is recorded for the panel.
 */
async function accessPlugin(app: FastifyInstance, { access }: { access: Access }): Promise<void> {
  app.decorateRequest('remote', false);
  app.decorateRequest('wsAuth', 'accepted');
  app.decorateRequest('signedIn', false);
  app.decorateRequest('session', null);

  // Callback hooks, not async ones: a request from this machine is decided without a promise (only
  // the rate limit of a remote device waits), which is a measurable part of a request's cost.
  app.addHook('onRequest', (request, reply, done) => {
    const settle = (refusal: ServiceError | null) => {
      const refused = refusal ?? missingHost(request) ?? upgradePathRefusal(request);
      if (!refused) return done();
      closeAfterRefusal(request, reply);
      sendError(reply, refused);
    };
    const refusal = refusalOf(request, access);
    if (refusal instanceof Promise) refusal.then(settle, done);
    else settle(refusal);
  });

  app.addHook('onResponse', (request, reply, done) => {
    // Game frames come many times a second: Integrations > Game shows them; refused ones are listed.
    // (The raw path, not request.routeOptions: Fastify builds that object on every read.)
    const gameFrame = reply.statusCode < 400 && request.url.startsWith(GAME_DATA_PATH);
    if (!gameFrame) recordRequest(access, request, reply, 'http', pathOf(request.url));
    done();
  });
}

/** Puts an answered request on the recent-requests list (and in the log at debug). */
export function recordRequest(
  access: Access,
  request: FastifyRequest,
  reply: FastifyReply,
  transport: 'http' | 'app',
  path: string,
): void {
  const entry = {
    transport,
    request: `${request.method} ${path}`,
    status: reply.statusCode,
    address: peerOf(request.socket, request.ip).address,
  };
  const { failure } = reply;
  const record = failure ? { ...entry, error: failure.code, message: failure.message } : entry;
  access.recent.add(record);
  request.log.debug(record, 'request');
}

const originRefusal = () =>
  new ServiceError(
    'forbidden',
    'requests from web pages (with an Origin header) may only read /health, /api/presets and /api/actions',
  );

function refusesOrigin(request: FastifyRequest, route: string, upgrade: boolean): boolean {
  if (request.headers.origin === undefined) return false;
  // OPTIONS: the CORS preflight of a read (src/http/cors.ts).
  const reading = request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS';
  return upgrade || !reading || !ORIGIN_ALLOWED.has(route);
}

/** Why the request is refused, or null; a promise only when a remote device's rate limit is consulted. */
function refusalOf(
  request: FastifyRequest,
  access: Access,
): ServiceError | null | Promise<ServiceError | null> {
  const foreignHost = hostRefusal(request.headers.host);
  if (foreignHost) return foreignHost;
  const peer = peerOf(request.socket, request.ip);
  const upgrade = isUpgrade(request);
  // The route the router matched, not the raw URL: /%69nternal/token and /gsi/ reach the same handlers.
  // Read only when needed: Fastify builds the object on every read.
  const needsRoute = peer.class !== 'loopback' || request.headers.origin !== undefined;
  const route = needsRoute ? (request.routeOptions.url ?? '') : '';
  if (peer.class === 'loopback') return refusesOrigin(request, route, upgrade) ? originRefusal() : null;

  request.remote = true;
  const path = pathOf(request.url);
  if (isLocalOnly(route))
    return new ServiceError('forbidden', `${path} is only for programs on this machine`);
  return access.rateLimit.consume(peer.address).then(
    () => remoteRefusal(request, access, peer, route, upgrade),
    (error: unknown) => {
      if (error instanceof ServiceError) return error;
      throw error;
    },
  );
}

/** A device on the local network within its rate: the token and the Origin header decide. */
function remoteRefusal(
  request: FastifyRequest,
  access: Access,
  peer: Peer,
  route: string,
  upgrade: boolean,
): ServiceError | null {
  const presentedToken =
    extractToken(request.headers) ?? (upgrade ? extractQueryToken(request.url) : undefined);
  const decision = decideAccess({
    address: peer.address,
    lanMode: access.lanMode(),
    token: access.token(),
    presentedToken,
  });
  if (!decision.allow) {
    // A WebSocket from the local network may still bring its token in its first message; a wrong
    // one is refused after the upgrade, with close code 4401, as the spec says.
    if (!(upgrade && WS_PATHS.has(route) && decision.error.code === 'unauthorized')) return decision.error;
    request.wsAuth = presentedToken === undefined ? 'awaiting' : 'rejected';
  }

  if (refusesOrigin(request, route, upgrade)) return originRefusal();
  return null;
}

export default fp(accessPlugin, { name: 'access', dependencies: ['error-envelope'] });
