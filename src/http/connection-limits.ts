/**
 * What one peer may hold of the server: time limits for every request, a cap on the connections of
 * each remote device, and no socket kept for a refused request that still has a body to send. A
 * device on the local network must not be able to use up the file descriptors and lock out the
 * machine's own clients.
 */
import type { Server } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { deviceKey } from '../access/device-key.ts';
import { classifyAddress } from '../net/address-class.ts';

/** Request line and headers must be in within this time, counted from the connection or the previous request. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** The whole request, body included (at most 64 KiB), must be in within this time. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** An idle keep-alive connection is closed after this time. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Open connections (HTTP and WebSocket) of one remote device; more are closed at once. */
export const MAX_CONNECTIONS_PER_DEVICE = 32;

/** Fastify's server options for the limits above. Node checks the time limits once a second. */
export const timeoutOptions = {
  requestTimeout: REQUEST_TIMEOUT_MS,
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
} as const;

/**
 * Closes the connections of a remote device above MAX_CONNECTIONS_PER_DEVICE as soon as they are
 * accepted: no answer, it costs nothing. This machine's own connections are never counted.
 */
export function limitConnectionsPerDevice(server: Server): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    if (classifyAddress(socket.remoteAddress) === 'loopback') return;
    const key = deviceKey(socket.remoteAddress) ?? 'unknown';
    const count = (open.get(key) ?? 0) + 1;
    if (count > MAX_CONNECTIONS_PER_DEVICE) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

/**
 * After a refusal, a request that declared a body is answered with `Connection: close`: otherwise
 * Node would keep reading the body it will never use, for as long as the peer cares to trickle it.
 */
export function closeAfterRefusal(request: FastifyRequest, reply: FastifyReply): void {
  const { headers } = request;
  const declaresBody =
    headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  if (declaresBody) reply.header('connection', 'close');
}
