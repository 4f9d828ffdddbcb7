/**
 * The observer in words, for the operator app's Observer view and the /observer page: the link's
 * reason, the state, how long ago a time of the server was. The server sends codes and times;
 * the pages only word them.
 */
import type { ObserverView } from '../../protocol/index.ts';

type Link = ObserverView['link'];

/** What the operator can do about the link, by its reason. */
export const LINK_REASON_WORDS: Record<NonNullable<Link['reason']>, string> = {
  not_auto: 'Off: only auto mode talks to the game',
  refused:
    'Nothing listens there: start CS2 with -netconport and that port (on Windows also -tools), or check the address',
  unreachable: 'That PC cannot be reached: check the address and the network',
  timeout: 'No answer from that PC: is it on, and does its firewall let this machine reach the port?',
  address_refused: 'Address refused: the console is reached only on this machine or the local network',
  closed: 'The game closed the console (quit or restarted): reconnecting',
};

export const CONNECTION_WORDS: Record<Link['connection'], string> = {
  off: 'Off',
  connecting: 'Connecting',
  connected: 'Connected',
  disconnected: 'Not connected',
};

export function stateWords(observer: ObserverView): string {
  if (observer.blockedBy === 'no_subscription') return 'Waiting for a subscription';
  if (observer.state === 'disabled') return 'Off';
  return observer.state === 'auto' ? 'Auto: the camera follows' : 'Suggest: press the key';
}

/** "just now", "4 s ago", "2 min ago": a time of the server, seen on this page's clock. */
export function agoWords(at: number, now: number, clockOffset: number): string {
  const seconds = Math.max(0, Math.round((now - clockOffset - at) / 1000));
  if (seconds < 1) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  return `${Math.floor(seconds / 60)} min ago`;
}

/**
 * The director's reason without the name the page already shows above it: "Big Daddy is planting
 * the bomb" → "Planting the bomb".
 */
export function reasonWords(entry: { name: string; text: string }): string {
  const prefix = `${entry.name} `;
  if (!entry.name || !entry.text.startsWith(prefix)) return entry.text;
  const rest = entry.text.slice(prefix.length).replace(/^is /, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

export const sideWords = (side: 'CT' | 'T') => `${side} side`;
