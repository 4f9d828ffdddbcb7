import type { RateLimit } from '../access/rate-limit.ts';
import { RateLimitedError, REMOTE_REQUESTS_PER_SECOND } from '../access/rate-limit.ts';

export interface MeteredHandlers {
  /** A message within the budget, in order of arrival. */
  accept(text: string): void;
  /** A message over the budget: answer it, do not run it. */
  refuse(text: string, error: RateLimitedError): void;
  /** The client kept sending through a whole second's budget of refusals: close it. */
  flood(): void;
  /** A handler threw: report it (the messages after it are still handled). */
  fail(error: unknown): void;
}

/**
 * Every message of a remote device is counted against the device's budget (the same 20 per second
 * as its HTTP requests) before it is handled, so a flood of cheap messages (snapshots, pings) is
 * refused like a flood of commands. Messages are handled in the order they came, one after another.
 */
export function meterMessages(
  rateLimit: RateLimit,
  address: string,
  handlers: MeteredHandlers,
): (text: string) => void {
  let queue = Promise.resolve();
  let refusedInARow = 0;
  let flooded = false;
  const take = async (text: string) => {
    if (flooded) return;
    try {
      await rateLimit.consume(address);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      refusedInARow++;
      if (refusedInARow > REMOTE_REQUESTS_PER_SECOND) {
        flooded = true;
        handlers.flood();
      } else handlers.refuse(text, error);
      return;
    }
    refusedInARow = 0;
    handlers.accept(text);
  };
  return (text) => {
    queue = queue.then(() => take(text)).catch(handlers.fail);
  };
}
