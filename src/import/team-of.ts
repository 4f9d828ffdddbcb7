import type { Team } from '../../machines/veto-rules.ts';
import { ServiceError } from '../errors.ts';

/** The spec's limit for a team name. */
const MAX_TEAM_NAME = 64;

/**
 * A Team from what a source prints: whitespace tidied, cut to the 64 characters the service
 * accepts (by code point, so an emoji is never split), and the logo kept only when it is an
 * http(s) URL. `label` names the place in the source for the message when the name is empty.
 */
export function teamOf(name: string, logo: string | null | undefined, label: string): Team {
  const tidy = name.replace(/\s+/g, ' ').trim();
  if (tidy === '') throw new ServiceError('upstream_error', `${label} has no team name`);
  const team: Team = { name: Array.from(tidy).slice(0, MAX_TEAM_NAME).join('') };
  const url = httpUrl(logo);
  if (url !== undefined) team.logo = url;
  return team;
}

/** The URL when it is absolute http(s) (relative ones resolved against `base`), else undefined. */
export function httpUrl(value: string | null | undefined, base?: string): string | undefined {
  if (!value?.trim()) return undefined;
  try {
    const url = new URL(value.trim(), base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
