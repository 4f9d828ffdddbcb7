import { assign, enqueueActions, fromCallback, not, raise, type SnapshotFrom, setup } from 'xstate';
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
import {
  type CutStrategy,
  type CutTarget,
  nextUntried,
  STRATEGY_ORDER,
  STRATEGY_TEXT,
  strategyFor,
} from './observer-strategies.ts';
import type { ObserverMode } from './vocabulary.ts';

export type { DirectorFrame, Suggestion } from './observer-director.ts';
export type { CutStrategy } from './observer-strategies.ts';

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
  /** The cut strategy the operator pinned (observer_pin), kept across restarts; absent or null: none. */
  pinned?: CutStrategy | null;
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

/**
 * How long the frames may show another player after a cut before it counts as not followed, and the
 * next strategy is tried. The game's data arrives within a few hundred ms (the cfg's throttle and
 * buffer), so a camera that moved shows well within it.
 */
export const FOLLOW_TIMEOUT_MS = 1_500;

/**
 * What the game's camera does after the last cut: `pending` (waiting for the frames to show the
 * target), `following` (they show him), `ignored` (they did not within FOLLOW_TIMEOUT_MS),
 * `moved_away` (they showed him, then someone else while he was alive: the camera was taken back).
 */
export type CameraFollow = 'pending' | 'following' | 'ignored' | 'moved_away';

/**
 * How one cut ended: `followed` (the frames showed the target, after `followedAfterMs`),
 * `not_followed` (not within FOLLOW_TIMEOUT_MS), `already_shown` (the game showed him before the cut:
 * proves nothing about the strategy), `target_died` (he died before the frames could tell), `replaced`, `pending`.
 */
export type CutOutcome =
  | 'pending'
  | 'followed'
  | 'not_followed'
  | 'already_shown'
  | 'target_died'
  /** The director cut again before the frames could tell (a plant, a clutch): proves nothing. */
  | 'replaced';

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
export type NetconCommand =
  | { type: 'netcon.cut'; steamid: string; name: string; slot: number; strategy: CutStrategy }
  /** Auto mode ended: hand the camera back to the human observer (the link stays for the next time). */
  | { type: 'netcon.release' };

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
  /** Cut to the current suggestion now, in suggest or auto mode (the operator checks the link). */
  | { type: 'observer.testCut' }
  /** Forget what was learned this game session and try every strategy again. */
  | { type: 'observer.probeAgain' }
  /** Use only this strategy (null: learn it from the frames again). */
  | { type: 'observer.pin'; strategy: CutStrategy | null }
  /** Internal: a cut went out (the camera region starts waiting for the frames). */
  | { type: 'observer.cut.sent' }
  /** Internal: a cut went out to the player the game already showed. */
  | { type: 'observer.cut.shown' }
  /** Internal: a frame, after the director and any cut it caused (the camera loop judges it then). */
  | { type: 'observer.camera.frame'; frame: DirectorFrame }
  /** Internal: the camera is no longer ours to judge (auto ended, the link dropped). */
  | { type: 'observer.camera.reset' }
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
  /** How it was sent (null: not sent). */
  strategy: CutStrategy | null;
  outcome: CutOutcome | null;
  /** Frame time from the cut to the first frame showing the target. */
  followedAfterMs: number | null;
}

export interface ObserverContext {
  settings: ObserverSettings;
  netcon: NetconAddress;
  subscriptionActive: boolean;
  director: DirectorState;
  cuts: CutRecord[];
  /** The player the game was last told to show; null after a reconnect, so the cut is sent again. */
  sentSteamid: string | null;
  /** The last cut's target and strategy, for a retry with the next strategy. */
  sentTarget: (CutTarget & { slot: number }) | null;
  sentStrategy: CutStrategy | null;
  /** The sent player is alive in the last frame (a death makes the cut's outcome unknowable). */
  sentAlive: boolean;
  /** The player the last frame shows (null: free camera, or no frame yet). */
  shownSteamid: string | null;
  strategy: {
    /** The operator's choice: only this one is used. */
    pinned: CutStrategy | null;
    /** The strategy the frames proved this game session (kept until the game, the address or a probe changes). */
    working: CutStrategy | null;
    /** While probing: the strategies the frames showed not to move the camera this game session. */
    failed: CutStrategy[];
    /** Every strategy was tried and none moved the camera: auto only suggests until a probe. */
    exhausted: boolean;
  };
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

/** The link is up whenever the observer runs (suggest or auto), so "connected" shows before going live. */
const wantsLink = (context: ObserverContext) => context.settings.enabled && context.subscriptionActive;
const isAutoOn = (context: ObserverContext) => wantsLink(context) && context.settings.mode === 'auto';
const isProbing = (context: ObserverContext) =>
  context.strategy.pinned === null && context.strategy.working === null;
const FRESH_STRATEGY: Omit<ObserverContext['strategy'], 'pinned'> = {
  working: null,
  failed: [],
  exhausted: false,
};

export const observerMachine = setup({
  types: {
    context: {} as ObserverContext,
    events: {} as ObserverEvent,
    // The host's subscription when the actors start (the supervisor passes it; the host tells every
    // change by systemId). Absent when the machine runs alone: none until told.
    input: {} as ObserverInput & { subscriptionActive?: boolean },
  },
  actors: {
    // Placeholder: src/observer/netcon-socket.ts provides the TCP console client.
    netconSocket: fromCallback<NetconCommand, NetconSocketInput>(() => {}),
  },
  delays: {
    followTimeout: FOLLOW_TIMEOUT_MS,
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
    canTestCut: ({ context }) => context.linkConnected && context.director.suggestion !== null,
    showsTarget: ({ context, event }) =>
      event.type === 'observer.camera.frame' &&
      context.sentSteamid !== null &&
      shownOf(event.frame) === context.sentSteamid,
    // A dead target's camera is the game's to move (its death camera, then the next player).
    showsOtherWhileTargetAlive: ({ context, event }) => {
      if (event.type !== 'observer.camera.frame' || context.sentSteamid === null) return false;
      const target = event.frame.players.find((player) => player.steamid === context.sentSteamid);
      return !!target && target.health > 0 && shownOf(event.frame) !== context.sentSteamid;
    },
    isTargetDown: ({ context }) => !context.sentAlive,
    hasNextStrategy: ({ context }) =>
      isProbing(context) &&
      context.sentTarget !== null &&
      strategyFor(context.sentTarget, {
        dialect: context.dialect,
        pinned: null,
        working: null,
        failed: failedAfterThisCut(context),
      }) !== null,
    isLastStrategy: ({ context }) =>
      isProbing(context) && nextUntried(context.dialect, failedAfterThisCut(context)) === null,
  },
  actions: {
    applySettings: assign(({ context }, params: { changes: Partial<ObserverSettings> }) => ({
      settings: { ...context.settings, ...definedChanges(params.changes) },
    })),
    // Another game is another session: what worked for the last one is learned again.
    storeDialect: assign(({ context }, params: { dialect: GameDialect }) => ({
      dialect: params.dialect,
      strategy: { ...context.strategy, ...FRESH_STRATEGY },
    })),
    storeSubscription: assign((_, params: { active: boolean }) => ({ subscriptionActive: params.active })),
    storeAddress: assign(({ context }, params: NetconAddress) => ({
      netcon: { host: params.host, port: params.port },
      attempt: 0,
      lastError: null,
      strategy: { ...context.strategy, ...FRESH_STRATEGY },
    })),
    // The learned bomb sites stay: they are facts about the map, not about this stretch of watching.
    forgetSuggestion: assign(({ context }) => ({
      director: { ...initialDirectorState(), sites: context.director.sites },
      sentSteamid: null,
      sentTarget: null,
      follow: null,
      sentAt: null,
    })),
    directFrame: assign(({ context }, params: { frame: DirectorFrame; dialect: GameDialect }) => {
      const { frame, dialect } = params;
      const director = direct(context.director, frame, { cinematic: context.settings.cinematicEnabled });
      const before = context.director.suggestion;
      const after = director.suggestion;
      const sent = frame.players.find((player) => player.steamid === context.sentSteamid);
      const changes = {
        director,
        lastFrameAt: frame.now,
        dialect,
        shownSteamid: shownOf(frame),
        sentAlive: !!sent && sent.health > 0,
      };
      if (!after || after.steamid === before?.steamid) return changes;
      return { ...changes, cuts: [...context.cuts, cutOf(after)].slice(-MAX_CUTS) };
    }),
    // Auto mode: the camera follows the director's new targets (a first cut on entering auto is the
    // suggestion of the latest frame). `force`: a test cut, a retry with the next strategy, a probe.
    sendCut: enqueueActions(({ context, enqueue }, params: { force: boolean; retry: boolean }) => {
      if (!context.linkConnected) return;
      if (!params.force && (!isAutoOn(context) || context.strategy.exhausted)) return;
      const target = params.retry ? context.sentTarget : cameraTargetOf(context.director);
      if (!target || (!params.force && target.steamid === context.sentSteamid)) return;
      const strategy = strategyFor(target, {
        dialect: context.dialect,
        pinned: context.strategy.pinned,
        working: context.strategy.working,
        failed: context.strategy.failed,
      });
      // No strategy can name this player (a bot, a name that could leave its quotes): nothing is sent.
      if (!strategy) return;
      const choice = { strategy };
      enqueue.sendTo('netconSocket', {
        type: 'netcon.cut',
        steamid: target.steamid,
        name: target.name,
        slot: target.slot,
        strategy: choice.strategy,
      } satisfies NetconCommand);
      const shown = context.shownSteamid === target.steamid;
      const record: CutRecord = {
        slot: target.slot,
        steamid: target.steamid,
        name: target.name,
        reason:
          context.director.suggestion?.steamid === target.steamid
            ? context.director.suggestion.reason
            : 'alive',
        text: context.director.suggestion?.steamid === target.steamid ? context.director.suggestion.text : '',
        at: context.lastFrameAt ?? 0,
        sent: true,
        strategy: choice.strategy,
        outcome: shown ? 'already_shown' : 'pending',
        followedAfterMs: null,
      };
      // A cut still waiting for the frames ends here, unjudged.
      const judged =
        context.follow === 'pending'
          ? withLastOutcome(context.cuts, context.sentAlive ? 'replaced' : 'target_died', null)
          : context.cuts;
      const last = judged.at(-1);
      const cuts =
        last && !last.sent && last.steamid === target.steamid
          ? [...judged.slice(0, -1), { ...record, reason: last.reason, text: last.text, at: last.at }]
          : [...judged, record].slice(-MAX_CUTS);
      enqueue.assign({
        sentSteamid: target.steamid,
        sentTarget: { steamid: target.steamid, name: target.name, slot: target.slot },
        sentStrategy: choice.strategy,
        sentAlive: true,
        sentAt: context.lastFrameAt,
        follow: shown ? 'following' : 'pending',
        cuts,
      });
      enqueue.raise({ type: shown ? 'observer.cut.shown' : 'observer.cut.sent' });
    }),
    // Leaving auto (or a test cut's mode changing): the lock goes, the link stays.
    releaseIfCut: enqueueActions(({ context, enqueue }) => {
      if (context.sentSteamid === null && context.follow === null) return;
      if (context.linkConnected)
        enqueue.sendTo('netconSocket', { type: 'netcon.release' } satisfies NetconCommand);
      enqueue.assign({ sentSteamid: null, sentTarget: null, follow: null, sentAt: null });
      enqueue.raise({ type: 'observer.camera.reset' });
    }),
    recordFollowed: assign(({ context, event }) => {
      const now = event.type === 'observer.camera.frame' ? event.frame.now : (context.lastFrameAt ?? 0);
      const after = context.sentAt === null ? null : Math.max(0, now - context.sentAt);
      return {
        follow: 'following' as const,
        cuts: withLastOutcome(context.cuts, 'followed', after),
        strategy:
          context.strategy.pinned === null
            ? { ...context.strategy, working: context.sentStrategy, exhausted: false }
            : context.strategy,
      };
    }),
    // Raised last, so the loop judges the frame against the cut this very frame may have sent.
    judgeCamera: raise((_, params: { frame: DirectorFrame }) => ({
      type: 'observer.camera.frame' as const,
      frame: params.frame,
    })),
    recordMovedAway: assign({ follow: 'moved_away' as const }),
    recordOutcome: assign(({ context }, params: { outcome: CutOutcome }) => ({
      follow: params.outcome === 'not_followed' ? ('ignored' as const) : context.follow,
      cuts: withLastOutcome(context.cuts, params.outcome, null),
      strategy:
        params.outcome === 'not_followed' && isProbing(context)
          ? { ...context.strategy, failed: failedAfterThisCut(context) }
          : context.strategy,
    })),
    // The whole order was tried once: no console spam, auto says so and only suggests.
    giveUp: assign(({ context }) => ({ strategy: { ...context.strategy, exhausted: true } })),
    resetProbe: assign(({ context }) => ({
      strategy: { ...context.strategy, ...FRESH_STRATEGY },
      sentSteamid: null,
      follow: null,
    })),
    pinStrategy: assign(({ context }, params: { strategy: CutStrategy | null }) => ({
      strategy: { ...context.strategy, ...FRESH_STRATEGY, pinned: params.strategy },
      sentSteamid: null,
      follow: null,
    })),
    markConnected: assign({ linkConnected: true }),
    markDisconnected: enqueueActions(({ enqueue }) => {
      enqueue.assign({
        linkConnected: false,
        sentSteamid: null,
        sentTarget: null,
        follow: null,
        sentAt: null,
      });
      enqueue.raise({ type: 'observer.camera.reset' });
    }),
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
    subscriptionActive: input.subscriptionActive ?? false,
    director: initialDirectorState(),
    cuts: [],
    sentSteamid: null,
    sentTarget: null,
    sentStrategy: null,
    sentAlive: false,
    shownSteamid: null,
    strategy: { pinned: input.pinned ?? null, ...FRESH_STRATEGY },
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
        'observer.testCut': {
          guard: 'canTestCut',
          actions: { type: 'sendCut', params: { force: true, retry: false } },
        },
        'observer.probeAgain': {
          actions: ['resetProbe', { type: 'sendCut', params: { force: false, retry: false } }],
        },
        'observer.pin': {
          actions: [
            { type: 'pinStrategy', params: ({ event }) => ({ strategy: event.strategy }) },
            { type: 'sendCut', params: { force: false, retry: false } },
          ],
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
          entry: ['releaseIfCut', 'forgetSuggestion'],
          on: {
            'observer.frame': {
              guard: 'isOtherDialect',
              actions: { type: 'storeDialect', params: ({ event }) => ({ dialect: event.dialect }) },
            },
          },
        },
        suggest: {
          description:
            'Suggests whom to watch (in the context and the pages); sends nothing to the game but a test cut the operator asks for.',
          entry: 'releaseIfCut',
          on: {
            'observer.frame': {
              actions: [
                {
                  type: 'directFrame',
                  params: ({ event }) => ({ frame: event.frame, dialect: event.dialect }),
                },
                { type: 'judgeCamera', params: ({ event }) => ({ frame: event.frame }) },
              ],
            },
          },
        },
        auto: {
          description:
            "Suggests whom to watch and moves the game camera there over the console link. The first cut is the latest frame's suggestion, sent on entry.",
          entry: { type: 'sendCut', params: { force: false, retry: false } },
          on: {
            'observer.frame': {
              actions: [
                {
                  type: 'directFrame',
                  params: ({ event }) => ({ frame: event.frame, dialect: event.dialect }),
                },
                { type: 'sendCut', params: { force: false, retry: false } },
                { type: 'judgeCamera', params: ({ event }) => ({ frame: event.frame }) },
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
              entry: ['markConnected', { type: 'sendCut', params: { force: false, retry: false } }],
              exit: 'markDisconnected',
              after: { linkStable: { actions: 'resetAttempts' } },
            },
          },
        },
      },
    },
    camera: {
      description:
        'The closed loop: after each cut the frames must show the target within FOLLOW_TIMEOUT_MS; if not, the next strategy is tried, and the one that works is kept for the game session.',
      initial: 'idle',
      on: {
        // cut.sent is on each state: on the region, a re-entering transition would re-enter the whole
        // machine (the link too); from a child, only the wait starts again.
        'observer.cut.shown': '.following',
        'observer.camera.reset': '.idle',
        'observer.probeAgain': '.idle',
        'observer.pin': '.idle',
      },
      states: {
        idle: {
          description: 'No cut waits for the frames.',
          on: { 'observer.cut.sent': 'awaiting' },
        },
        awaiting: {
          description: 'A cut went out: waits for a frame that shows the target.',
          on: {
            'observer.cut.sent': { target: 'awaiting', reenter: true },
            'observer.camera.frame': { guard: 'showsTarget', target: 'following', actions: 'recordFollowed' },
          },
          after: {
            followTimeout: [
              {
                guard: 'isTargetDown',
                target: 'idle',
                actions: { type: 'recordOutcome', params: { outcome: 'target_died' } },
              },
              {
                guard: 'hasNextStrategy',
                target: 'idle',
                actions: [
                  { type: 'recordOutcome', params: { outcome: 'not_followed' } },
                  { type: 'sendCut', params: { force: true, retry: true } },
                ],
              },
              {
                guard: 'isLastStrategy',
                target: 'exhausted',
                actions: [{ type: 'recordOutcome', params: { outcome: 'not_followed' } }, 'giveUp'],
              },
              { target: 'idle', actions: { type: 'recordOutcome', params: { outcome: 'not_followed' } } },
            ],
          },
        },
        following: {
          description:
            'The frames show the target. If they show someone else while he lives, the camera was taken.',
          on: {
            'observer.cut.sent': 'awaiting',
            'observer.camera.frame': {
              guard: 'showsOtherWhileTargetAlive',
              target: 'movedAway',
              actions: 'recordMovedAway',
            },
          },
        },
        movedAway: {
          description:
            'The camera followed, then showed someone else while the target lived: the next cut is sent as usual.',
          on: { 'observer.cut.sent': 'awaiting' },
        },
        exhausted: {
          description:
            'No strategy moved the camera: auto only suggests (nothing more is sent) until the operator probes again, pins a strategy or makes a test cut.',
        },
      },
    },
  },
});

/** The player the frame shows (null: free camera). */
function shownOf(frame: DirectorFrame): string | null {
  if (frame.observedSlot === null) return null;
  return frame.players.find((player) => player.slot === frame.observedSlot)?.steamid ?? null;
}

/** The failed strategies once the cut waiting for the frames counts as not followed. */
function failedAfterThisCut(context: ObserverContext): CutStrategy[] {
  const { failed } = context.strategy;
  const sent = context.sentStrategy;
  return sent === null || failed.includes(sent) ? failed : [...failed, sent];
}

/** The last sent cut with its outcome. */
function withLastOutcome(
  cuts: CutRecord[],
  outcome: CutOutcome,
  followedAfterMs: number | null,
): CutRecord[] {
  let index = -1;
  for (let at = cuts.length - 1; at >= 0; at -= 1)
    if (cuts[at]?.sent) {
      index = at;
      break;
    }
  if (index === -1) return cuts;
  return cuts.map((cut, at) => (at === index ? { ...cut, outcome, followedAfterMs } : cut));
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
    strategy: null,
    outcome: null,
    followedAfterMs: null,
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
  camera: CameraStatus;
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
    camera: cameraOf(snapshot),
    link: linkOf(snapshot),
  };
}

/** How the observer moves the camera, and whether it does, as the operator reads it. */
export interface CameraStatus {
  /** The strategy the next cut uses (null: none can be tried, or no cut yet in this dialect). */
  strategy: CutStrategy | null;
  /** How it was chosen: pinned by the operator, proven by the frames this game session, or being probed. */
  source: 'pinned' | 'proven' | 'probing';
  /** Every strategy was tried and none moved the camera: auto only suggests until a probe. */
  exhausted: boolean;
  /** The whole story in one sentence. */
  text: string;
}

function cameraOf(snapshot: ObserverSnapshot): CameraStatus {
  const { context } = snapshot;
  const { pinned, working, failed, exhausted } = context.strategy;
  const strategy = pinned ?? working ?? nextUntried(context.dialect, failed);
  const source = pinned ? 'pinned' : working ? 'proven' : 'probing';
  return { strategy, source, exhausted, text: cameraText(context, strategy, source, exhausted) };
}

function cameraText(
  context: ObserverContext,
  strategy: CutStrategy | null,
  source: CameraStatus['source'],
  exhausted: boolean,
): string {
  const order = STRATEGY_ORDER[context.dialect];
  if (exhausted)
    return `The game did not follow any cut (${order.map((each) => STRATEGY_TEXT[each]).join('; ')}): auto only suggests now. Press the number key, or probe again.`;
  const cut = [...context.cuts].reverse().find((each) => each.sent);
  const how = strategy ? STRATEGY_TEXT[strategy] : 'no strategy';
  if (!cut || context.follow === null)
    return source === 'probing'
      ? `No cut judged yet: the next one tries ${how}.`
      : `No cut judged yet: the next one uses ${how} (${source}).`;
  const sentHow = cut.strategy ? STRATEGY_TEXT[cut.strategy] : how;
  switch (context.follow) {
    case 'pending':
      return `Cut to ${cut.name} ${sentHow}: waiting for the game to show him.`;
    case 'following':
      return cut.outcome === 'followed'
        ? `The camera follows: ${cut.name} shown ${cut.followedAfterMs ?? 0} ms after the cut (${sentHow}).`
        : `The game already showed ${cut.name} when the cut went out (${sentHow}): nothing proven yet.`;
    case 'moved_away': {
      const shown =
        context.director.suggestion && context.shownSteamid ? nameOf(context, context.shownSteamid) : null;
      return `The camera left ${cut.name} for ${shown ?? 'another view'} while he was alive: the game or the person at the observer PC moved it.`;
    }
    case 'ignored':
      return `The game did not show ${cut.name} within ${FOLLOW_TIMEOUT_MS / 1000} s of the cut (${sentHow}).`;
  }
}

function nameOf(context: ObserverContext, steamid: string): string | null {
  return context.cuts.find((cut) => cut.steamid === steamid)?.name ?? null;
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
