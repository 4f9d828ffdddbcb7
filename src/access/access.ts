import type { RateLimit } from './rate-limit.ts';
import type { RecentRequests } from './recent-requests.ts';

/**
 * What the access checks of both servers read: the mode, the token, each device's budget, and the
 * list every answered request goes on. The transports are given this, not the service.
 */
export interface Access {
  /** Local network mode is on: devices of the local network may come in with the token. */
  lanMode(): boolean;
  /** The access token local-network devices must send. */
  token(): string;
  readonly rateLimit: RateLimit;
  readonly recent: RecentRequests;
}
