import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AddressClass,
  canonicalAddress,
  classifyAddress,
  mayFetchFrom,
} from '../../src/net/address-class.ts';

// Each range is pinned at both borders and just outside them, so a wrong prefix length shows.
const CASES: Array<[string | undefined, AddressClass, string]> = [
  // loopback
  ['127.0.0.1', 'loopback', 'IPv4 loopback'],
  ['127.0.0.0', 'loopback', 'first of 127/8'],
  ['127.255.255.255', 'loopback', 'last of 127/8'],
  ['126.255.255.255', 'outside', 'just below 127/8'],
  ['128.0.0.0', 'outside', 'just above 127/8'],
  ['::1', 'loopback', 'IPv6 loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback', 'IPv6 loopback, long form'],
  ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped loopback (dual-stack listener)'],
  ['::ffff:127.1.2.3', 'loopback', 'IPv4-mapped loopback, not .1'],
  ['::FFFF:7f00:1', 'loopback', 'IPv4-mapped loopback in hex, upper case'],
  ['::2', 'outside', 'next to ::1'],
  ['::127.0.0.1', 'outside', 'deprecated IPv4-compatible form is not mapped (ipaddr.js alone says it is)'],
  ['::10.0.0.1', 'outside', 'IPv4-compatible 10.0.0.1'],
  ['::ffff:0:a00:1', 'outside', 'IPv4-translated (RFC 6145) is not mapped'],

  // 10/8
  ['10.0.0.0', 'local-network', 'first of 10/8'],
  ['10.255.255.255', 'local-network', 'last of 10/8'],
  ['9.255.255.255', 'outside', 'below 10/8'],
  ['11.0.0.0', 'outside', 'above 10/8'],
  // 172.16/12
  ['172.16.0.0', 'local-network', 'first of 172.16/12'],
  ['172.31.255.255', 'local-network', 'last of 172.16/12'],
  ['172.15.255.255', 'outside', 'below 172.16/12'],
  ['172.32.0.0', 'outside', 'above 172.16/12'],
  // 192.168/16
  ['192.168.0.0', 'local-network', 'first of 192.168/16'],
  ['192.168.1.20', 'local-network', 'a home network'],
  ['192.168.255.255', 'local-network', 'last of 192.168/16'],
  ['192.167.255.255', 'outside', 'below 192.168/16'],
  ['192.169.0.0', 'outside', 'above 192.168/16'],
  // 169.254/16
  ['169.254.0.0', 'local-network', 'first of IPv4 link-local'],
  ['169.254.255.255', 'local-network', 'last of IPv4 link-local'],
  ['169.253.255.255', 'outside', 'below IPv4 link-local'],
  ['169.255.0.0', 'outside', 'above IPv4 link-local'],
  // IPv4-mapped private
  ['::ffff:10.231.0.2', 'local-network', 'IPv4-mapped 10/8'],
  ['::ffff:192.168.1.20', 'local-network', 'IPv4-mapped 192.168/16'],
  ['::ffff:172.31.0.1', 'local-network', 'IPv4-mapped 172.16/12'],
  ['::ffff:169.254.1.1', 'local-network', 'IPv4-mapped link-local'],
  ['::ffff:c0a8:0114', 'local-network', 'IPv4-mapped 192.168.1.20 in hex'],

  // fc00::/7 unique local
  ['fc00::', 'local-network', 'first of fc00::/7'],
  ['fd00:231::2', 'local-network', 'ULA fd00::/8'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'local-network', 'last of fc00::/7'],
  ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'outside', 'below fc00::/7'],
  ['fe00::', 'outside', 'between ULA and link-local'],
  // fe80::/10 link-local, with and without zone id
  ['fe80::', 'local-network', 'first of fe80::/10'],
  ['fe80::1%eth0', 'local-network', 'link-local with zone id'],
  ['fe80::a00:27ff:fe4e:66a1%25', 'local-network', 'link-local with numeric zone id'],
  ['FE80::1', 'local-network', 'link-local, upper case'],
  ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'local-network', 'last of fe80::/10'],
  ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'outside', 'below fe80::/10'],
  ['fec0::1', 'outside', 'deprecated site-local'],

  // outside: public, shared, documentation, special
  ['8.8.8.8', 'outside', 'public IPv4'],
  ['::ffff:8.8.8.8', 'outside', 'IPv4-mapped public'],
  ['2606:4700:4700::1111', 'outside', 'public IPv6'],
  ['100.64.0.1', 'outside', 'carrier-grade NAT (decided: outside)'],
  ['100.127.255.255', 'outside', 'last of carrier-grade NAT'],
  ['192.0.2.1', 'outside', 'TEST-NET-1'],
  ['198.51.100.2', 'outside', 'TEST-NET-2 (the outside host of the netns harness)'],
  ['::ffff:198.51.100.2', 'outside', 'IPv4-mapped TEST-NET-2'],
  ['203.0.113.9', 'outside', 'TEST-NET-3'],
  ['2001:db8::1', 'outside', 'IPv6 documentation'],
  ['64:ff9b::a00:1', 'outside', 'NAT64 of 10.0.0.1: the real peer is beyond the translator'],
  ['2002:a00:1::1', 'outside', '6to4 of 10.0.0.1'],
  ['224.0.0.1', 'outside', 'IPv4 multicast'],
  ['255.255.255.255', 'outside', 'IPv4 broadcast'],
  ['ff02::1', 'outside', 'IPv6 multicast'],
  ['0.0.0.0', 'outside', 'IPv4 unspecified'],
  ['::', 'outside', 'IPv6 unspecified'],
  ['::ffff:0.0.0.0', 'outside', 'IPv4-mapped unspecified'],

  // not an address
  [undefined, 'outside', 'socket already closed'],
  ['', 'outside', 'empty'],
  ['localhost', 'outside', 'a hostname is not an address'],
  ['127.1', 'outside', 'shorthand IPv4 that ipaddr.js alone would accept'],
  ['2130706433', 'outside', 'IPv4 as one integer'],
  ['0x7f.0.0.1', 'outside', 'hex IPv4'],
  ['127.0.0.01', 'outside', 'leading zero'],
  [' 127.0.0.1', 'outside', 'leading space'],
  ['127.0.0.1:44555', 'outside', 'address with port'],
  ['[::1]', 'outside', 'bracketed IPv6'],
  ['10.0.0.256', 'outside', 'octet out of range'],
  ['fe80::1%', 'outside', 'empty zone id'],
];

describe('classifyAddress', () => {
  it.each(CASES)('%s is %s (%s)', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('never throws, and always answers one of the three classes', () => {
    const anyText = fc.oneof(
      fc.string(),
      fc.ipV4(),
      fc.ipV4Extended(),
      fc.ipV6(),
      fc.ipV6().map((a) => `${a}%eth0`),
      fc.ipV4().map((a) => `::ffff:${a}`),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(anyText, (address) => {
        expect(['loopback', 'local-network', 'outside']).toContain(classifyAddress(address));
      }),
      { numRuns: 2000 },
    );
  });

  it('classifies an IPv4 peer and its IPv4-mapped form alike', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(classifyAddress(`::ffff:${address}`)).toBe(classifyAddress(address));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('canonicalAddress', () => {
  it.each([
    ['10.0.0.2', '10.0.0.2'],
    ['::ffff:10.0.0.2', '10.0.0.2'],
    ['FE80:0:0:0::1%eth0', 'fe80::1'],
    ['fd00:0231:0000::0002', 'fd00:231::2'],
    ['garbage', undefined],
    [undefined, undefined],
  ])('%s -> %s', (address, expected) => {
    expect(canonicalAddress(address)).toBe(expected);
  });
});

/** This machine's interface addresses, as os.networkInterfaces() writes them, for mayFetchFrom. */
const OWN = ['127.0.0.1', '::1', '192.168.1.20', 'fd00:231::1', 'fe80::a00:27ff:fe4e:66a1'];

// What the server may connect to for a client (a team logo): every spelling of this machine, every
// address that is not a device's, and this machine's own interface addresses are refused.
const FETCH_CASES: Array<[string | undefined, boolean, string]> = [
  // devices of the internet and of the local network
  ['8.8.8.8', true, 'public IPv4'],
  ['::ffff:8.8.8.8', true, 'IPv4-mapped public'],
  ['2606:4700:4700::1111', true, 'public IPv6'],
  ['10.231.0.2', true, 'a device of 10/8'],
  ['172.16.0.1', true, 'a device of 172.16/12'],
  ['192.168.1.21', true, 'a device of the home network'],
  ['fd00:231::2', true, 'a device of an IPv6 unique local network'],
  // this machine
  ['127.0.0.1', false, 'loopback'],
  ['127.8.9.10', false, 'loopback, not .1'],
  ['::1', false, 'IPv6 loopback'],
  ['::ffff:127.0.0.1', false, 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', false, 'IPv4-mapped loopback in hex'],
  ['0.0.0.0', false, 'unspecified: a connection to it reaches this machine'],
  ['::', false, 'IPv6 unspecified'],
  ['::ffff:0.0.0.0', false, 'IPv4-mapped unspecified'],
  ['192.168.1.20', false, "this machine's own LAN address"],
  ['::ffff:192.168.1.20', false, "this machine's own LAN address, IPv4-mapped"],
  ['fd00:0231:0000::0001', false, "this machine's own unique local address, long form"],
  // link-local: where clouds answer metadata, and a neighbour nobody configured
  ['169.254.169.254', false, 'the cloud metadata address'],
  ['::ffff:169.254.169.254', false, 'the cloud metadata address, IPv4-mapped'],
  ['169.254.0.1', false, 'IPv4 link-local'],
  ['fe80::1', false, 'IPv6 link-local'],
  ['fe80::1%eth0', false, 'IPv6 link-local with zone id'],
  // forms that carry an IPv4 address to a translator, or are no device's
  ['64:ff9b::7f00:1', false, 'NAT64 of 127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', false, 'NAT64 of 169.254.169.254'],
  ['64:ff9b:1::a00:1', false, 'local-use NAT64 (RFC 8215)'],
  ['2002:7f00:1::1', false, '6to4 of 127.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false, 'Teredo'],
  ['::127.0.0.1', false, 'deprecated IPv4-compatible form of 127.0.0.1'],
  ['::ffff:0:7f00:1', false, 'IPv4-translated (RFC 6145) 127.0.0.1'],
  ['100.100.100.200', false, 'carrier-grade NAT (a cloud metadata address among them)'],
  ['224.0.0.1', false, 'IPv4 multicast'],
  ['255.255.255.255', false, 'IPv4 broadcast'],
  ['ff02::1', false, 'IPv6 multicast'],
  ['240.0.0.1', false, 'reserved'],
  ['192.0.2.1', false, 'documentation (TEST-NET-1)'],
  ['2001:db8::1', false, 'IPv6 documentation'],
  ['100::1', false, 'IPv6 discard'],
  ['fec0::1', false, 'deprecated site-local'],
  ['4000::1', false, 'IPv6 outside 2000::/3: assigned to nobody'],
  // not an address: a name is resolved first, and its addresses are checked
  [undefined, false, 'nothing'],
  ['localhost', false, 'a hostname'],
  ['2130706433', false, 'IPv4 as one integer (a URL writes it as 127.0.0.1 before it gets here)'],
  ['0x7f.1', false, 'hex shorthand'],
  ['0177.0.0.1', false, 'octal'],
  ['[::1]', false, 'bracketed IPv6'],
];

describe('mayFetchFrom', () => {
  it.each(FETCH_CASES)('%s: %s (%s)', (address, expected) => {
    expect(mayFetchFrom(address, OWN)).toBe(expected);
  });

  it('refuses every loopback and link-local address, and treats an IPv4 address and its mapped form alike', () => {
    const loopback = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => `127.${parts.join('.')}`);
    const linkLocal = fc.tuple(fc.nat(255), fc.nat(255)).map((parts) => `169.254.${parts.join('.')}`);
    fc.assert(
      fc.property(fc.oneof(loopback, linkLocal), (address) => {
        expect(mayFetchFrom(address, [])).toBe(false);
        expect(mayFetchFrom(`::ffff:${address}`, [])).toBe(false);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(mayFetchFrom(`::ffff:${address}`, OWN)).toBe(mayFetchFrom(address, OWN));
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.ipV4Extended(), fc.ipV6()), (address) => {
        expect(typeof mayFetchFrom(address, OWN)).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });
});
