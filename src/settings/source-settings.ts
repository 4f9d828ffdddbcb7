/**
 * The import sources in the settings (`sources`): a change is checked before anything is saved, so
 * that a base the importers cannot use, or a confirmed FACEIT key host that names no host, is a 400
 * in words rather than a failure of every later import or lookup.
 */
import { hostRefusal } from '../net/key-destination.ts';
import { invalidPayload } from '../protocol/errors.ts';
import type { SettingsChange } from '../protocol/settings.ts';

const BASES = ['faceitUrl', 'faceitDataApiUrl', 'hltvUrl'] as const;

const isHttpUrl = (text: string) =>
  URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol);

/** The change with its sources checked and the confirmed key host trimmed; the rest as it is. */
export function withCheckedSources(changes: SettingsChange): SettingsChange {
  const { sources } = changes;
  if (!sources) return changes;
  for (const key of BASES) {
    const base = sources[key];
    if (base !== undefined && !isHttpUrl(base)) {
      throw invalidPayload(`sources.${key}: "${base}" is not an http(s) address`);
    }
  }
  const keyHost = sources.faceitKeyHost?.trim();
  if (keyHost === undefined) return changes;
  // Empty takes the confirmation back.
  const refusal = keyHost === '' ? null : hostRefusal(keyHost);
  if (refusal) throw invalidPayload(`sources.faceitKeyHost: ${refusal}`);
  return { ...changes, sources: { ...sources, faceitKeyHost: keyHost } };
}
