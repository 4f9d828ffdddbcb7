/**
 * Where FACEIT_API_KEY may be sent (issue 37): open.faceit.com over https, or the one host the
 * operator confirmed, over https, or over http only to a loopback address. Decided on the parsed
 * address, so a look-alike name or a user part does not pass for FACEIT's host.
 */
import { describe, expect, it } from 'vitest';
import { FACEIT_KEY, hostRefusal, keyRefusal } from '../../src/net/key-destination.ts';

const may = (base: string, confirmed?: string) => keyRefusal(FACEIT_KEY, base, confirmed) === null;

describe('keyRefusal', () => {
  it("sends the key to FACEIT's own host over https, and nowhere else without a confirmation", () => {
    expect(may('https://open.faceit.com/data/v4')).toBe(true);
    expect(may('https://OPEN.faceit.com:443/data/v4')).toBe(true);
    for (const base of [
      'http://open.faceit.com/data/v4',
      'https://open.faceit.com:8443/data/v4',
      'https://open.faceit.com.evil.example/data/v4',
      'https://open.faceit.com@evil.example/data/v4',
      'https://evil.example/open.faceit.com/data/v4',
      'http://127.0.0.1:9000/data/v4',
      'not an address',
    ]) {
      expect(may(base), base).toBe(false);
    }
  });

  it('sends it to the host the operator confirmed: over https, or over http on a loopback address', () => {
    expect(may('https://mirror.example/data/v4', 'mirror.example')).toBe(true);
    expect(may('https://mirror.example/data/v4', 'MIRROR.example:443')).toBe(true);
    expect(may('https://mirror.example:8443/data/v4', 'mirror.example:8443')).toBe(true);
    expect(may('http://127.0.0.1:9000/data/v4', '127.0.0.1:9000')).toBe(true);
    expect(may('http://[::1]:9000/data/v4', '[::1]:9000')).toBe(true);
    // Another port, another name of the same machine, another host: not what was confirmed.
    expect(may('https://mirror.example:8443/data/v4', 'mirror.example')).toBe(false);
    expect(may('http://localhost:9000/data/v4', '127.0.0.1:9000')).toBe(false);
    expect(may('https://evil.example/data/v4', 'mirror.example')).toBe(false);
  });

  it('never sends it over plain http to another machine, confirmed or not, and says so', () => {
    for (const host of ['10.0.0.5:8080', 'mirror.example', 'localhost:9000']) {
      expect(keyRefusal(FACEIT_KEY, `http://${host}/data/v4`, host)).toBe(
        `FACEIT_API_KEY is never sent over http to another machine (http://${host}): only over https`,
      );
    }
    expect(keyRefusal(FACEIT_KEY, 'https://mirror.example/data/v4', undefined)).toBe(
      'FACEIT_API_KEY is only sent to https://open.faceit.com or a host the operator confirmed, and https://mirror.example is not confirmed: if that host is yours, set the setting sources.faceitKeyHost (POST /internal/settings, POST /api/panel/settings) or HUD_FACEIT_KEY_HOST to "mirror.example"',
    );
  });
});

describe('hostRefusal', () => {
  it('takes a host as an address writes it, and nothing else', () => {
    for (const host of ['mirror.example', 'mirror.example:8443', '10.0.0.5', '[fd00::5]:443']) {
      expect(hostRefusal(host), host).toBeNull();
    }
    for (const text of [
      'https://mirror.example',
      'mirror.example/data',
      'user@mirror.example',
      'a b',
      '',
      ':80',
    ]) {
      expect(hostRefusal(text), text).toContain('is not a host');
    }
  });
});
