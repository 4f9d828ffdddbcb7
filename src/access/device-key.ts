/**
 * One key per device, for the per-device budgets (rate limit, open connections). A device on IPv6
 * takes new addresses within its /64 at will (privacy extensions, or on purpose), so all of a /64
 * is one device; an IPv4 address is one device. Link-local addresses are the exception: every
 * device of the link is in fe80::/64, so there the whole address is the key. A device's IPv4 and
 * IPv6 addresses cannot be joined: nothing on the wire links them that the client could not forge.
 */
import ipaddr from 'ipaddr.js';
import { canonicalAddress } from '../net/address-class.ts';

const IPV6_DEVICE_PREFIX = 64;

/** `10.0.0.2`, or `fd00:1:2:3::/64` for any address of that /64; undefined for what is not an address. */
export function deviceKey(remoteAddress: string | undefined): string | undefined {
  const canonical = canonicalAddress(remoteAddress);
  if (canonical === undefined || !canonical.includes(':')) return canonical;
  if (ipaddr.IPv6.parse(canonical).range() === 'linkLocal') return canonical;
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${canonical}/${IPV6_DEVICE_PREFIX}`);
  return `${network.toRFC5952String()}/${IPV6_DEVICE_PREFIX}`;
}
