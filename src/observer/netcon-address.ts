/**
 * Which addresses the game console link may connect to: a game on this machine (loopback) or on
 * another PC of the local network (IPv4 private and link-local, IPv6 unique-local and link-local).
 * Anything else is refused with a sentence saying why: the console takes any command, so the link
 * never reaches out of the local network. Pure.
 */
import { parseAddress } from '../net/address-class.ts';

export type NetconAddressClass = 'loopback' | 'private' | 'linkLocal' | 'uniqueLocal';

export type NetconAddressCheck =
  | { ok: true; host: string; port: number; addressClass: NetconAddressClass }
  | { ok: false; message: string };

const ALLOWED: Record<string, NetconAddressClass> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'linkLocal',
  uniqueLocal: 'uniqueLocal',
};

/**
 * `host` must be an IP address (or `localhost`, read as 127.0.0.1): a name would need a DNS answer
 * that could point anywhere. `port` 1..65535. IPv4-mapped IPv6 (::ffff:192.168.1.20) is judged as
 * the IPv4 address it carries. Never throws.
 */
export function checkNetconAddress(host: string, port: number): NetconAddressCheck {
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    return {
      ok: false,
      message: `the console port must be a whole number from 1 to 65535, not ${String(port)}`,
    };
  }
  if (typeof host !== 'string') return { ok: false, message: 'the console address must be text' };
  const text = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (text.toLowerCase() === 'localhost')
    return { ok: true, host: '127.0.0.1', port, addressClass: 'loopback' };
  const address = parseAddress(text);
  if (!address) {
    return {
      ok: false,
      message: `"${short(host)}" is not an IP address: give the address of the PC that runs the game (127.0.0.1 for this one)`,
    };
  }
  const range = address.range();
  const addressClass = ALLOWED[range];
  if (!addressClass) {
    return {
      ok: false,
      message: `${address.toString()} is ${describe(range)}: the game console is reached only on this machine or the local network (loopback, private, link-local or unique-local addresses)`,
    };
  }
  // A link-local IPv6 address needs its zone (fe80::1%eth0) to be reachable: keep the text then.
  const zoned = address.kind() === 'ipv6' && text.includes('%');
  return { ok: true, host: zoned ? text : address.toString(), port, addressClass };
}

function describe(range: string): string {
  switch (range) {
    case 'unicast':
      return 'a public address';
    case 'unspecified':
      return 'the unspecified address';
    case 'broadcast':
      return 'the broadcast address';
    case 'multicast':
      return 'a multicast address';
    case 'carrierGradeNat':
      return "a provider's shared address (carrier-grade NAT), not the local network";
    default:
      return `a ${range} address`;
  }
}

const short = (value: string) =>
  (value.length > 64 ? `${value.slice(0, 61)}…` : value).replace(/[\r\n]/g, ' ');
