import { ServiceError } from '../protocol/errors.ts';
import type { ImportProvider } from './imported-veto.ts';

/** What an import_match_veto payload points at, recognised by host; the request goes to the configured base URL. */
export type ImportTarget =
  | { provider: Extract<ImportProvider, 'faceit'>; matchId: string }
  | { provider: Extract<ImportProvider, 'hltv'>; matchId: string; path: string };

const ACCEPTED =
  'send url (a FACEIT room such as https://www.faceit.com/en/cs2/room/1-<uuid>, or an HLTV match page such as ' +
  'https://www.hltv.org/matches/<id>/<slug>) or platformMatchId (a FACEIT match id such as 1-<uuid>), not both';

const FACEIT_MATCH_ID = /^1-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Room paths: /{lang}/cs2/room/{id}[/scoreboard...] or without the language segment (en, pt-br, zh-hans...).
const FACEIT_LANGUAGE = /^[a-z]{2}(-[a-z0-9]{2,4})?$/;
const FACEIT_GAMES = new Set(['cs2', 'csgo']);
const FACEIT_HOSTS = new Set(['faceit.com', 'www.faceit.com']);
const HLTV_HOSTS = new Set(['hltv.org', 'www.hltv.org']);
const HLTV_MATCH_ID = /^[1-9][0-9]{0,9}$/;
const HLTV_SLUG = /^[a-z0-9][a-z0-9-]*$/i;

const invalid = (detail: string) => new ServiceError('invalid_payload', `${detail}; ${ACCEPTED}`);

/**
 * The provider and match id an import payload names. Exactly one of url and platformMatchId;
 * anything unrecognised is invalid_payload with a message that lists what is accepted. It never
 * throws anything but a ServiceError, whatever the payload holds.
 */
export function resolveImportTarget(payload: { url?: string; platformMatchId?: string }): ImportTarget {
  const input: unknown = payload;
  if (typeof input !== 'object' || input === null) throw invalid('the payload must be an object');
  const { url, platformMatchId } = input as Record<string, unknown>;
  const hasUrl = isGiven(url);
  const hasId = isGiven(platformMatchId);
  if (hasUrl && hasId) throw invalid('both url and platformMatchId were sent');
  if (!hasUrl && !hasId) throw invalid('neither url nor platformMatchId was sent');
  if (hasId) {
    if (typeof platformMatchId !== 'string') throw invalid('platformMatchId must be a string');
    const matchId = platformMatchId.trim().toLowerCase();
    if (!FACEIT_MATCH_ID.test(matchId)) {
      throw invalid(`platformMatchId "${preview(platformMatchId)}" is not a FACEIT match id`);
    }
    return { provider: 'faceit', matchId };
  }
  if (typeof url !== 'string') throw invalid('url must be a string');
  return targetOfUrl(url.trim());
}

/** Absent, null and blank strings all count as "not sent", so a form with an empty field still works. */
function isGiven(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== 'string' || value.trim() !== '';
}

function targetOfUrl(text: string): ImportTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`url "${preview(text)}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid(`url "${preview(text)}" is not an http(s) address`);
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  if (FACEIT_HOSTS.has(url.hostname)) {
    const matchId = faceitRoomId(segments);
    if (matchId === null) throw invalid(`url "${preview(text)}" is not a FACEIT match room`);
    return { provider: 'faceit', matchId };
  }
  if (HLTV_HOSTS.has(url.hostname)) {
    const [first, id, slug] = segments;
    if (
      first !== 'matches' ||
      id === undefined ||
      slug === undefined ||
      !HLTV_MATCH_ID.test(id) ||
      !HLTV_SLUG.test(slug)
    ) {
      throw invalid(`url "${preview(text)}" is not an HLTV match page`);
    }
    return { provider: 'hltv', matchId: id, path: `/matches/${id}/${slug}` };
  }
  throw invalid(`url "${preview(text)}" is neither a FACEIT nor an HLTV address`);
}

function faceitRoomId(segments: readonly string[]): string | null {
  const lowered = segments.map((segment) => segment.toLowerCase());
  const start =
    lowered[0] !== undefined && FACEIT_LANGUAGE.test(lowered[0]) && !FACEIT_GAMES.has(lowered[0]) ? 1 : 0;
  const [game, room, id] = lowered.slice(start);
  if (game === undefined || !FACEIT_GAMES.has(game) || room !== 'room' || id === undefined) return null;
  return FACEIT_MATCH_ID.test(id) ? id : null;
}

/** Echo at most 120 characters of what the caller sent: enough to recognise it, never a wall of text. */
function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
