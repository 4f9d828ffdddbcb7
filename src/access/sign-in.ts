/**
 * Signing in to the operator app, as Jupyter's token link does it: the sign-in address carries a
 * key kept in the data directory; opening it (or typing the key into the form) starts a session of
 * that browser (src/access/sessions.ts) and sets its cookie. Sign out ends the session on the
 * server; regenerating the key ends them all.
 */
import { parse, serialize } from 'cookie';

export const SESSION_COOKIE = 'hud_session';
/**
 * The cookie outlives any session (400 days is what browsers allow); the session itself ends on the
 * server after 30 days without use, at Sign out, or when the key is regenerated.
 */
const COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/** The session cookie's value in a Cookie header, if any. */
export function sessionOf(cookieHeader: string | undefined): string | undefined {
  return cookieHeader ? parse(cookieHeader)[SESSION_COOKIE] : undefined;
}

/** Set-Cookie for a signed-in browser: not readable by scripts, never sent by another site. */
export function sessionCookie(value: string): string {
  return serialize(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: COOKIE_MAX_AGE_S,
  });
}

/** Set-Cookie that signs a browser out. */
export function signedOutCookie(): string {
  return serialize(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: '/', maxAge: 0 });
}
