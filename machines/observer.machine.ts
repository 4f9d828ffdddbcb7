import { assign, enqueueActions, fromCallback, not, type SnapshotFrom, setup } from 'xstate';
import type { GameDialect } from './game-rules.ts';
import {
  cameraTargetOf,
  type DirectorFrame,
  type DirectorReason,
  type DirectorState,
  direct,
  initialDirectorState,
  type Suggestion,
} from './observer-director.ts';
import type { ObserverMode } from './vocabulary.ts';

export type { DirectorFrame, Suggestion } from './observer-director.ts';

/** What set_smart_observer changes, saved with the production settings. */
export interface ObserverSettings {
  enabled: boolean;
  mode: ObserverMode;
  cinematicEnabled: boolean;
}

/** Where the game's network console listens (CS2 started with `-netconport <port>`). */
export interface NetconAddress {
  host: string;
  port: number;
}

export const DEFAULT_NETCON: NetconAddress = { host: '127.0.0.1', port: 2121 };

/** The saved state the observer starts from. */
export interface ObserverInput {
  settings: ObserverSettings;
  netcon: NetconAddress;
}

/** No saved state: switched off, suggest when switched on, the console of a game on this machine. */
export const OBSERVER_DEFAULTS: ObserverInput = {
  settings: { enabled: false, mode: 'suggest', cinematicEnabled: false },
  netcon: DEFAULT_NETCON,
};

/** Waits between failed tries while the game's console is away; the last step repeats. */
export const NETCON_BACKOFF_MS = [1_000, 2_000, 5_000, 10_000] as const;

/**
 * A connection counts as lasting once it has stayed up this long (the longest wait): only then does
 * the back-off start again from 1 s. A console that accepts and closes at once is a failed try like
 * a refused one, so it cannot make the link knock every second.
 */
export const NETCON_STABLE_MS = 10_000;

export function netconBackoffDelay(attempt: number): number {
  const index = Math.min(Math.max(attempt, 1), NETCON_BACKOFF_MS.length) - 1;
  return NETCON_BACKOFF_MS[index] ?? NETCON_BACKOFF_MS[3];
}

/** How long the frames may show another player after a cut before it counts as ignored by the game. */
export const FOLLOW_TIMEOUT_MS = 1_500;

export type CameraFollow = 'pending' | 'following' | 'ignored';

/** The last cuts kept in the context, newest last. */
export const MAX_CUTS = 8;

/**
 * Why the link to the game is not connected. `not_auto`: only auto mode talks to the game.
 * The others are how the last try ended (src/observer/netcon-socket.ts reads them from the socket).
 */
export type NetconFailure = 'refused' | 'unreachable' | 'timeout' | 'address_refused' | 'closed';
export type LinkReason = 'not_auto' | NetconFailure;
export type LinkStatus = 'connected' | 'connecting' | 'disconnected';

export interface NetconClose {
  reason: NetconFailure;
  message: string;
}

/**
 * Commands the machine sends to the console actor: each is turned into checked console lines there,
 * in the dialect of the game that sent the frames (CS2's and CS:GO's commands differ).
 */
export type NetconCommand = { type: 'netcon.cut'; steamid: string; slot: number; dialect: GameDialect };

/** What the console actor reports back (sendBack). */
export type NetconSocketEvent =
  | { type: 'observer.link.connected' }
  /** Also when a try never connected (refused, unreachable, an address outside the rule). */
  | ({ type: 'observer.link.closed' } & NetconClose);

export interface NetconSocketInput {
  host: string;
  port: number;
}

export type ObserverEvent =
  | { type: 'observer.configure'; changes: Partial<ObserverSettings> }
  | { type: 'observer.subscription'; active: boolean }
  | ({ type: 'observer.netcon.configure' } & NetconAddress)
  /** From the game actor: one frame, and which game sent it (absent: the same game as before). */
  | { type: 'observer.frame'; frame: DirectorFrame; dialect: GameDialect }
  | NetconSocketEvent;

/** One cut of the director, as the operator sees it in the list. */
export interface CutRecord {
  slot: number;
  steamid: string;
  name: string;
  reason: DirectorReason;
  text: string;
  at: number;
  /** The cut went to the game (auto mode with the console connected). */
  sent: boolean;
}

export interface ObserverContext {
  settings: ObserverSettings;
  netcon: NetconAddress;
  subscriptionActive: boolean;
  director: DirectorState;
  cuts: CutRecord[];
  /** The player the game was last told to show; null after a reconnect, so the cut is sent again. */
  sentSteamid: string | null;
  /**
   * Whether the game followed the last cut: the frames' observed player is the one sent
   * (`following`), not yet (`pending`), or still another one FOLLOW_TIMEOUT_MS after it was sent
   * (`ignored`: the console took the command but the camera did not move; docs/observer.md).
   * null when nothing was sent.
   */
  follow: CameraFollow | null;
  /** Frame time of the last cut sent to the game. */
  sentAt: number | null;
  /** `now` of the last frame, the time a cut sent on (re)connect is counted from. */
  lastFrameAt: number | null;
  linkConnected: boolean;
  /** The game that sends the frames, as the game actor told with the last one: the cuts' console dialect. */
  dialect: GameDialect;
  /** Failed tries since the link last lasted NETCON_STABLE_MS; a connection closed sooner is one. */
  attempt: number;
  lastError: NetconClose | null;
}

const definedChanges = (changes: Partial<ObserverSettings>): Partial<ObserverSettings> =>
  Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));

/** Enabling needs an active subscription (set_smart_observer answers 503 otherwise). */
export function configureRefusal(
  context: Pick<ObserverContext, 'subscriptionActive'>,
  changes: Partial<ObserverSettings>,
): 'no_subscription' | null {
  return changes.enabled === true && !context.subscriptionActive ? 'no_subscription' : null;
}

const wantsLink = (context: ObserverContext) =>
  context.settings.enabled && context.subscriptionActive && context.settings.mode === 'auto';

export const observerMachine = setup({
  types: {
    context: {} as ObserverContext,
    events: {} as ObserverEvent,
    input: {} as ObserverInput,
  },
  actors: {
    // Placeholder: src/observer/netcon-socket.ts provides the TCP console client.
    netconSocket: fromCallback<NetconCommand, NetconSocketInput>(() => {}),
  },
  delays: {
    retryDelay: ({ context }) => netconBackoffDelay(context.attempt),
    linkStable: NETCON_STABLE_MS,
  },
  guards: {
    isOff: ({ context }) => !context.settings.enabled || !context.subscriptionActive,
    isAuto: ({ context }) => context.settings.mode === 'auto',
    wantsLink: ({ context }) => wantsLink(context),
    isAllowedChange: ({ context, event }) => {
      if (event.type !== 'observer.configure') return false;
      const changes = definedChanges(event.changes);
      if (configureRefusal(context, changes)) return false;
      return Object.entries(changes).some(
        ([key, value]) => context.settings[key as keyof ObserverSettings] !== value,
      );
    },
    isOtherDialect: ({ context, event }) =>
      event.type === 'observer.frame' && event.dialect !== context.dialect,
    isNewSubscription: ({ context, event }) =>
      event.type === 'observer.subscription' && event.active !== context.subscriptionActive,
    isNewAddress: ({ context, event }) =>
      event.type === 'observer.netcon.configure' &&
      (event.host !== context.netcon.host || event.port !== context.netcon.port),
  },
  actions: {
    applySettings: assign(({ context }, params: { changes: Partial<ObserverSettings> }) => ({
      settings: { ...context.settings, ...definedChanges(params.changes) },
    })),
    storeDialect: assign((_, params: { dialect: GameDialect }) => ({ dialect: params.dialect })),
    storeSubscription: assign((_, params: { active: boolean }) => ({ subscriptionActive: params.active })),
    storeAddress: assign((_, params: NetconAddress) => ({
      netcon: { host: params.host, port: params.port },
      attempt: 0,
      lastError: null,
    })),
    // The learned bomb sites stay: they are facts about the map, not about this stretch of watching.
    forgetSuggestion: assign(({ context }) => ({
      director: { ...initialDirectorState(), sites: context.director.sites },
      sentSteamid: null,
      follow: null,
      sentAt: null,
    })),
    directFrame: assign(({ context }, params: { frame: DirectorFrame; dialect: GameDialect }) => {
      const { frame, dialect } = params;
      const director = direct(context.director, frame, { cinematic: context.settings.cinematicEnabled });
      const follow = followOf(context, frame);
      const before = context.director.suggestion;
      const after = director.suggestion;
      const changes = { director, follow, lastFrameAt: frame.now, dialect };
      if (!after || after.steamid === before?.steamid) return changes;
      return { ...changes, cuts: [...context.cuts, cutOf(after)].slice(-MAX_CUTS) };
    }),
    // Auto mode only: the camera follows the director when the console is connected.
    sendCameraCut: enqueueActions(({ context, enqueue }) => {
      if (!context.linkConnected || !wantsLink(context)) return;
      const target = cameraTargetOf(context.director);
      if (!target || target.steamid === context.sentSteamid) return;
      enqueue.sendTo('netconSocket', {
        type: 'netcon.cut',
        steamid: target.steamid,
        slot: target.slot,
        dialect: context.dialect,
      } satisfies NetconCommand);
      enqueue.assign({
        sentSteamid: target.steamid,
        sentAt: context.lastFrameAt,
        follow: 'pending',
        cuts: context.cuts.map((cut, index) =>
          index === context.cuts.length - 1 && cut.steamid === target.steamid ? { ...cut, sent: true } : cut,
        ),
      });
    }),
    markConnected: assign({ linkConnected: true }),
    markDisconnected: assign({ linkConnected: false, sentSteamid: null, follow: null, sentAt: null }),
    recordClose: assign((_, params: NetconClose) => ({ lastError: params })),
    recordSocketError: assign((_, params: { error: unknown }) => ({
      lastError: { reason: 'closed' as const, message: errorText(params.error) },
    })),
    countFailure: assign({
      attempt: ({ context }) => Math.min(context.attempt + 1, NETCON_BACKOFF_MS.length),
    }),
    resetAttempts: assign({ attempt: 0, lastError: null }),
  },
}).createMachine({
  id: 'observer',
  description:
    'The automatic observer: a director that suggests whom to watch, and in auto mode a link to the game console that moves the camera.',
  type: 'parallel',
  context: ({ input }) => ({
    settings: { ...input.settings },
    netcon: { ...input.netcon },
    subscriptionActive: false,
    director: initialDirectorState(),
    cuts: [],
    sentSteamid: null,
    follow: null,
    sentAt: null,
    lastFrameAt: null,
    linkConnected: false,
    dialect: 'cs2',
    attempt: 0,
    lastError: null,
  }),
  states: {
    observer: {
      initial: 'choosing',
      on: {
        'observer.configure': {
          guard: 'isAllowedChange',
          target: '.choosing',
          actions: { type: 'applySettings', params: ({ event }) => ({ changes: event.changes }) },
        },
        'observer.subscription': {
          guard: 'isNewSubscription',
          target: '.choosing',
          actions: { type: 'storeSubscription', params: ({ event }) => ({ active: event.active }) },
        },
      },
      states: {
        choosing: {
          description:
            'Chooses the mode from the settings and the subscription, at start-up and after every change.',
          always: [
            { guard: 'isOff', target: 'disabled' },
            { guard: 'isAuto', target: 'auto' },
            { target: 'suggest' },
          ],
        },
        disabled: {
          description:
            'Switched off, or switched on without an active subscription (it waits for one): frames are ignored and nothing is suggested, but the game that sends them is noted.',
          entry: 'forgetSuggestion',
          on: {
            'observer.frame': {
              guard: 'isOtherDialect',
              actions: { type: 'storeDialect', params: ({ event }) => ({ dialect: event.dialect }) },
            },
          },
        },
        suggest: {
          description: 'Suggests whom to watch (in the context and the pages); sends nothing to the game.',
          on: {
            'observer.frame': {
              actions: {
                type: 'directFrame',
                params: ({ event }) => ({ frame: event.frame, dialect: event.dialect }),
              },
            },
          },
        },
        auto: {
          description: 'Suggests whom to watch and moves the game camera there over the console link.',
          on: {
            'observer.frame': {
              actions: [
                {
                  type: 'directFrame',
                  params: ({ event }) => ({ frame: event.frame, dialect: event.dialect }),
                },
                'sendCameraCut',
              ],
            },
          },
        },
      },
    },
    link: {
      initial: 'off',
      on: {
        'observer.netcon.configure': {
          guard: 'isNewAddress',
          target: '.off',
          actions: { type: 'storeAddress', params: ({ event }) => ({ host: event.host, port: event.port }) },
        },
      },
      states: {
        off: {
          description: 'No link: the observer is not in auto mode, so the game is never touched.',
          entry: 'resetAttempts',
          always: { guard: 'wantsLink', target: 'session' },
        },
        backoff: {
          description:
            'The game console is away (game closed or restarting), or closed the link before it lasted 10 s: waits 1, 2, 5, then every 10 s before the next try. Never blocks the observer.',
          always: { guard: not('wantsLink'), target: 'off' },
          after: { retryDelay: { target: 'session' } },
        },
        session: {
          description:
            'A TCP connection to the game console is opening or open: the netconSocket actor lives exactly as long as this state.',
          always: { guard: not('wantsLink'), target: 'off' },
          invoke: {
            id: 'netconSocket',
            src: 'netconSocket',
            input: ({ context }) => ({ host: context.netcon.host, port: context.netcon.port }),
            onError: {
              target: 'backoff',
              actions: [
                { type: 'recordSocketError', params: ({ event }) => ({ error: event.error }) },
                'countFailure',
              ],
            },
          },
          initial: 'connecting',
          on: {
            'observer.link.closed': {
              target: 'backoff',
              actions: [
                {
                  type: 'recordClose',
                  params: ({ event }) => ({ reason: event.reason, message: event.message }),
                },
                'countFailure',
              ],
            },
          },
          states: {
            connecting: {
              description: 'Connecting to the console port.',
              on: { 'observer.link.connected': 'connected' },
            },
            connected: {
              description:
                'Connected: every new camera target of the director goes to the game; the current one is sent at once on (re)connect. The back-off starts again from 1 s only after the link has lasted 10 s.',
              entry: ['markConnected', 'sendCameraCut'],
              exit: 'markDisconnected',
              after: { linkStable: { actions: 'resetAttempts' } },
            },
          },
        },
      },
    },
  },
});

/** Whether the game shows the player last sent, judged on a frame (see ObserverContext.follow). */
function followOf(context: ObserverContext, frame: DirectorFrame): CameraFollow | null {
  if (context.sentSteamid === null || context.follow === null) return null;
  const shown = frame.players.find((player) => player.slot === frame.observedSlot);
  if (shown?.steamid === context.sentSteamid) return 'following';
  // A dead player's camera is the game's to move (its death camera, then the next player).
  const sent = frame.players.find((player) => player.steamid === context.sentSteamid);
  if (!sent || sent.health <= 0) return context.follow;
  if (
    context.follow === 'pending' &&
    context.sentAt !== null &&
    frame.now - context.sentAt >= FOLLOW_TIMEOUT_MS
  )
    return 'ignored';
  return context.follow;
}

function cutOf(suggestion: Suggestion): CutRecord {
  return {
    slot: suggestion.slot,
    steamid: suggestion.steamid,
    name: suggestion.name,
    reason: suggestion.reason,
    text: suggestion.text,
    at: suggestion.since,
    sent: false,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type ObserverSnapshot = SnapshotFrom<typeof observerMachine>;
export type ObserverState = 'disabled' | 'suggest' | 'auto';

/** The observer as the HUD state and GET /api/observer show it (compare this, not the snapshot). */
export function observerStatusOf(snapshot: ObserverSnapshot): {
  settings: ObserverSettings;
  state: ObserverState;
  /** Why an enabled observer is not running: it needs an active subscription. */
  blockedBy: 'no_subscription' | null;
  suggestion: Suggestion | null;
  /** The camera stays on a death (cinematic freeze camera) until this time. */
  holdingUntil: number | null;
  cuts: CutRecord[];
  /** Auto mode: whether the game's camera followed the last cut (null when nothing was sent). */
  cameraFollows: CameraFollow | null;
  link: { status: LinkStatus; reason: LinkReason | null; message: string | null; netcon: NetconAddress };
} {
  const { context } = snapshot;
  const state: ObserverState = snapshot.matches({ observer: 'auto' })
    ? 'auto'
    : snapshot.matches({ observer: 'suggest' })
      ? 'suggest'
      : 'disabled';
  return {
    settings: context.settings,
    state,
    blockedBy: context.settings.enabled && !context.subscriptionActive ? 'no_subscription' : null,
    suggestion: context.director.suggestion,
    holdingUntil: context.director.freeze?.until ?? null,
    cuts: context.cuts,
    cameraFollows: context.follow,
    link: linkOf(snapshot),
  };
}

function linkOf(snapshot: ObserverSnapshot) {
  const { context } = snapshot;
  const netcon = context.netcon;
  if (snapshot.matches({ link: { session: 'connected' } }))
    return { status: 'connected' as const, reason: null, message: null, netcon };
  if (snapshot.matches({ link: 'off' }))
    return { status: 'disconnected' as const, reason: 'not_auto' as const, message: null, netcon };
  return {
    status: 'connecting' as const,
    reason: context.lastError?.reason ?? null,
    message: context.lastError?.message ?? null,
    netcon,
  };
}
