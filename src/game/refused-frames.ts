/**
 * Frames refused for their auth token cost the device that sent them, as any refused request does:
 * each draws on the device's request budget (src/access/rate-limit.ts, 20 a second). Once it is spent,
 * the device's frames are refused before their body is read (429 rate_limited) until the budget comes
 * back. Accepted frames draw nothing: the game posts at its own pace (the cfg's throttle), and this
 * machine is never limited, so a game on it never is. docs/access.md has the rule.
 */
import { deviceKey } from '../access/device-key.ts';
import type { RateLimit } from '../access/rate-limit.ts';
import { RateLimitedError } from '../access/rate-limit.ts';

/** From this many devices on, the expired ones are swept out (at most once a second). */
const SWEEP_AT = 1_024;

export class RefusedFrames {
  /** Until when (ms) each device's frames are refused unread. */
  readonly #until = new Map<string, number>();
  readonly #limit: Pick<RateLimit, 'consume'>;
  readonly #now: () => number;
  #sweptAt = 0;

  constructor(limit: Pick<RateLimit, 'consume'>, now: () => number = Date.now) {
    this.#limit = limit;
    this.#now = now;
  }

  /** Before the body is read: the refusal of a frame from `address`, or null to read it. */
  check(address: string): RateLimitedError | null {
    // Nothing refused: no device to name (a device key may read the kernel's neighbour table).
    if (this.#until.size === 0) return null;
    const key = deviceKey(address) ?? address;
    const until = this.#until.get(key);
    if (until === undefined) return null;
    const left = until - this.#now();
    if (left > 0) return new RateLimitedError(Math.ceil(left / 1000));
    this.#until.delete(key);
    return null;
  }

  /**
   * A frame from `address` was refused for its token: one request of the device's budget. Rejects
   * with the rate limit's refusal once the budget is spent, and refuses the device's frames unread
   * from then until it comes back.
   */
  async charge(address: string): Promise<void> {
    try {
      await this.#limit.consume(address);
    } catch (error) {
      if (error instanceof RateLimitedError) this.#block(deviceKey(address) ?? address, error);
      throw error;
    }
  }

  #block(key: string, error: RateLimitedError): void {
    const now = this.#now();
    if (this.#until.size >= SWEEP_AT && now - this.#sweptAt >= 1_000) {
      this.#sweptAt = now;
      for (const [device, until] of this.#until) if (until <= now) this.#until.delete(device);
    }
    this.#until.set(key, now + error.retryAfterSeconds * 1000);
  }
}
