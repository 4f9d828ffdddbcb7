/**
 * Signing in to the operator app, as Jupyter's token link does it: the sign-in address carries a
 * key kept in the data directory; opening it (or typing the key into the form) sets a session
 * cookie. The cookie's value is derived from the key, so a session survives a restart of the
 * server and regenerating the key signs every browser out.
 */
import { createHmac } from 'node:crypto';
import { parse, serialize } from 'cookie';
import { tokensEqual } from './access-token.ts';

export const SESSION_COOKIE = 'hud_session';
/** A year: the operator signs in once per machine; regenerating the key ends every session. */
const SESSION_MAX_AGE_S = 365 * 24 * 3600;

/** The session value a browser holds for this key. */
export function sessionFor(key: string): string {
  return createHmac('sha256', key).update('hud-automation operator session v1').digest('base64url');
}

/** Whether a Cookie header carries the session of this key. */
export function hasSession(cookieHeader: string | undefined, key: string): boolean {
  if (!cookieHeader) return false;
  const value = parse(cookieHeader)[SESSION_COOKIE];
  return value !== undefined && tokensEqual(sessionFor(key), value);
}

/** Set-Cookie for a signed-in browser: not readable by scripts, never sent by another site. */
export function sessionCookie(key: string): string {
  return serialize(SESSION_COOKIE, sessionFor(key), {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: SESSION_MAX_AGE_S,
  });
}

/** Set-Cookie that signs a browser out. */
export function signedOutCookie(): string {
  return serialize(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0 });
}
