/**
 * The observer in words, for the operator app's Observer view and the /observer page: the link's
 * reason, the state, how long ago a time of the server was. The server sends codes and times;
 * the pages only word them.
 */
import type { ObserverView } from '../../protocol/index.ts';

type Link = ObserverView['link'];

/** What the operator can do about the link, by its reason. */
export const LINK_REASON_WORDS: Record<NonNullable<Link['reason']>, string> = {
  not_auto: 'Off: the observer is switched off, so the game is never touched',
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

/**
 * The mode in words. Auto says whether the camera follows only when the frames said so for the last
 * cut (issue 32: it said "the camera follows" after the camera had moved elsewhere).
 */
export function stateWords(observer: ObserverView): string {
  if (observer.blockedBy === 'no_subscription') return 'Waiting for a subscription';
  if (observer.state === 'disabled') return 'Off';
  if (observer.state === 'suggest') return 'Suggest: press the key';
  if (observer.camera?.exhausted) return 'Auto, but the camera does not follow: press the key';
  return `Auto: ${CAMERA_FOLLOWS_WORDS[observer.cameraFollows ?? 'none']}`;
}

/** Whether the game camera followed the last cut, as the frames showed it. */
export const CAMERA_FOLLOWS_WORDS: Record<NonNullable<ObserverView['cameraFollows']> | 'none', string> = {
  none: 'no cut sent yet',
  pending: 'cut sent, waiting for the game to show him',
  following: 'the camera follows',
  ignored: 'the game did not follow the last cut',
  moved_away: 'the camera moved elsewhere after the cut',
};

type Cut = ObserverView['cuts'][number];

/** A cut's way to the game and what the frames showed, in a few words. */
export function cutOutcomeWords(cut: Cut): string {
  if (!cut.sent || !cut.strategy) return '–';
  const how = STRATEGY_WORDS[cut.strategy];
  switch (cut.outcome) {
    case 'followed':
      return `${how}: shown after ${cut.followedAfterMs ?? 0} ms`;
    case 'not_followed':
      return `${how}: not followed`;
    case 'already_shown':
      return `${how}: already shown`;
    case 'target_died':
      return `${how}: he died first`;
    case 'replaced':
      return `${how}: cut again before the game showed`;
    case 'pending':
      return `${how}: waiting`;
    default:
      return how;
  }
}

export const STRATEGY_WORDS: Record<NonNullable<Cut['strategy']>, string> = {
  name: 'By name',
  name_lock: 'By name + lock',
  lock: 'Lock',
  csgo: 'CS:GO account',
};

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
