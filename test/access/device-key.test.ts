import { describe, expect, it } from 'vitest';
import { deviceKey } from '../../src/access/device-key.ts';
import { RateLimit, RateLimitedError } from '../../src/access/rate-limit.ts';

describe('deviceKey', () => {
  it('an IPv4 address is one device, also when a dual-stack socket reports it IPv4-mapped', () => {
    expect(deviceKey('10.231.0.2')).toBe('10.231.0.2');
    expect(deviceKey('::ffff:10.231.0.2')).toBe('10.231.0.2');
    expect(deviceKey('10.231.0.3')).not.toBe(deviceKey('10.231.0.2'));
  });

  it('every address of one IPv6 /64 is one device; another /64 is another', () => {
    const key = deviceKey('fd00:231:0:5::2');
    expect(key).toBe('fd00:231:0:5::/64');
    for (const address of ['fd00:231:0:5::3', 'FD00:231:0:5:abcd:ef01:2345:6789', 'fd00:231:0:5::2%eth0']) {
      expect(deviceKey(address)).toBe(key);
    }
    expect(deviceKey('fd00:231:0:6::2')).toBe('fd00:231:0:6::/64');
  });

  it('link-local addresses stay whole: every device of a link shares fe80::/64', () => {
    expect(deviceKey('fe80::2%eth0')).toBe('fe80::2');
    expect(deviceKey('fe80::3')).not.toBe(deviceKey('fe80::2'));
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
