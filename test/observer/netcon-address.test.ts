/** The address rule of the game console link (src/observer/netcon-address.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkNetconAddress } from '../../src/observer/netcon-address.ts';

describe('checkNetconAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback', '127.0.0.1'],
    ['127.10.0.5', 'loopback', '127.10.0.5'],
    ['localhost', 'loopback', '127.0.0.1'],
    ['::1', 'loopback', '::1'],
    ['[::1]', 'loopback', '::1'],
    ['10.0.0.7', 'private', '10.0.0.7'],
    ['172.16.4.2', 'private', '172.16.4.2'],
    ['172.31.255.1', 'private', '172.31.255.1'],
    ['192.168.1.20', 'private', '192.168.1.20'],
    ['::ffff:192.168.1.20', 'private', '192.168.1.20'],
    ['169.254.10.3', 'linkLocal', '169.254.10.3'],
    ['fe80::1', 'linkLocal', 'fe80::1'],
    ['fe80::1%eth0', 'linkLocal', 'fe80::1%eth0'],
    ['fd12:3456:789a::2', 'uniqueLocal', 'fd12:3456:789a::2'],
  ])('allows %s (%s)', (host, addressClass, normalized) => {
    expect(checkNetconAddress(host, 2121)).toEqual({ ok: true, host: normalized, port: 2121, addressClass });
  });

  it.each([
    ['8.8.8.8', /8\.8\.8\.8 is a public address/],
    ['172.32.0.1', /public address/],
    ['2001:4860:4860::8888', /public address/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['0.0.0.0', /unspecified/],
    ['255.255.255.255', /broadcast/],
    ['224.0.0.1', /multicast/],
    ['::ffff:8.8.8.8', /8\.8\.8\.8 is a public address/],
    // Not IP addresses: names are not resolved, shorthands are not read.
    ['game-pc.lan', /not an IP address/],
    ['127.1', /not an IP address/],
    ['2130706433', /not an IP address/],
    ['::127.0.0.1', /not the local network|public|address/],
    ['', /not an IP address/],
    ['127.0.0.1\nquit', /not an IP address/],
  ])('refuses %j with a clear error', (host, message) => {
    const check = checkNetconAddress(host, 2121);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
  });

  it.each([0, -1, 65_536, 21.5, Number.NaN])('refuses port %d', (port) => {
    const check = checkNetconAddress('127.0.0.1', port);
    expect(check).toMatchObject({ ok: false, message: expect.stringMatching(/1 to 65535/) });
  });

  it('never throws and allows only local addresses, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.ipV4(), fc.ipV6(), fc.ipV4Extended()),
        fc.integer(),
        (host, port) => {
          const check = checkNetconAddress(host, port);
          if (check.ok) {
            expect(['loopback', 'private', 'linkLocal', 'uniqueLocal']).toContain(check.addressClass);
            expect(check.host).not.toMatch(/[\s\r\n;"]/);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
