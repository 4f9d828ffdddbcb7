import { explainSteps } from '../../machines/veto-rules.ts';
import { ServiceError } from '../protocol/errors.ts';
import { importFaceitMatch } from './faceit.ts';
import { createImportBudget, createSourceClient } from './fetch-source.ts';
import { importHltvMatch } from './hltv.ts';
import { type ImportSources, trimTrailingSlashes } from './import-sources.ts';
import { type ImportTarget, resolveImportTarget } from './import-target.ts';
import type { ImportedVeto } from './imported-veto.ts';

export type { ImportedVeto } from './imported-veto.ts';

export interface MatchImporterOptions {
  sources: ImportSources;
  /** Budget for one whole import, every request included (the spec allows 20 s). */
  timeoutMs?: number;
  /** After a 409, the same match answers the same 409 from memory for this long. */
  conflictMemoMs?: number;
  now?: () => number;
  /** Defaults to `hud-automation/<version> (+local CS2 broadcast automation)`. */
  userAgent?: string;
}

export interface MatchImporter {
  /**
   * The veto of the match a payload names. Fails only with ServiceError: invalid_payload (400),
   * conflict (409, veto not available yet), upstream_error (502), upstream_timeout (504).
   */
  importMatch(
    payload: { url?: string; platformMatchId?: string },
    signal?: AbortSignal,
  ): Promise<ImportedVeto>;
}

export const IMPORT_TIMEOUT_MS = 20_000;
export const CONFLICT_MEMO_MS = 5_000;

const SOURCE_NAMES = { faceit: 'FACEIT', hltv: 'HLTV' } as const;

export function createMatchImporter(options: MatchImporterOptions): MatchImporter {
  const { userAgent } = options;
  // Requests are `{base}{path}`: a base written with a trailing slash must not double it.
  const sources: ImportSources = {
    ...options.sources,
    faceitUrl: trimTrailingSlashes(options.sources.faceitUrl),
    faceitDataApiUrl: trimTrailingSlashes(options.sources.faceitDataApiUrl),
    hltvUrl: trimTrailingSlashes(options.sources.hltvUrl),
  };
  const timeoutMs = options.timeoutMs ?? IMPORT_TIMEOUT_MS;
  const conflictMemoMs = options.conflictMemoMs ?? CONFLICT_MEMO_MS;
  const now = options.now ?? Date.now;
  // Each attempt loads the match room, and clients poll while the teams vote: a repeated question
  // within the window gets the previous 409 without touching the source.
  const conflicts = new Map<string, { error: ServiceError; until: number }>();

  async function load(target: ImportTarget, signal?: AbortSignal): Promise<ImportedVeto> {
    const budget = createImportBudget('the import', timeoutMs, signal);
    const client = createSourceClient(
      userAgent === undefined ? { signal: budget.signal } : { signal: budget.signal, userAgent },
    );
    try {
      return target.provider === 'faceit'
        ? await importFaceitMatch(target.matchId, { client, sources })
        : await importHltvMatch(target, { client, sources });
    } finally {
      budget.dispose();
    }
  }

  return {
    async importMatch(payload, signal) {
      const target = resolveImportTarget(payload);
      const key = `${target.provider}:${target.matchId}`;
      const at = now();
      for (const [memoKey, memo] of conflicts) if (memo.until <= at) conflicts.delete(memoKey);
      const remembered = conflicts.get(key);
      if (remembered !== undefined) throw remembered.error;

      let veto: ImportedVeto;
      try {
        veto = await load(target, signal);
      } catch (error) {
        const failure = asServiceError(error, SOURCE_NAMES[target.provider]);
        if (failure.code === 'conflict') {
          conflicts.set(key, { error: failure, until: now() + conflictMemoMs });
        }
        throw failure;
      }
      conflicts.delete(key);
      const why = explainSteps(veto.boFormat, veto.steps);
      if (why !== null) {
        throw new ServiceError(
          'upstream_error',
          `the source's veto does not follow the rules: ${why} (${SOURCE_NAMES[target.provider]} match ${target.matchId})`,
        );
      }
      return veto;
    },
  };
}

// The providers throw only ServiceErrors; anything else is a bug here, reported without its internals.
function asServiceError(error: unknown, source: string): ServiceError {
  if (error instanceof ServiceError) return error;
  const failure = new ServiceError('internal_error', `the import from ${source} failed unexpectedly`);
  Object.defineProperty(failure, 'cause', { value: error, enumerable: false });
  return failure;
}
