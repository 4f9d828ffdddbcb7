import type { PlatformFigures } from '../../machines/panel.machine.ts';
import type { StatsProvider } from '../../machines/vocabulary.ts';
import { FACEIT_KEY, keyRefusal } from '../net/key-destination.ts';
import { ServiceError, unavailable } from '../protocol/errors.ts';
import { type FaceitAccess, faceitFigures, type LookedUpPlayer } from './faceit-stats.ts';
import { lookupBudget } from './platform-request.ts';

/**
 * The third-party stats providers of show_player_stats, and what they found, kept per match. A
 * lookup runs in the background of the service (nothing waits for it but the command that asked),
 * has one deadline for all its requests, and is asked once per player and match: a second command
 * for the same player takes the answer or the lookup in flight. A new match (other teams) starts an
 * empty cache.
 */

export type PlatformProvider = Exclude<StatsProvider, 'live'>;

/** How long one lookup (both requests) may take: well inside the import's 20 s, short enough to cue. */
export const STATS_LOOKUP_TIMEOUT_MS = 8_000;

export const PLATFORM_B_REFUSAL =
  'platform_b (HLTV) player stats are not available: HLTV has no API and no lookup by SteamID64, so no figures could be trusted on air; use platform_a (FACEIT) or live';

export const NO_FACEIT_KEY =
  'platform_a (FACEIT) stats need a FACEIT Data API key: start hud-automation with the environment variable FACEIT_API_KEY set to a server-side key of the FACEIT developer portal';

/** Where the Data API is, the key, and the host the operator confirmed for the key besides FACEIT's. */
export interface FaceitSettings {
  dataApiUrl: string;
  apiKey: string | undefined;
  /** `sources.faceitKeyHost`: a base on another host gets no key without it. */
  keyHost: string | undefined;
}

export interface PlayerStatsLookupOptions {
  /**
   * The FACEIT settings, read at each lookup; no key, or a base the key may not go to: platform_a is
   * refused and nothing is asked (src/net/key-destination.ts).
   */
  faceit: () => FaceitSettings;
  timeoutMs?: number;
  /** A background lookup (one nobody waits for) failed: for the log. */
  onBackgroundFailure?: (player: LookedUpPlayer, error: ServiceError) => void;
}

export class PlayerStatsLookup {
  readonly #options: PlayerStatsLookupOptions;
  readonly #timeoutMs: number;
  #match: string | null = null;
  /** By SteamID64: the lookup, in flight or settled. Failures other than "no account" are dropped. */
  readonly #cache = new Map<string, Promise<PlatformFigures>>();

  constructor(options: PlayerStatsLookupOptions) {
    this.#options = options;
    this.#timeoutMs = options.timeoutMs ?? STATS_LOOKUP_TIMEOUT_MS;
  }

  /** Why the provider cannot give figures at all (not configured, not supported), or null. */
  refusal(provider: PlatformProvider): ServiceError | null {
    if (provider === 'platform_b') return unavailable(PLATFORM_B_REFUSAL);
    const access = this.#access();
    return typeof access === 'string' ? unavailable(access) : null;
  }

  /** The player's figures: from this match's cache, the lookup in flight, or a new lookup. */
  figures(provider: PlatformProvider, player: LookedUpPlayer, match: string): Promise<PlatformFigures> {
    const refused = this.refusal(provider);
    if (refused) return Promise.reject(refused);
    this.#enter(match);
    return this.#lookup(player);
  }

  /** Starts the lookups of these players that this match has not asked for yet; nobody waits. */
  prefetch(provider: PlatformProvider, players: readonly LookedUpPlayer[], match: string): void {
    if (this.refusal(provider)) return;
    this.#enter(match);
    for (const player of players) {
      if (this.#cache.has(player.steamid)) continue;
      this.#lookup(player).catch((error: unknown) => {
        if (error instanceof ServiceError) this.#options.onBackgroundFailure?.(player, error);
      });
    }
  }

  /** Forgets every answer: the source settings changed. */
  reset(): void {
    this.#cache.clear();
  }

  #enter(match: string): void {
    if (match === this.#match) return;
    this.#match = match;
    this.#cache.clear();
  }

  /** The base and the key a lookup uses, or why there is none: no key, or a base it may not go to. */
  #access(): FaceitAccess | string {
    const { dataApiUrl, apiKey, keyHost } = this.#options.faceit();
    if (!apiKey) return NO_FACEIT_KEY;
    const refusal = keyRefusal(FACEIT_KEY, dataApiUrl, keyHost);
    if (refusal) return `platform_a (FACEIT) stats are not looked up: ${refusal}`;
    return { dataApiUrl: dataApiUrl.replace(/\/+$/, ''), apiKey };
  }

  #lookup(player: LookedUpPlayer): Promise<PlatformFigures> {
    const cached = this.#cache.get(player.steamid);
    if (cached) return cached;
    const access = this.#access();
    if (typeof access === 'string') return Promise.reject(unavailable(access));
    const budget = lookupBudget('FACEIT', this.#timeoutMs);
    const lookup = faceitFigures(player, access, budget.signal).finally(() => budget.dispose());
    this.#cache.set(player.steamid, lookup);
    // Only a definite answer lasts the match (no account there); a time-out, a refused key or a
    // broken answer is asked again by the next command.
    lookup.catch((error: unknown) => {
      const lasting = error instanceof ServiceError && error.code === 'conflict';
      if (!lasting && this.#cache.get(player.steamid) === lookup) this.#cache.delete(player.steamid);
    });
    return lookup;
  }
}
