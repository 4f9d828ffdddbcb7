/**
 * Team logos and tags as plain rules (docs/application.md, "Team logos"). A logo at an http(s)
 * address is fetched once by the server into its media store; the pages only ever load the stored
 * copy, so nothing on air comes from outside and an offline venue keeps the logo it saw once. What
 * the server holds of each such address is its logo status, kept in the match and saved with it.
 * No xstate import: the protocol and the pages use these too.
 */

export const LOGO_STATES = ['fetching', 'stored', 'failed'] as const;
export type LogoState = (typeof LOGO_STATES)[number];

/**
 * The longest reason a failed logo keeps: it is saved with the match and sent to every client, and
 * parts of it (a host, a status text) come from the address and the server it names. The fetch cuts
 * remote text where it enters; the match machine holds no longer reason whatever reports it.
 */
export const LOGO_REASON_MAX_LENGTH = 300;

/** What the server holds of a logo; for a team on the wire, also what its pages load. */
export interface LogoStatus {
  state: LogoState;
  /** What a page loads: the stored copy (`/media/<id>` on the application server), or the data URL as set. */
  src?: string;
  /** Why it could not be stored, in words (state `failed`). */
  reason?: string;
}

/** The logo statuses of the match, by the http(s) address of each logo in use. */
export type LogoStatuses = Readonly<Record<string, LogoStatus>>;

/** The shortest and longest team tag (NAVI, G2, 3DMAX). */
export const TAG_LENGTH = { min: 1, max: 6 } as const;

/**
 * A logo the server fetches: an absolute http(s) address. The other logos set_teams takes, an
 * uploaded image (`/media/<id>`) or a data URL, are already local: the pages load them as they are.
 */
export const isRemoteLogo = (logo: string | undefined): logo is string =>
  !!logo && /^https?:\/\//i.test(logo);

/** What a team's pages show of its logo: null without one; a remote logo by its status. */
export function logoStatusOf(logo: string | undefined, statuses: LogoStatuses): LogoStatus | null {
  if (!logo) return null;
  if (isRemoteLogo(logo)) return statuses[logo] ?? { state: 'fetching' };
  return { state: 'stored', src: logo };
}

/**
 * The statuses for the logos in use after a change of the teams: a logo already known keeps its
 * status, except a failed one that was just sent again (`retry`: set_teams, an import or a veto with
 * that address tries once more); a new one starts fetching; one no longer in use is dropped.
 * The very same object when nothing changed.
 */
export function logoStatusesFor(
  inUse: readonly (string | undefined)[],
  known: LogoStatuses,
  retry: readonly (string | undefined)[],
): LogoStatuses {
  const next: Record<string, LogoStatus> = {};
  for (const logo of inUse) {
    if (!isRemoteLogo(logo) || next[logo]) continue;
    const status = known[logo];
    next[logo] =
      status && !(status.state === 'failed' && retry.includes(logo)) ? status : { state: 'fetching' };
  }
  const same =
    Object.keys(next).length === Object.keys(known).length &&
    Object.entries(next).every(([logo, status]) => known[logo] === status);
  return same ? known : next;
}

/** The fetches to start and to stop when the statuses go from `before` to `after`. */
export function logoFetchChanges(
  before: LogoStatuses,
  after: LogoStatuses,
): { start: string[]; stop: string[] } {
  const fetching = (statuses: LogoStatuses) =>
    new Set(Object.keys(statuses).filter((logo) => statuses[logo]?.state === 'fetching'));
  const was = fetching(before);
  const is = fetching(after);
  return { start: [...is].filter((logo) => !was.has(logo)), stop: [...was].filter((logo) => !is.has(logo)) };
}

/** The id of the child that fetches a logo: one per address. */
export const logoFetchId = (logo: string) => `logo ${logo}`;

const FILLER_WORDS = new Set(['team', 'the', 'esports', 'e-sports', 'gaming', 'club', 'clan']);

/**
 * A short form of a team name for where a tag goes, when the team has none: the name itself when
 * it is one word of at most six characters (FaZe, G2, FURIA), the initials of several words
 * (Natus Vincere: NV), the first four letters of one long word (Astralis: ASTR). Words such as
 * "Team" and "Esports" are left out while others remain (Team Spirit: SPIRIT). Upper case.
 */
export function derivedTag(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  const meaningful = words.filter((word) => !FILLER_WORDS.has(word.toLowerCase()));
  const chosen = meaningful.length > 0 ? meaningful : words;
  const [first = ''] = chosen;
  if (chosen.length === 1) {
    return ([...first].length <= TAG_LENGTH.max ? first : [...first].slice(0, 4).join('')).toUpperCase();
  }
  return chosen
    .slice(0, 4)
    .map((word) => [...word][0] ?? '')
    .join('')
    .toUpperCase();
}
