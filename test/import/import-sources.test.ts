import { describe, expect, it } from 'vitest';
import { importSourcesFromEnv } from '../../src/import/import-sources.ts';

describe('importSourcesFromEnv', () => {
  it('keeps the public sites and no key when nothing is set', () => {
    expect(importSourcesFromEnv({})).toEqual({
      faceitUrl: 'https://www.faceit.com',
      faceitDataApiUrl: 'https://open.faceit.com/data/v4',
      hltvUrl: 'https://www.hltv.org',
    });
    expect(importSourcesFromEnv({ FACEIT_API_KEY: '  ', HUD_HLTV_URL: '' })).not.toHaveProperty(
      'faceitApiKey',
    );
  });

  it('reads every variable and drops trailing slashes', () => {
    expect(
      importSourcesFromEnv({
        HUD_FACEIT_URL: 'http://127.0.0.1:9000/faceit/',
        HUD_FACEIT_DATA_API_URL: 'http://127.0.0.1:9000/open/data/v4',
        HUD_HLTV_URL: 'http://127.0.0.1:9001//',
        FACEIT_API_KEY: ' abc-123 ',
      }),
    ).toEqual({
      faceitUrl: 'http://127.0.0.1:9000/faceit',
      faceitDataApiUrl: 'http://127.0.0.1:9000/open/data/v4',
      hltvUrl: 'http://127.0.0.1:9001',
      faceitApiKey: 'abc-123',
    });
  });

  it('reads the host confirmed for the FACEIT key (HUD_FACEIT_KEY_HOST), and refuses one that names no host', () => {
    expect(importSourcesFromEnv({ HUD_FACEIT_KEY_HOST: ' mirror.example:8443 ' })).toMatchObject({
      faceitKeyHost: 'mirror.example:8443',
    });
    expect(importSourcesFromEnv({})).not.toHaveProperty('faceitKeyHost');
    expect(() => importSourcesFromEnv({ HUD_FACEIT_KEY_HOST: 'https://mirror.example/' })).toThrow(
      'HUD_FACEIT_KEY_HOST: "https://mirror.example/" is not a host',
    );
  });

  it('refuses a base URL that is not http(s), naming the variable', () => {
    expect(() => importSourcesFromEnv({ HUD_HLTV_URL: 'ftp://mirror' })).toThrow(
      'HUD_HLTV_URL must be an http(s) URL',
    );
    expect(() => importSourcesFromEnv({ HUD_FACEIT_URL: 'not a url' })).toThrow(
      'HUD_FACEIT_URL must be an http(s) URL',
    );
  });
});
