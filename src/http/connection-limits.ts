/**
 * What one peer may hold of the server: time limits for every request, a cap on the connections of
 * each remote host and on all remote connections together, and no socket kept for a refused request
 * that still has a body to send. No device on the local network, nor all of them together, can use
 * up the file descriptors and lock out the machine's own clients.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { deviceKey } from '../access/device-key.ts';
import { remoteAddressOf } from '../access/peer.ts';
import { classifyAddress } from '../net/address-class.ts';

/** Request line and headers must be in within this time, counted from the connection or the previous request. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** The whole request, body included (at most 64 KiB), must be in within this time. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** An idle keep-alive connection is closed after this time. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Open connections (HTTP and WebSocket, both servers) of one remote host; more are closed at once. */
export const MAX_CONNECTIONS_PER_DEVICE = 32;
/** All remote connections together never take more than this share of the descriptor limit. */
const REMOTE_SHARE_OF_DESCRIPTORS = 0.5;
/** …and never more than this many, whatever the limit. */
const MAX_REMOTE_CONNECTIONS = 512;
/** Where the process's limit cannot be read (not Linux), the usual default limit is assumed. */
const ASSUMED_DESCRIPTOR_LIMIT = 1_024;

/** The soft limit of open files of this process (Linux: /proc/self/limits). */
export function descriptorLimit(limits = '/proc/self/limits'): number {
  try {
    const line = readFileSync(limits, 'latin1')
      .split('\n')
      .find((text) => text.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isInteger(soft) && soft > 0 ? soft : ASSUMED_DESCRIPTOR_LIMIT;
  } catch {
    return ASSUMED_DESCRIPTOR_LIMIT;
  }
}

/** The cap on all remote connections: half the descriptors, so loopback, files and OBS keep theirs. */
export const remoteConnectionCap = (limit = descriptorLimit()) =>
  Math.max(
    MAX_CONNECTIONS_PER_DEVICE,
    Math.min(MAX_REMOTE_CONNECTIONS, Math.floor(limit * REMOTE_SHARE_OF_DESCRIPTORS)),
  );

/** Fastify's server options for the limits above. Node checks the time limits once a second. */
export const timeoutOptions = {
  requestTimeout: REQUEST_TIMEOUT_MS,
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
} as const;

/**
 * Counts the open remote connections of the servers it watches, per host and all together, and
 * closes a connection above either cap as soon as it is accepted: no answer, it costs nothing. This
 * machine's own connections are never counted. One budget serves both servers: the descriptors are
 * the process's.
 */
export class ConnectionBudget {
  readonly #open = new Map<string, number>();
  readonly #cap: number;
  #remote = 0;

  constructor(cap = remoteConnectionCap()) {
    this.#cap = cap;
  }

  /** Remote connections open now. */
  get remote(): number {
    return this.#remote;
  }

  watch(server: Server): void {
    server.on('connection', (socket: Socket) => this.#admit(socket));
  }

  #admit(socket: Socket): void {
    const address = remoteAddressOf(socket);
    if (address === undefined) {
      socket.destroy();
      return;
    }
    if (classifyAddress(address) === 'loopback') return;
    const key = deviceKey(address) ?? 'unknown';
    const count = (this.#open.get(key) ?? 0) + 1;
    if (count > MAX_CONNECTIONS_PER_DEVICE || this.#remote >= this.#cap) {
      socket.destroy();
      return;
    }
    this.#open.set(key, count);
    this.#remote += 1;
    socket.once('close', () => {
      this.#remote -= 1;
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left > 0) this.#open.set(key, left);
      else this.#open.delete(key);
    });
  }
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
