/**
 * The cfg's auth token, checked in a frame's raw text before the text is parsed: a frame must be paid
 * for before it is read. The game writes the token as the cfg holds it, `"auth": { "token": "<token>" }`,
 * and a token (base64url, src/access/access-token.ts) needs no escaping in JSON, so a frame of the game
 * holds a `"token"` key whose value is the token's exact characters. This check only lets a body
 * through to the parser; the whole check (`auth.token`, after parsing) decides (docs/access.md).
 */
import type { ExpectedToken } from '../access/access-token.ts';

/** A `"token": "…"` key and its value, written without escapes (an escaped value is not the game's). */
const TOKEN_FIELD = /"token"\s*:\s*"([^"\\]*)"/g;
/**
 * A frame of the game has one such key (in `auth`). A few are looked at, no more: a body of a
 * hundred thousand of them would otherwise cost a hash each.
 */
const MOST_TOKEN_FIELDS = 4;

/** Whether `text` holds the token `token` where the game writes it; compared in constant time. */
export function carriesToken(text: string, token: ExpectedToken): boolean {
  let seen = 0;
  for (const match of text.matchAll(TOKEN_FIELD)) {
    const value = match[1] as string;
    // The length is no secret (the token's format is documented): only a value that could be it is hashed.
    if (value.length === token.length && token.matches(value)) return true;
    if (++seen >= MOST_TOKEN_FIELDS) return false;
  }
  return false;
}

/** Whether `text` has a `"token"` key at all: for the operator, "no token" and "a wrong token" differ. */
export const mentionsToken = (text: string): boolean => text.includes('"token"');
