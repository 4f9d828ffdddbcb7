/**
 * Requests per second from each remote device. HTTP requests and WebSocket triggers draw on the same
 * budget, so a device cannot double its rate by using both transports.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { classifyAddress } from '../net/address-class.ts';
import { ServiceError } from '../protocol/errors.ts';
import { deviceKey } from './device-key.ts';

export const REMOTE_REQUESTS_PER_SECOND = 20;

/** A `rate_limited` ServiceError that also says when to come back, for the Retry-After header. */
export class RateLimitedError extends ServiceError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      'rate_limited',
      `more than ${REMOTE_REQUESTS_PER_SECOND} requests per second from this device: retry in ${retryAfterSeconds} s`,
    );
  }
}

export class RateLimit {
  // A fixed one-second window per device: at most 20 in any window, so a burst that straddles two
  // windows can get up to 40 through in a moment. Good enough to stop a runaway script.
  readonly #limiter = new RateLimiterMemory({ points: REMOTE_REQUESTS_PER_SECOND, duration: 1 });

  /**
   * Counts one request or trigger from `address`; throws RateLimitedError when the device is over
   * its budget. The local machine is never limited. Everyone else is, also before their token is
   * checked, so that failed tokens cost budget as well.
   */
  async consume(address: string | undefined): Promise<void> {
    if (classifyAddress(address) === 'loopback') return;
    // One key per device: ::ffff:10.0.0.2 and 10.0.0.2 are one peer, and so is a whole IPv6 /64.
    const key = deviceKey(address) ?? 'unknown';
    try {
      await this.#limiter.consume(key);
    } catch (rejection) {
      // The memory store rejects with the limiter's result, never with an Error of its own.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new RateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    }
  }
}
