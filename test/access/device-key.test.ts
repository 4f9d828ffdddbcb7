import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deviceKey } from '../../src/access/device-key.ts';
import { NeighbourTable } from '../../src/access/neighbours.ts';
import { RateLimit, RateLimitedError } from '../../src/access/rate-limit.ts';

const nobody = { macOf: () => undefined };

describe('deviceKey', () => {
  it('an IPv4 address the neighbour table does not know is one host, also IPv4-mapped', () => {
    expect(deviceKey('10.231.0.2', nobody)).toBe('10.231.0.2');
    expect(deviceKey('::ffff:10.231.0.2', nobody)).toBe('10.231.0.2');
    expect(deviceKey('10.231.0.3', nobody)).not.toBe(deviceKey('10.231.0.2', nobody));
  });

  it("IPv4 aliases of one host are one host: the neighbour table's link-layer address", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'arp-'));
    const arp = join(dir, 'arp');
    // The layout of Linux's /proc/net/arp; the third entry is incomplete (no answer yet).
    await writeFile(
      arp,
      [
        'IP address       HW type     Flags       HW address            Mask     Device',
        '10.231.0.2       0x1         0x2         02:aa:bb:cc:dd:01     *        hud0r',
        '10.232.0.7       0x1         0x2         02:aa:bb:cc:dd:01     *        hud0r',
        '10.232.0.8       0x1         0x0         00:00:00:00:00:00     *        hud0r',
        '10.231.0.6       0x1         0x2         02:aa:bb:cc:dd:02     *        hud1r',
        '',
      ].join('\n'),
    );
    const table = new NeighbourTable(arp);
    expect(deviceKey('10.231.0.2', table)).toBe('mac 02:aa:bb:cc:dd:01');
    expect(deviceKey('::ffff:10.232.0.7', table)).toBe('mac 02:aa:bb:cc:dd:01');
    expect(deviceKey('10.231.0.6', table)).toBe('mac 02:aa:bb:cc:dd:02');
    expect(deviceKey('10.232.0.8', table)).toBe('10.232.0.8');
    expect(deviceKey('192.168.9.9', new NeighbourTable(join(dir, 'absent')))).toBe('192.168.9.9');
  });

  it('every address of one IPv6 /64 is one device; another /64 is another', () => {
    const key = deviceKey('fd00:231:0:5::2');
    expect(key).toBe('fd00:231:0:5::/64');
    for (const address of ['fd00:231:0:5::3', 'FD00:231:0:5:abcd:ef01:2345:6789', 'fd00:231:0:5::2%eth0']) {
      expect(deviceKey(address)).toBe(key);
    }
    expect(deviceKey('fd00:231:0:6::2')).toBe('fd00:231:0:6::/64');
  });

  it('link-local peers of one interface are one host; another interface is another', () => {
    expect(deviceKey('fe80::2%eth0')).toBe('fe80::/10%eth0');
    expect(deviceKey('fe80::3%eth0')).toBe(deviceKey('fe80::2%eth0'));
    expect(deviceKey('fe80::2%eth1')).not.toBe(deviceKey('fe80::2%eth0'));
  });

  it('what is not an address has no key', () => {
    expect(deviceKey(undefined)).toBeUndefined();
    expect(deviceKey('localhost')).toBeUndefined();
  });
});

describe('RateLimit per device', () => {
  it('ten addresses of one /64 share the 20 per second', async () => {
    const limit = new RateLimit();
    for (let i = 0; i < 20; i++) await limit.consume(`fd00:231:0:5::${(i % 10) + 2}`);
    await expect(limit.consume('fd00:231:0:5::99')).rejects.toBeInstanceOf(RateLimitedError);
    await expect(limit.consume('fd00:231:0:6::2')).resolves.toBeUndefined();
  });
});
