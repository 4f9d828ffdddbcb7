import type { Team } from '../../machines/veto-rules.ts';
import { ServiceError } from '../protocol/errors.ts';
import { TeamSchema } from '../protocol/schemas.ts';

/** The limits set_teams takes, counted as the schemas count them (docs/api.md, "Lengths"). */
const MAX_TEAM_NAME = TeamSchema.properties.name.maxLength ?? 64;
const MAX_LOGO_URL = TeamSchema.properties.logo.maxLength ?? 2048;

/**
 * A Team from what a source prints, within what set_teams accepts (an imported team is saved and
 * read back at the next start like any other): whitespace tidied, the name cut to its limit without
 * splitting a character, and the logo kept only when it is an http(s) URL within its limit. `label`
 * names the place in the source for the message when the name is empty.
 */
export function teamOf(name: string, logo: string | null | undefined, label: string): Team {
  const tidy = name.replace(/\s+/g, ' ').trim();
  if (tidy === '') throw new ServiceError('upstream_error', `${label} has no team name`);
  const team: Team = { name: cut(tidy, MAX_TEAM_NAME) };
  const url = httpUrl(logo);
  if (url !== undefined && url.length <= MAX_LOGO_URL) team.logo = url;
  return team;
}

/** The longest start of `text` within `max` UTF-16 units, ending between two characters. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const char of text) {
    if (end + char.length > max) break;
    end += char.length;
  }
  return text.slice(0, end);
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
