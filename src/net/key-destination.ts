/**
 * Where a key the service holds may be sent (docs/access.md, "Where secrets may be sent"): to its
 * service's own host over https, or to the one host the operator confirmed for it, over https (plain
 * http only to a loopback address, a proxy on this machine: the key never crosses a network in
 * clear). A base address alone never takes the key along: pointing it elsewhere (a setting, the
 * environment) sends the key nowhere until that host is confirmed. Only the first address needs the
 * check: fetch drops the Authorization header on a redirect to another origin. Pure.
 */
import { classifyAddress } from './address-class.ts';

/** One key and where it may go. */
export interface KeyDestination {
  /** The key as the operator knows it: the environment variable. */
  key: string;
  /** The host it goes to without a confirmation, over https only. */
  home: string;
  /** Where the operator confirms another host, for the message. */
  confirmWhere: string;
}

/** FACEIT's Data API key: for open.faceit.com (docs.faceit.com/docs/data-api). */
export const FACEIT_KEY: KeyDestination = {
  key: 'FACEIT_API_KEY',
  home: 'open.faceit.com',
  confirmWhere:
    'the setting sources.faceitKeyHost (POST /internal/settings, POST /api/panel/settings) or HUD_FACEIT_KEY_HOST',
};

/** Why `base` may not receive the key, in words for the operator, or null when it may. Never throws. */
export function keyRefusal(
  destination: KeyDestination,
  base: string,
  /** The host the operator confirmed (`name` or `name:port`); empty or undefined: none. */
  confirmedHost: string | undefined,
): string | null {
  const { key, home, confirmWhere } = destination;
  if (!URL.canParse(base)) return `${key} is not sent: "${base}" is not an address`;
  const url = new URL(base);
  const where = `${url.protocol}//${url.host}`;
  const https = url.protocol === 'https:';
  const loopback =
    url.protocol === 'http:' && classifyAddress(url.hostname.replace(/^\[|\]$/g, '')) === 'loopback';
  if (https && url.host === home) return null;
  if (!https && !loopback) {
    return `${key} is never sent over ${url.protocol.slice(0, -1)} to another machine (${where}): only over https`;
  }
  if (isConfirmed(url, confirmedHost)) return null;
  return `${key} is only sent to https://${home} or a host the operator confirmed, and ${where} is not confirmed: if that host is yours, set ${confirmWhere} to "${url.host}"`;
}

/** Whether `confirmed` names the host of `url`, its port as the scheme writes it (:443 is https's own). */
function isConfirmed(url: URL, confirmed: string | undefined): boolean {
  if (!confirmed || hostRefusal(confirmed)) return false;
  return new URL(`${url.protocol}//${confirmed}`).host === url.host;
}

/** Why `text` is not a host an operator can confirm (`name`, `name:port`, `[v6]:port`), or null. */
export function hostRefusal(text: string): string | null {
  const parsed =
    /[/?#@\\\s]/.test(text) || !URL.canParse(`https://${text}`) ? null : new URL(`https://${text}`);
  if (parsed?.hostname) return null;
  return `"${text}" is not a host: write it as the address has it, a name or name:port (mirror.example:8443)`;
}
