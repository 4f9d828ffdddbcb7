/**
 * One key per host, for the per-host budgets (rate limit, open connections, game frames). A host
 * takes new addresses at will, so the key is what it cannot multiply cheaply (docs/access.md):
 *
 * - IPv4: the link-layer address the kernel's neighbour table has for it, so a host's aliases on
 *   one link are one host; a peer the table does not know (behind a router) is its address.
 * - IPv6: the /64, the smallest network a router hands out (privacy extensions pick addresses in it).
 * - IPv6 link-local: every link-local peer of one interface together. Any number of them cost a
 *   host nothing, the table of IPv6 neighbours is not readable without netlink, and nothing
 *   legitimate reaches this service over link-local rather than the host's routable address.
 *
 * A host's IPv4 and IPv6 addresses are not joined: nothing on the wire links them that the client
 * could not forge.
 */
import ipaddr from 'ipaddr.js';
import { canonicalAddress } from '../net/address-class.ts';
import { NeighbourTable } from './neighbours.ts';

const IPV6_HOST_PREFIX = 64;

export interface Neighbours {
  macOf(ipv4: string): string | undefined;
}

const systemNeighbours = new NeighbourTable();

/**
 * `mac 02:…` or `10.0.0.2` for IPv4, `fd00:1:2:3::/64` for IPv6, `fe80::/10%eth0` for link-local;
 * undefined for what is not an address.
 */
export function deviceKey(
  remoteAddress: string | undefined,
  neighbours: Neighbours = systemNeighbours,
): string | undefined {
  const canonical = canonicalAddress(remoteAddress);
  if (canonical === undefined) return undefined;
  if (!canonical.includes(':')) {
    const mac = neighbours.macOf(canonical);
    return mac === undefined ? canonical : `mac ${mac}`;
  }
  if (ipaddr.IPv6.parse(canonical).range() === 'linkLocal') {
    const zone = remoteAddress?.indexOf('%') ?? -1;
    return `fe80::/10%${zone === -1 ? '' : remoteAddress?.slice(zone + 1)}`;
  }
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${canonical}/${IPV6_HOST_PREFIX}`);
  return `${network.toRFC5952String()}/${IPV6_HOST_PREFIX}`;
}
