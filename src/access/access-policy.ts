/**
 * Who may use the service, decided in one pure function so that HTTP requests and WebSocket
 * connections cannot drift apart. The Origin and Host header rules run before this (they concern
 * browsers, whatever the address), and the rate limit counts the request before it too.
 */

import { classifyAddress } from '../net/address-class.ts';
import { ServiceError } from '../protocol/errors.ts';
import { tokensEqual } from './access-token.ts';

export interface AccessRequest {
  /** The socket's remote address, as Node reports it (`req.socket.remoteAddress`). */
  address: string | undefined;
  /** Local network mode: "Allow connections from the local network" in the panel, or `--lan`. */
  lanMode: boolean;
  /** The current access token. */
  token: string;
  /** The token the client sent (header or WebSocket), if any. */
  presentedToken: string | undefined;
}

export type AccessDecision =
  /** `remote` is true for a local-network device: it is rate limited and shown as remote. */
  { allow: true; remote: boolean } | { allow: false; error: ServiceError };

export function decideAccess({ address, lanMode, token, presentedToken }: AccessRequest): AccessDecision {
  switch (classifyAddress(address)) {
    case 'loopback':
      return { allow: true, remote: false };
    case 'local-network':
      if (!lanMode) {
        return refuse('forbidden', 'local network mode is off: enable it in the panel or start with --lan');
      }
      if (presentedToken === undefined) {
        return refuse(
          'unauthorized',
          'access token missing: send the header Authorization: Bearer <token> or X-Service-Token: <token> (WebSocket: ?token=<token> or an auth message)',
        );
      }
      if (!tokensEqual(token, presentedToken)) {
        return refuse('unauthorized', 'access token is wrong: copy the current token from the panel');
      }
      return { allow: true, remote: true };
    case 'outside':
      // The token does not help: it travels unencrypted, so it is only ever accepted on a local network.
      return refuse('forbidden', 'connections from outside the local network are always refused');
  }
}

const refuse = (code: 'forbidden' | 'unauthorized', message: string): AccessDecision => ({
  allow: false,
  error: new ServiceError(code, message),
});
