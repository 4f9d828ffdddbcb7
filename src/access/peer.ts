import type { Socket } from 'node:net';
import type { AddressClass } from '../net/address-class.ts';
import { canonicalAddress, classifyAddress } from '../net/address-class.ts';

export interface Peer {
  class: AddressClass;
  /** Canonical form: IPv4-mapped addresses as IPv4, no zone id. */
  address: string;
}

const peers = new WeakMap<Socket, Peer>();

/** The URL without its query. */
export const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * The peer's address, or undefined when Node cannot tell it. Reading it can throw: a link-local
 * peer's zone id is looked up by interface number, and that lookup fails (ENOENT uv_if_indextoiid)
 * when the process is out of descriptors. Read here once; Node keeps it for every later read.
 */
export function remoteAddressOf(socket: Socket): string | undefined {
  try {
    return socket.remoteAddress;
  } catch {
    return undefined;
  }
}

/** The class and address of a connection's peer, worked out once per connection, not per request. */
export function peerOf(socket: Socket | undefined, fallback: string): Peer {
  if (!socket) return { class: 'outside', address: fallback };
  let peer = peers.get(socket);
  if (!peer) {
    const remote = remoteAddressOf(socket);
    peer = { class: classifyAddress(remote), address: canonicalAddress(remote) ?? fallback };
    peers.set(socket, peer);
  }
  return peer;
}
