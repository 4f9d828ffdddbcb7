import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectedToken,
  extractQueryToken,
  extractToken,
  generateToken,
  loadOrCreateToken,
  regenerateToken,
  tokensEqual,
} from '../../src/access/access-token.ts';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('token file', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hud-token-'));
    // A nested folder that does not exist yet, as on a first start.
    file = join(dir, 'config', 'access-token');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a 32-byte base64url token on first start, owner-only', async () => {
    const token = await loadOrCreateToken(file);
    expect(token).toMatch(TOKEN);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect((await readFile(file, 'utf8')).trim()).toBe(token);
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(join(dir, 'config'))).toBe(0o700);
  });

  it('keeps owner-only permissions whatever the umask', async () => {
    const previous = process.umask(0);
    try {
      await loadOrCreateToken(file);
      expect(await modeOf(file)).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  it('returns the same token on the next start', async () => {
    const first = await loadOrCreateToken(file);
    expect(await loadOrCreateToken(file)).toBe(first);
  });

  it('regenerating stores a new token: the old one no longer matches', async () => {
    const old = await loadOrCreateToken(file);
    const renewed = await regenerateToken(file);
    expect(renewed).toMatch(TOKEN);
    expect(renewed).not.toBe(old);
    expect(tokensEqual(renewed, old)).toBe(false);
    expect(await loadOrCreateToken(file)).toBe(renewed);
    expect(await modeOf(file)).toBe(0o600);
  });

  it('replaces a file that does not hold a well-formed token', async () => {
    await loadOrCreateToken(file);
    for (const junk of ['', 'short', `${'a'.repeat(43)}!`, 'x'.repeat(44)]) {
      await writeFile(file, junk, { mode: 0o600 });
      const token = await loadOrCreateToken(file);
      expect(token).toMatch(TOKEN);
      expect(await readFile(file, 'utf8')).toBe(`${token}\n`);
    }
  });

  it.skipIf(process.platform === 'win32')('narrows a file others could read, keeping its token', async () => {
    const token = await loadOrCreateToken(file);
    await chmod(file, 0o644);
    expect(await loadOrCreateToken(file)).toBe(token);
    expect(await modeOf(file)).toBe(0o600);
  });

  it('writes nothing to the console', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
      vi.spyOn(console, method),
    );
    await loadOrCreateToken(file);
    await regenerateToken(file);
    await writeFile(file, 'junk');
    await loadOrCreateToken(file);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('tokens are not repeated', () => {
    const seen = new Set(Array.from({ length: 1000 }, generateToken));
    expect(seen.size).toBe(1000);
  });
});

describe('tokensEqual, and expectedToken (its digest computed once)', () => {
  const token = generateToken();

  it.each([
    ['the same token', token, true],
    ['another token', generateToken(), false],
    ['a prefix of it', token.slice(0, 42), false],
    ['it plus one character', `${token}A`, false],
    ['it with a trailing newline', `${token}\n`, false],
    ['nothing', undefined, false],
    ['an empty string', '', false],
  ])('%s: %s', (_label, given, expected) => {
    expect(tokensEqual(token, given)).toBe(expected);
    expect(expectedToken(token).matches(given)).toBe(expected);
  });

  it('an empty expected token matches nothing, not even an empty one', () => {
    expect(tokensEqual('', '')).toBe(false);
    expect(expectedToken('').matches('')).toBe(false);
  });

  it('agrees with === for any pair of strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(tokensEqual(a, b)).toBe(a === b && a !== '');
        expect(tokensEqual(a, a)).toBe(a !== '');
        expect(expectedToken(a).matches(b)).toBe(a === b && a !== '');
      }),
    );
  });
});

describe('extractToken', () => {
  it.each([
    [{ authorization: 'Bearer abc' }, 'abc'],
    [{ authorization: 'bearer abc' }, 'abc'],
    [{ authorization: 'BEARER   abc  ' }, 'abc'],
    [{ 'x-service-token': 'abc' }, 'abc'],
    [{ 'x-service-token': '  abc ' }, 'abc'],
    [{ authorization: 'Bearer one', 'x-service-token': 'two' }, 'one'],
    [{ authorization: 'Basic dXNlcjpwYXNz', 'x-service-token': 'two' }, 'two'],
    [{ authorization: 'Basic dXNlcjpwYXNz' }, undefined],
    [{ authorization: 'Bearer' }, undefined],
    [{ authorization: 'Bearer ' }, undefined],
    [{ authorization: 'Bearer a b' }, undefined],
    [{ authorization: 'Bearerabc' }, undefined],
    [{ 'x-service-token': '' }, undefined],
    [{ 'x-service-token': ['abc', 'def'] }, undefined],
    [{}, undefined],
  ])('%j -> %s', (headers, expected) => {
    expect(extractToken(headers)).toBe(expected);
  });
});

describe('extractQueryToken', () => {
  it.each([
    ['/?token=abc', 'abc'],
    ['/ws?x=1&token=abc', 'abc'],
    ['/?token=a%2Bb', 'a+b'],
    ['/?token=', undefined],
    ['/', undefined],
    [undefined, undefined],
    ['http://[', undefined],
  ])('%s -> %s', (url, expected) => {
    expect(extractQueryToken(url)).toBe(expected);
  });
});
