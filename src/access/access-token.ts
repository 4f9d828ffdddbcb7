/**
 * The access token of local network mode: a secret that remote devices send with every request.
 * It is stored in one file readable by its owner only. Nothing here logs it or puts it in an
 * error message: a token in a log file is a token handed to whoever reads the logs.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, readFile, stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../persistence/atomic-file.ts';
import { createDataDir, OWNER_ONLY } from '../persistence/data-dir.ts';

const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding: 43 characters of [A-Za-z0-9_-]. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
// Windows has no POSIX modes (stat reports 0o666 or 0o444): there the file relies on the ACL of the
// user's profile folder that holds it.
const CHECK_MODE = process.platform !== 'win32';

/** A fresh token: 32 bytes from the system's secure random source, base64url. */
export function generateToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * The token stored in `file`; a new one is created and stored when the file is missing or does not
 * hold a well-formed token. A file that others could read is narrowed to owner-only first.
 */
export async function loadOrCreateToken(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return regenerateToken(file);
  }
  const token = text.trim();
  if (!TOKEN_PATTERN.test(token)) return regenerateToken(file);
  if (CHECK_MODE && ((await stat(file)).mode & 0o777) !== OWNER_ONLY) {
    // Loopback clients need no token anyway, so another local account that read the file gained
    // nothing it did not have: tightening keeps remote devices working instead of breaking them.
    await chmod(file, OWNER_ONLY);
    await verifyOwnerOnly(file);
  }
  return token;
}

/**
 * Replaces the stored token with a new one and returns it. The caller must switch to the new token
 * at once (the old one then fails on the next request) and close remote WebSockets with 4401.
 */
export async function regenerateToken(file: string): Promise<string> {
  const token = generateToken();
  await createDataDir(dirname(file));
  // Atomic: a crash mid-write leaves the old token or the new one, never half a token. The temporary
  // file is created with the final mode, so the token is never readable by others, even briefly.
  await writeFileAtomic(file, `${token}\n`, { mode: OWNER_ONLY });
  await verifyOwnerOnly(file);
  if ((await readFile(file, 'utf8')).trim() !== token) {
    throw new Error(`access token file ${file} does not hold the token just written`);
  }
  return token;
}

async function verifyOwnerOnly(file: string): Promise<void> {
  if (!CHECK_MODE) return;
  const mode = (await stat(file)).mode & 0o777;
  if (mode !== OWNER_ONLY) {
    throw new Error(`access token file ${file} has mode ${mode.toString(8)}, expected 600`);
  }
}

/**
 * True when `given` is the expected token. Both sides are hashed first, so the comparison runs over
 * two 32-byte digests whatever was sent: neither the content nor the length of the token leaks
 * through timing. An empty expected token never matches (a missing token is not a password).
 */
export function tokensEqual(expected: string, given: string | undefined): boolean {
  return expectedToken(expected).matches(given);
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** One expected token, compared as tokensEqual compares, its own digest computed once. */
export interface ExpectedToken {
  readonly length: number;
  matches(given: string | undefined): boolean;
}

/** For a check that runs at the rate of the game's frames: one hash per comparison, not two. */
export function expectedToken(token: string): ExpectedToken {
  const digest = token.length === 0 ? null : sha256(token);
  return {
    length: token.length,
    matches: (given) => digest !== null && given !== undefined && timingSafeEqual(digest, sha256(given)),
  };
}

/**
 * The token a client sent over HTTP: `Authorization: Bearer <token>` or `X-Service-Token: <token>`.
 * Authorization wins when both carry one; another Authorization scheme (Basic …) is ignored.
 */
export function extractToken(headers: IncomingHttpHeaders): string | undefined {
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.authorization ?? '');
  if (bearer?.[1] !== undefined) return bearer[1];
  const header = headers['x-service-token'];
  // Node joins a repeated X- header into "a, b": that is not one token, and tokensEqual refuses it
  // because it cannot equal a well-formed token. An array only comes from a hand-made headers object.
  const value = typeof header === 'string' ? header.trim() : undefined;
  return value === undefined || value === '' ? undefined : value;
}

/** The token in a WebSocket address (`/?token=<token>`), from a request's `url` (path and query). */
export function extractQueryToken(url: string | undefined): string | undefined {
  return extractQueryValue(url, 'token');
}

/** A parameter of a request's address (`?view=<view key>`), undefined when absent or empty. */
export function extractQueryValue(url: string | undefined, name: string): string | undefined {
  if (url === undefined || !URL.canParse(url, 'http://localhost')) return undefined;
  const value = new URL(url, 'http://localhost').searchParams.get(name);
  return value === null || value === '' ? undefined : value;
}
