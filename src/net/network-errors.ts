/**
 * What went wrong on the way to another site, in words an operator can act on: the importers', the
 * logo fetch's and the stats platforms' requests say it alike. Pure: reads the error Node gave.
 */

/** The code of the error a guarded connection fails with when its address is refused (src/import/address-guard.ts). */
export const ADDRESS_REFUSED = 'HUD_ADDRESS_REFUSED';

/** The longest text from another server (a status text, a content type) a message quotes. */
export const REMOTE_TEXT_MAX = 120;

/**
 * Text another server chose, as a message quotes it: at most `max` characters, control characters
 * as spaces. It goes into answers, logs and saved state, so its size is ours, not the server's.
 */
export function remoteText(text: string, max = REMOTE_TEXT_MAX): string {
  const characters = [...text.replace(/\p{Cc}/gu, ' ')];
  return characters.length <= max ? characters.join('') : `${characters.slice(0, max - 1).join('')}…`;
}

const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved (DNS)',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  // One sentence for every refused address, said before any connection is tried: whether something
  // listens there, or what kind of address it is, is never told (no map of this machine's ports).
  [ADDRESS_REFUSED]:
    'its address is refused (the server never fetches from this machine, link-local or special addresses)',
};

/** The system error's code: undici reports it as `cause` of a TypeError("fetch failed"), sometimes deeper. */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Why a request did not reach its site: "the connection was refused", "the TLS certificate was refused (…)" … */
export function networkCause(error: unknown): string {
  const code = errorCode(error);
  if (code === undefined) return 'network error';
  const known = NETWORK_CAUSES[code];
  if (known) return known;
  if (/CERT|SSL|TLS/.test(code)) return `the TLS certificate was refused (${code})`;
  return `network error ${code}`;
}

/** The host (and port) of an address, for messages; the text itself when it is no URL. */
export function hostOfUrl(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
