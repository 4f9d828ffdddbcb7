/**
 * Map names: what operators type ("Mirage", "dust 2", "de_nuke"), what sources print ("Dust II",
 * "workshop/2126169449/de_mirage") and what the service answers (always the full `de_` name).
 */

/**
 * The CS2 Active Duty pool as of December 2025, the seven maps of the StarLadder Budapest Major
 * (its HLTV match pages, test/fixtures): Train came back and Anubis left. It is the built-in default
 * of the map pool the operator keeps in the settings (`veto.mapPool`), which veto_start uses when it
 * names no pool. Valve changes the pool a few times a year: change this list, its date here and in
 * docs/api.md, and nothing else.
 */
export const ACTIVE_DUTY_POOL = [
  'de_ancient',
  'de_dust2',
  'de_inferno',
  'de_mirage',
  'de_nuke',
  'de_overpass',
  'de_train',
] as const;

/** Maps of the Active Duty pool of recent years that are out of it now: suggested when adding a map. */
export const RECENT_MAPS = ['de_anubis', 'de_vertigo', 'de_cache', 'de_cobblestone'] as const;

/** The date of ACTIVE_DUTY_POOL, as the docs and the operator app name it. */
export const ACTIVE_DUTY_AS_OF = 'December 2025';

/** A full map name as normalizeMapName answers it: the pattern the saved pool's entries follow. */
export const FULL_MAP_NAME = '^(de|cs|ar)_[a-z0-9]{2,24}$';

// Maps, not plain objects: a name such as "constructor" must not find an inherited member.
const LABELS = new Map([['de_dust2', 'Dust II']]);

// Spellings that the plain rules below would get wrong.
const ALIASES = new Map([
  ['dustii', 'dust2'],
  ['dust', 'dust2'],
]);

const PREFIXES = ['de_', 'cs_', 'ar_'];

/**
 * The full map name (`de_mirage`) for any common spelling, or null when the text cannot be a map
 * name. Case, spaces, dashes, a workshop path and the `de_` prefix are all optional on input.
 */
export function normalizeMapName(input: string): string | null {
  // Separators become underscores first, so "de mirage" and "de-mirage" keep their prefix.
  let text = input
    .trim()
    .toLowerCase()
    .replace(/[\s\-.]+/g, '_');
  const slash = text.lastIndexOf('/');
  if (slash >= 0) text = text.slice(slash + 1);
  let prefix = 'de_';
  for (const candidate of PREFIXES) {
    if (text.startsWith(candidate)) {
      prefix = candidate;
      text = text.slice(candidate.length);
      break;
    }
  }
  text = text.replace(/_+/g, '');
  text = ALIASES.get(text) ?? text;
  if (!/^[a-z0-9]{2,24}$/.test(text)) return null;
  return `${prefix}${text}`;
}

/** The display name of a full map name: "Mirage" for de_mirage, "Dust II" for de_dust2. */
export function mapLabel(fullName: string): string {
  const known = LABELS.get(fullName);
  if (known) return known;
  const bare = fullName.replace(/^[a-z]{2}_/, '');
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}
