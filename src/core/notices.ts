/**
 * The one bus for what happens without a revision: notifications that change no state a client could
 * resync from (the overlay should reload, a replay was saved, a secret was regenerated, a session
 * ended, a request was recorded, a server rebound), and the live game's messages at the frames'
 * rate. Whatever is state travels through the revision hub instead (src/core/state-hub.ts); of these
 * notices the pages' ones (PAGE_NOTICES) reach the pages through the hub, stamped with the revision
 * in force.
 */
import type { Emitter } from 'mitt';
import mittModule from 'mitt';
import type { RequestRecord } from '../protocol/answers.ts';
import type { GameMessage } from '../protocol/game.ts';
import type { NotificationStream } from '../protocol/streams.ts';
import type { EventData } from '../protocol/websocket.ts';

// mitt's CommonJS-style default export types as "not callable" under module nodenext.
const mitt = mittModule as unknown as typeof mittModule.default;

/** The notices the pages get as events of their own name (src/protocol/streams.ts, notifications). */
export const PAGE_NOTICES = [
  'overlay.reload',
  'replay.saved',
  'replay.failed',
] as const satisfies readonly NotificationStream[];
export type PageNotice = (typeof PAGE_NOTICES)[number];

/** A secret of the data directory (src/access/secrets.ts). */
export type SecretName = 'token' | 'signInKey' | 'viewKey';

export type Notices = { [E in PageNotice]: EventData<E> } & {
  /**
   * A secret was regenerated: the access token (remote clients must come back with the new one), the
   * sign-in key (every operator app browser is signed out), the view key (the pages that carried it
   * must get the new address).
   */
  'secret.regenerated': SecretName;
  /** A session ended (Sign out, from the list, the key regenerated): its open pages must go. */
  'session.ended': string;
  /** A request was recorded, or a repeated refusal recounted on its entry; `at` is when (ms). */
  'request.recorded': { record: Omit<RequestRecord, 'time'>; at: number };
  /** What the operator app's panel status shows of the servers may have changed (a server rebound). */
  'panel.changed': undefined;
  /** What changed of the live game, as the pages' `game` message. */
  'game.message': GameMessage;
};

export type NoticeBus = Emitter<Notices>;

export const createNoticeBus = (): NoticeBus => mitt<Notices>();
