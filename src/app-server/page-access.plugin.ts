/**
 * Who may use the application server (the operator app and the pages OBS loads). Its own pages'
 * Origin only, on anything that changes state and on WebSocket upgrades (cross-site WebSocket
 * hijacking); the Host header names this machine (DNS rebinding); from the local network only in
 * LAN mode; the panel's API only for a signed-in browser.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Access } from '../access/access.ts';
import { decideAccess } from '../access/access-policy.ts';
import { extractQueryToken, extractQueryValue, extractToken, tokensEqual } from '../access/access-token.ts';
import type { Peer } from '../access/peer.ts';
import { pathOf, peerOf } from '../access/peer.ts';
import type { Sessions } from '../access/sessions.ts';
import { sessionOf } from '../access/sign-in.ts';
import { recordRequest } from '../http/access-hooks.ts';
import { closeAfterRefusal } from '../http/connection-limits.ts';
import { sendError } from '../http/error-envelope.ts';
import { hostRefusal, missingHost } from '../http/host-check.ts';
import { isUpgrade, PAGE_WS_PATHS, upgradePathRefusal } from '../http/upgrade.ts';
import { ServiceError } from '../protocol/errors.ts';
import { GAME_DATA_PATH } from '../protocol/game.ts';
import { needsPageCredential } from './page-paths.ts';

/** Whether an Origin header is this server's own (same host and port as the request's Host). */
export function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return url.protocol === 'http:' && url.host.toLowerCase() === host.trim().toLowerCase();
}

const PANEL_API = '/api/panel/';

export interface PageAccessOptions {
  access: Access;
  /** The operator app's sessions: a request with a live session's cookie is signed in. */
  sessions: Pick<Sessions, 'verify'>;
  /** The current view key: it opens the pages that only show, read-only. */
  viewKey(): string;
}

/** Where a page's address carries the view key: `/hud?view=<view key>`. */
export const VIEW_KEY_PARAM = 'view';

async function refusalOf(request: FastifyRequest, options: PageAccessOptions): Promise<ServiceError | null> {
  const { access, sessions } = options;
  const { host, origin } = request.headers;
  const foreignHost = hostRefusal(host);
  if (foreignHost) return foreignHost;
  const upgrade = isUpgrade(request);
  const reading = (request.method === 'GET' || request.method === 'HEAD') && !upgrade;
  if (origin !== undefined && !reading && !isOwnOrigin(origin, host)) {
    return new ServiceError(
      'forbidden',
      `requests from ${origin} are refused: only this server's own pages may send them`,
    );
  }

  request.session = sessions.verify(sessionOf(request.headers.cookie));
  request.signedIn = request.session !== null;
  const path = routedPath(request.url);
  const peer = peerOf(request.socket, request.ip);
  if (peer.class !== 'loopback') {
    request.remote = true;
    if (!access.lanMode() || peer.class === 'outside') {
      const decision = decideAccess({
        address: peer.address,
        lanMode: access.lanMode(),
        token: access.token(),
        presentedToken: undefined,
      });
      if (!decision.allow) return decision.error;
    }
    // The game posts at its own pace (the cfg's throttle), and its auth token guards the endpoint.
    try {
      if (path !== GAME_DATA_PATH) await access.rateLimit.consume(peer.address);
    } catch (error) {
      if (error instanceof ServiceError) return error;
      throw error;
    }
  }
  if (path.startsWith(PANEL_API) && !request.signedIn) {
    return new ServiceError('unauthorized', 'sign in to the operator app first (its sign-in address or key)');
  }
  if (upgrade || path.startsWith('/api/') || needsPageCredential(path)) {
    return credentialRefusal(request, options, peer, reading || upgrade);
  }
  return null;
}

/**
 * The credential of a page, a read or a WebSocket, and what it allows (`request.grant`). The pages in
 * OBS on this machine read and follow the state without signing in; from the local network they
 * bring the view key (`?view=`) in their address, which their WebSocket passes on. Full rights come
 * from a session, the access token, or a program on this machine (no Origin: the spec's local
 * clients, which need no credential); a browser page without a session, or anything that presents
 * only the view key, only reads, whatever `?role=` it names (docs/access.md, "Pages that only show").
 */
function credentialRefusal(
  request: FastifyRequest,
  { access, viewKey }: PageAccessOptions,
  peer: Peer,
  reading: boolean,
): ServiceError | null {
  if (request.signedIn) return null;
  const presented = extractToken(request.headers) ?? extractQueryToken(request.url);
  const view = extractQueryValue(request.url, VIEW_KEY_PARAM);
  if (presented !== undefined && tokensEqual(access.token(), presented)) return null;
  if (peer.class === 'loopback') {
    // The view key only reads, wherever it comes from. A browser page of this server without a
    // session (OBS on this machine: no other site can send this Origin) reads, and as the HUD
    // overlay reports what it shows.
    if (view !== undefined) request.grant = 'view';
    else if (request.headers.origin !== undefined) request.grant = 'report';
    return null;
  }
  if (presented === undefined && view !== undefined && reading) {
    if (!tokensEqual(viewKey(), view)) {
      return new ServiceError(
        'unauthorized',
        'view key is wrong: copy the current address from Browser sources',
      );
    }
    request.grant = 'view';
    return null;
  }
  const decision = decideAccess({
    address: peer.address,
    lanMode: true,
    token: access.token(),
    presentedToken: presented,
  });
  return decision.allow ? null : decision.error;
}

/**
 * The path as the router reads it, for the checks: percent-decoded and without a trailing slash, so
 * /api/%70anel/token and /gsi/ meet the rules of /api/panel/token and /gsi, whose handlers they reach.
 */
function routedPath(url: string): string {
  const raw = pathOf(url);
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // Not decodable: the router refuses it (400) before any handler runs.
  }
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

async function pageAccessPlugin(app: FastifyInstance, options: PageAccessOptions): Promise<void> {
  app.decorateRequest('remote', false);
  app.decorateRequest('wsAuth', 'accepted');
  app.decorateRequest('signedIn', false);
  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request, reply) => {
    const refusal =
      (await refusalOf(request, options)) ??
      missingHost(request) ??
      upgradePathRefusal(request, PAGE_WS_PATHS);
    if (!refusal) return;
    closeAfterRefusal(request, reply);
    return sendError(reply, refusal);
  });

  app.addHook('onResponse', async (request, reply) => {
    // The pages' own loading (scripts, styles) is not a request an operator wants to read about.
    const path = routedPath(request.url);
    if (request.method === 'GET' && !path.startsWith('/api/') && reply.statusCode < 400) return;
    // Game frames come many times a second: the Game view shows them; refused ones are listed.
    if (path === GAME_DATA_PATH && reply.statusCode < 400) return;
    recordRequest(options.access, request, reply, 'app', path);
  });
}

export default fp(pageAccessPlugin, { name: 'page-access', dependencies: ['error-envelope'] });
