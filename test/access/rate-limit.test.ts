import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimit, RateLimitedError, REMOTE_REQUESTS_PER_SECOND } from '../../src/access/rate-limit.ts';
import { ServiceError } from '../../src/protocol/errors.ts';

/** Consumes `count` times back to back and returns what each attempt threw (undefined = allowed). */
async function attempts(limit: RateLimit, address: string | undefined, count: number) {
  const outcomes: Array<unknown> = [];
  for (let i = 0; i < count; i++) {
    outcomes.push(await limit.consume(address).catch((error: unknown) => error));
  }
  return outcomes;
}

describe('RateLimit', () => {
  beforeEach(() => {
    // The window runs on Date.now and a timer: faking both moves time without sleeping.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the spec limit is 20 per second', () => {
    expect(REMOTE_REQUESTS_PER_SECOND).toBe(20);
  });

  it('refuses the 21st request within a second with 429 and a Retry-After', async () => {
    const limit = new RateLimit();
    const outcomes = await attempts(limit, '10.231.0.2', 21);
    expect(outcomes.slice(0, 20)).toEqual(Array(20).fill(undefined));
    const refusal = outcomes[20];
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect(refusal).toBeInstanceOf(ServiceError);
    const error = refusal as RateLimitedError;
    expect(error.code).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(1);
    expect(error.toBody()).toMatchObject({ ok: false, error: 'rate_limited' });
  });

  it('keeps refusing until the second is over, then allows again', async () => {
    const limit = new RateLimit();
    await attempts(limit, '10.231.0.2', 20);
    vi.advanceTimersByTime(999);
    await expect(limit.consume('10.231.0.2')).rejects.toBeInstanceOf(RateLimitedError);
    vi.advanceTimersByTime(1);
    await expect(limit.consume('10.231.0.2')).resolves.toBeUndefined();
  });

  it('counts each device on its own', async () => {
    const limit = new RateLimit();
    await attempts(limit, '10.231.0.2', 20);
    await expect(limit.consume('10.231.0.2')).rejects.toBeInstanceOf(RateLimitedError);
    await expect(limit.consume('10.231.0.3')).resolves.toBeUndefined();
    await expect(limit.consume('fd00:231::2')).resolves.toBeUndefined();
  });

  it('one host is one budget: IPv4 or IPv4-mapped; all link-local peers of one interface', async () => {
    const limit = new RateLimit();
    await attempts(limit, '10.231.0.2', 10);
    await attempts(limit, '::ffff:10.231.0.2', 10);
    await expect(limit.consume('10.231.0.2')).rejects.toBeInstanceOf(RateLimitedError);

    await attempts(limit, 'fe80::1%eth0', 10);
    await attempts(limit, 'FE80:0::2%eth0', 10);
    await expect(limit.consume('fe80::3%eth0')).rejects.toBeInstanceOf(RateLimitedError);
    await expect(limit.consume('fe80::3%eth1')).resolves.toBeUndefined();
  });

  it('never limits the local machine', async () => {
    const limit = new RateLimit();
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const outcomes = await attempts(limit, address, 500);
      expect(outcomes.every((outcome) => outcome === undefined)).toBe(true);
    }
  });

  it('limits peers that will be refused anyway, and unknown addresses, too', async () => {
    const limit = new RateLimit();
    expect((await attempts(limit, '198.51.100.2', 21))[20]).toBeInstanceOf(RateLimitedError);
    expect((await attempts(limit, undefined, 21))[20]).toBeInstanceOf(RateLimitedError);
  });
});
