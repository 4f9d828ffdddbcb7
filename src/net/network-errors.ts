/**
 * What went wrong on the way to another site, in words an operator can act on: the importers', the
 * logo fetch's and the stats platforms' requests say it alike. Pure: reads the error Node gave.
 */

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
