import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../protocol/errors.ts';
import { HLAE_PATH } from '../protocol/game.ts';

/** The paths of the automation server's WebSocket: anywhere else an upgrade is refused before it happens. */
export const WS_PATHS: ReadonlySet<string> = new Set(['/', '/ws']);
/** Where the automation server takes an upgrade: its WebSocket, and HLAE's link (src/automation-server/hlae.routes.ts). */
export const UPGRADE_PATHS: ReadonlySet<string> = new Set([...WS_PATHS, HLAE_PATH]);
/** The application server's: its pages' WebSocket. */
export const PAGE_WS_PATHS: ReadonlySet<string> = new Set(['/ws']);

export const isUpgrade = (request: FastifyRequest) => request.headers.upgrade?.toLowerCase() === 'websocket';

/**
 * 404 for a WebSocket upgrade on a path that is not the WebSocket's (an unknown path, or an HTTP
 * route such as /api/state), answered as HTTP instead of upgrading and closing at once.
 */
export function upgradePathRefusal(
  request: FastifyRequest,
  paths: ReadonlySet<string> = UPGRADE_PATHS,
): ServiceError | null {
  if (!isUpgrade(request)) return null;
  const route = request.routeOptions.url;
  if (route !== undefined && paths.has(route)) return null;
  const path = request.url.split('?')[0] ?? '';
  return new ServiceError('not_found', `no WebSocket at ${path}: connect to ${[...paths].join(' or ')}`);
}
