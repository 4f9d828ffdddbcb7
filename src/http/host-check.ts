import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../protocol/errors.ts';

let cached: Set<string> | null = null;

function readAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) addresses.add(entry.address.toLowerCase().split('%')[0] ?? '');
  }
  return addresses;
}

// Interfaces come and go (a laptop joins a network): an address not seen before is looked up again.
function isOwnAddress(address: string): boolean {
  if (cached?.has(address)) return true;
  cached = readAddresses();
  return cached.has(address);
}

/** The host part of a Host header: without port, without IPv6 brackets, lower case. */
export function hostOf(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') >= 0 ? value.indexOf(']') : undefined);
  const colon = value.lastIndexOf(':');
  return colon >= 0 && value.indexOf(':') === colon ? value.slice(0, colon) : value;
}

/**
 * Whether a Host header names this machine: localhost, an address of one of its interfaces, or its
 * host name (as the system reports it, alone, or with .local for mDNS). A DNS-rebinding page reaches
 * 127.0.0.1 under its own name, which fails here, so it cannot read the state even with a
 * same-origin request (no Origin header).
 */
export function isOwnHost(header: string | undefined): boolean {
  if (header === undefined) return true; // HTTP/1.0 programs; browsers always send Host
  if (ownHosts.has(header)) return true;
  const own = decideOwnHost(header);
  // Only yes is remembered (a client sends the same Host on every request; no may turn into yes
  // when an interface comes up), and only a few: a peer cannot grow it with headers of its choice.
  if (own && ownHosts.size < 16) ownHosts.add(header);
  return own;
}

/** Host headers already found to name this machine. */
const ownHosts = new Set<string>();

function decideOwnHost(header: string): boolean {
  const host = hostOf(header);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host)) return host.startsWith('127.') || isOwnAddress(host);
  const full = hostname().toLowerCase();
  const short = full.split('.')[0] ?? full;
  return host === full || host === short || host === `${short}.local`;
}

/**
 * The 400 for a request of HTTP/1.1 or later without Host, as HTTP/1.1 requires (Node's own check is
 * off so that the answer is the envelope); HTTP/1.0 may leave it out. A fault of the request: it is
 * told after the access answer, like any other.
 */
export function missingHost(request: FastifyRequest): ServiceError | null {
  if (request.headers.host !== undefined || request.raw.httpVersion === '1.0') return null;
  return new ServiceError('bad_request', 'an HTTP/1.1 request must name the host it is for (Host header)');
}

/** The 403 for a Host header that does not name this machine; null when it does. */
export function hostRefusal(header: string | undefined): ServiceError | null {
  if (isOwnHost(header)) return null;
  return new ServiceError('forbidden', `Host ${header} is not this machine: use its address or name`);
}
