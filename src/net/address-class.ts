/**
 * Where a peer sits, judged from the socket's remote address alone. Only the address the kernel
 * reports is trusted: never a header such as X-Forwarded-For, which any client can write.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressClass = 'loopback' | 'local-network' | 'outside';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
type RangeList = Parameters<typeof ipaddr.subnetMatch>[1];

const parseRanges = (cidrs: readonly string[]): Range[] => cidrs.map((cidr) => ipaddr.parseCIDR(cidr));

/** This machine. IPv4-mapped forms (`::ffff:127.0.0.1`) are unwrapped before matching. */
export const LOOPBACK_RANGES = ['127.0.0.0/8', '::1/128'] as const;

/**
 * Private and link-local ranges: addresses that routers do not forward from the internet.
 * Carrier-grade NAT space (100.64.0.0/10) is deliberately absent: its peers are other customers of
 * the same provider, not devices of the user's own network. The deprecated IPv6 site-local range
 * (fec0::/10) is absent too: nothing assigns it any more, so a peer using it is suspect.
 */
export const LOCAL_NETWORK_RANGES = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  'fc00::/7',
  'fe80::/10',
] as const;

const RANGES: RangeList = {
  loopback: parseRanges(LOOPBACK_RANGES),
  'local-network': parseRanges(LOCAL_NETWORK_RANGES),
};

/**
 * `'loopback'`, `'local-network'` or `'outside'` for a socket's `remoteAddress`. Anything that is
 * not a plain IP address (undefined when the socket is already gone, garbage, a hostname) is
 * `'outside'`, so a doubt always falls on the refusing side. Never throws.
 */
export function classifyAddress(remoteAddress: string | undefined): AddressClass {
  const address = parseAddress(remoteAddress);
  if (address === undefined) return 'outside';
  return ipaddr.subnetMatch(address, RANGES, 'outside') as AddressClass;
}

/**
 * The peer's address in one canonical text: IPv4-mapped addresses as plain IPv4, IPv6 compressed
 * and without zone id. Used as the key of per-device state (rate limit), so that one device does not
 * get two budgets by connecting once over IPv4 and once as `::ffff:` on a dual-stack socket.
 */
export function canonicalAddress(remoteAddress: string | undefined): string | undefined {
  const address = parseAddress(remoteAddress);
  if (address === undefined) return undefined;
  return address instanceof ipaddr.IPv6 ? address.toRFC5952String() : address.toString();
}

/** IPv4, or IPv6 without zone id; IPv4-mapped addresses come back as IPv4. */
export function parseAddress(text: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // net.isIP accepts only the dotted-quad and IPv6 text forms (zone ids included); ipaddr.js alone
  // would also take shorthands such as "127.1" or "2130706433" that no socket ever reports.
  const family = typeof text === 'string' ? isIP(text) : 0;
  if (text === undefined || family === 0) return undefined;
  try {
    if (family === 4) return ipaddr.IPv4.parse(text);
    // ipaddr.js 2.5 reads any embedded dotted quad as IPv4-mapped ("::127.0.0.1" would become
    // ::ffff:127.0.0.1, a loopback). The WHATWG URL parser writes IPv6 in hex only, without that
    // mistake; the zone id goes first because URLs do not allow it and it does not change the class.
    const zone = text.indexOf('%');
    const hex = new URL(`http://[${zone === -1 ? text : text.slice(0, zone)}]/`).hostname.slice(1, -1);
    const address = ipaddr.IPv6.parse(hex);
    // A dual-stack listener reports IPv4 peers as ::ffff:a.b.c.d; they are IPv4 peers for our rules.
    return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
  } catch {
    return undefined;
  }
}

/**
 * The kinds of address (ipaddr.js's range names) of a device that a server may fetch from for a
 * client: the internet and the private ranges of the local network (a venue's file server). Never
 * loopback, link-local (where clouds answer metadata), unspecified (0.0.0.0 reaches this machine),
 * multicast, broadcast, carrier-grade NAT, reserved ranges, nor IPv6 forms that carry an IPv4
 * address to a translator (NAT64, 6to4, Teredo): a translator on this network could reach anything.
 */
const DEVICE_RANGES: Readonly<Record<'ipv4' | 'ipv6', ReadonlySet<string>>> = {
  ipv4: new Set(['unicast', 'private']),
  ipv6: new Set(['unicast', 'uniqueLocal']),
};

/** The only IPv6 addresses assigned to devices besides unique local ones; outside it ipaddr.js still says "unicast". */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Whether the server may connect to `address` on a client's behalf (a team logo): a device of the
 * internet or of the local network that is not this machine. `ownAddresses` are this machine's
 * interface addresses (os.networkInterfaces()): a service there answers as if asked from this
 * machine. Anything that is not a plain IP address is refused. Never throws.
 */
export function mayFetchFrom(address: string | undefined, ownAddresses: readonly string[]): boolean {
  const parsed = parseAddress(address);
  if (parsed === undefined || !DEVICE_RANGES[parsed.kind()].has(parsed.range())) return false;
  if (parsed.kind() === 'ipv6' && parsed.range() === 'unicast' && !parsed.match(GLOBAL_UNICAST)) {
    return false;
  }
  const canonical = canonicalAddress(address);
  return !ownAddresses.some((own) => canonicalAddress(own) === canonical);
}
