import { describe, expect, it } from 'vitest';
import { RateLimit, RateLimitedError, REMOTE_REQUESTS_PER_SECOND } from '../../src/access/rate-limit.ts';
import { meterMessages } from '../../src/ws/message-budget.ts';

function meter(address = '10.231.0.2') {
  const seen = { accepted: [] as string[], refused: [] as string[], floods: 0 };
  let settle: () => void = () => {};
  const take = meterMessages(new RateLimit(), address, {
    accept: (text) => seen.accepted.push(text),
    refuse: (text, error) => {
      expect(error).toBeInstanceOf(RateLimitedError);
      seen.refused.push(text);
    },
    flood: () => {
      seen.floods++;
      settle();
    },
    fail: (error) => {
      throw error;
    },
  });
  const flooded = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { take, seen, flooded };
}

describe('meterMessages', () => {
  it('takes 20 messages a second in order, refuses the next 20, then reports a flood once and drops the rest', async () => {
    const { take, seen, flooded } = meter();
    for (let i = 0; i < 100; i++) take(String(i));
    await flooded;
    const numbers = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => String(from + i));
    expect(seen.accepted).toEqual(numbers(0, REMOTE_REQUESTS_PER_SECOND));
    expect(seen.refused).toEqual(numbers(REMOTE_REQUESTS_PER_SECOND, REMOTE_REQUESTS_PER_SECOND));
    expect(seen.floods).toBe(1);
  });

  it('a handler that throws is reported, and the messages after it are still handled', async () => {
    const failures: unknown[] = [];
    const nextHandled = new Promise<void>((resolve) => {
      const take = meterMessages(new RateLimit(), '10.231.0.2', {
        accept: (text) => {
          if (text === 'throw') throw new Error('handler failed');
          resolve();
        },
        refuse: () => {},
        flood: () => {},
        fail: (error) => failures.push(error),
      });
      take('throw');
      take('next');
    });
    await nextHandled;
    expect(failures).toEqual([new Error('handler failed')]);
  });
});
