/**
 * Where the importer loads matches from. Production talks to the real sites; tests and a local
 * mirror point the same paths at another base URL, so every request is `{base}{path}`. The FACEIT
 * key goes only to open.faceit.com, or to the host the operator confirmed (src/net/key-destination.ts).
 */
import { FACEIT_KEY, hostRefusal, keyRefusal } from '../net/key-destination.ts';
import { unavailable } from '../protocol/errors.ts';

export interface ImportSources {
  /** FACEIT web site: the internal match (`/api/match/v2/...`) and veto history (`/api/democracy/v1/...`). */
  faceitUrl: string;
  /** FACEIT Data API v4 (`/matches/{id}`); used only when `faceitApiKey` is set. */
  faceitDataApiUrl: string;
  /** HLTV web site: match pages (`/matches/{id}/{slug}`). */
  hltvUrl: string;
  /** FACEIT Data API key (server-side key). Without it the internal match endpoint is used. */
  faceitApiKey?: string;
  /**
   * The host besides open.faceit.com that the operator confirmed to receive the key (`name[:port]`):
   * a Data API base elsewhere gets no key without it.
   */
  faceitKeyHost?: string;
}

export const DEFAULT_IMPORT_SOURCES: Readonly<ImportSources> = {
  faceitUrl: 'https://www.faceit.com',
  faceitDataApiUrl: 'https://open.faceit.com/data/v4',
  hltvUrl: 'https://www.hltv.org',
};

/** The environment variables each setting is read from. */
export const IMPORT_SOURCE_ENV = {
  faceitUrl: 'HUD_FACEIT_URL',
  faceitDataApiUrl: 'HUD_FACEIT_DATA_API_URL',
  hltvUrl: 'HUD_HLTV_URL',
  faceitApiKey: 'FACEIT_API_KEY',
  faceitKeyHost: 'HUD_FACEIT_KEY_HOST',
} as const satisfies Record<keyof ImportSources, string>;

/**
 * The import sources from an environment object (usually `process.env`); unset or blank variables
 * keep the defaults. A base URL that is not http(s) is a configuration mistake, so it throws at
 * start-up instead of failing every import later.
 */
export function importSourcesFromEnv(env: Readonly<Record<string, string | undefined>>): ImportSources {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const baseUrl = (key: 'faceitUrl' | 'faceitDataApiUrl' | 'hltvUrl'): string => {
    const name = IMPORT_SOURCE_ENV[key];
    const value = read(name);
    if (value === undefined) return DEFAULT_IMPORT_SOURCES[key];
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new Error(`${name} must be an http(s) URL, got "${value}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`${name} must be an http(s) URL, got "${value}"`);
    }
    return trimTrailingSlashes(value);
  };
  const sources: ImportSources = {
    faceitUrl: baseUrl('faceitUrl'),
    faceitDataApiUrl: baseUrl('faceitDataApiUrl'),
    hltvUrl: baseUrl('hltvUrl'),
  };
  const apiKey = read(IMPORT_SOURCE_ENV.faceitApiKey);
  if (apiKey !== undefined) sources.faceitApiKey = apiKey;
  const keyHost = read(IMPORT_SOURCE_ENV.faceitKeyHost);
  if (keyHost !== undefined) {
    const refusal = hostRefusal(keyHost);
    if (refusal) throw new Error(`${IMPORT_SOURCE_ENV.faceitKeyHost}: ${refusal}`);
    sources.faceitKeyHost = keyHost;
  }
  return sources;
}

/**
 * The key of the FACEIT Data API, when it may go to the base these sources name; else the refusal
 * in words (503: the operator's setting decides). Undefined when no key is configured.
 */
export function faceitDataApiKey(sources: ImportSources): string | undefined {
  if (sources.faceitApiKey === undefined) return undefined;
  const refusal = keyRefusal(FACEIT_KEY, sources.faceitDataApiUrl, sources.faceitKeyHost);
  if (refusal) throw unavailable(`the FACEIT Data API is not asked: ${refusal}`);
  return sources.faceitApiKey;
}

/** `https://x.org/` and `https://x.org` must build the same request URLs. */
export function trimTrailingSlashes(base: string): string {
  let end = base.length;
  while (end > 0 && base[end - 1] === '/') end -= 1;
  return base.slice(0, end);
}
