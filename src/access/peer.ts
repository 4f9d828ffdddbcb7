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

/** The class and address of a connection's peer, worked out once per connection, not per request. */
export function peerOf(socket: Socket | undefined, fallback: string): Peer {
  if (!socket) return { class: 'outside', address: fallback };
  let peer = peers.get(socket);
  if (!peer) {
    peer = {
      class: classifyAddress(socket.remoteAddress),
      address: canonicalAddress(socket.remoteAddress) ?? fallback,
    };
    peers.set(socket, peer);
  }
  return peer;
}
