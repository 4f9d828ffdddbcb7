import {
  assign,
  emit,
  enqueueActions,
  fromCallback,
  not,
  or,
  type SnapshotFrom,
  sendTo,
  setup,
  stateIn,
} from 'xstate';
import type { ObsReason } from './vocabulary.ts';

export type { ObsReason } from './vocabulary.ts';

/** What the service needs to reach OBS's WebSocket server (OBS: Tools > WebSocket Server Settings). */
export interface ObsSettings {
  url: string;
  password: string;
  /** false switches the connection off: no socket, no retries, status `disconnected`. */
  enabled: boolean;
}

export const defaultObsSettings: ObsSettings = {
  url: 'ws://127.0.0.1:4455',
  password: '',
  enabled: true,
};

/** Waits between failed tries while OBS is away. The last step repeats for as long as it takes. */
export const OBS_BACKOFF_MS = [1_000, 2_000, 5_000, 10_000] as const;

/**
 * OBS closes the socket with 4009 when the password is wrong. Retrying on the normal back-off would
 * only fill OBS's log with failed logins, so after one the machine gives up and tries again slowly.
 */
export const OBS_AUTH_FAILED_CLOSE_CODE = 4009;
export const OBS_AUTH_RETRY_MS = 60_000;

/** A save that OBS neither confirms nor refuses within this bound is reported failed. */
export const OBS_SAVE_TIMEOUT_MS = 10_000;

/**
 * Delay before the next try after `attempt` consecutive failures (1 = the first failure). Pure: the
 * live machine adds jitter in src/ so that many clients do not retry in step.
 */
export function backoffDelay(attempt: number): number {
  const index = Math.min(Math.max(attempt, 1), OBS_BACKOFF_MS.length) - 1;
  return OBS_BACKOFF_MS[index] ?? OBS_BACKOFF_MS[3];
}

export interface ObsSocketInput {
  url: string;
  password: string;
}

/** How a try failed, as the socket actor reads it from the socket's errors. */
export type ObsFailure = Exclude<ObsReason, 'switched_off'>;

/** Commands the machine sends to the socket actor. */
export type ObsSocketCommand = { type: 'obs.replay.save' };

/** What the socket actor reports back (sendBack). */
export type ObsSocketEvent =
  | { type: 'obs.socket.connected' }
  /** Also sent when a try never got as far as a connection (refused, DNS, bad URL). */
  | { type: 'obs.socket.closed'; code: number; reason: string; failure: ObsFailure }
  | { type: 'obs.replayBuffer.state'; active: boolean }
  /** `folder`: where OBS says it records (GetRecordDirectory); only a clip inside it is served. */
  | { type: 'obs.replay.saved'; path: string; folder: string }
  | { type: 'obs.replay.saveFailed'; message: string };

export type ObsConnectionEvent =
  | ({ type: 'obs.configure' } & ObsSettings)
  | { type: 'obs.replay.save' }
  | ObsSocketEvent;

/** Emitted events (actor.on): the outcome of every `obs.replay.save`, and saves started in OBS itself. */
export type ObsConnectionEmitted =
  | { type: 'replay.saved'; path: string; folder: string }
  | { type: 'replay.failed'; message: string };

export interface ObsConnectionContext {
  settings: ObsSettings;
  /** Consecutive failed tries; capped at the back-off table's length, past which the delay stays put. */
  attempt: number;
  /** Why the last connection closed or the last try failed; null while connected. */
  lastError: ObsClose | null;
  /** A save was sent to OBS and has not been answered yet (see `abandonPendingSave`). */
  saveInFlight: boolean;
}

export type ObsConnectionStatus = 'connected' | 'connecting' | 'disconnected';

/** A close or failed try: the close code, the text the socket gave, and what it means. */
export interface ObsClose {
  code: number;
  reason: string;
  failure: ObsFailure;
}

export const obsConnectionMachine = setup({
  types: {
    context: {} as ObsConnectionContext,
    events: {} as ObsConnectionEvent,
    emitted: {} as ObsConnectionEmitted,
    input: {} as ObsSettings,
    // A state's tag is the status it shows, so obsStatusOf cannot drift from the diagram.
    tags: {} as ObsConnectionStatus,
  },
  actors: {
    // Placeholder: src/obs/obs-socket.ts provides the obs-websocket-js one.
    obsSocket: fromCallback<ObsSocketCommand, ObsSocketInput>(() => {}),
  },
  delays: {
    retryDelay: ({ context }) => backoffDelay(context.attempt),
    authRetryDelay: OBS_AUTH_RETRY_MS,
    saveTimeout: OBS_SAVE_TIMEOUT_MS,
  },
  guards: {
    isEnabled: ({ context }) => context.settings.enabled,
    isNewSettings: ({ context, event }) => {
      if (event.type !== 'obs.configure') return false;
      const { settings } = context;
      return (
        event.url !== settings.url ||
        event.password !== settings.password ||
        event.enabled !== settings.enabled
      );
    },
    isAuthFailure: ({ event }) => event.type === 'obs.socket.closed' && event.failure === 'auth_failed',
    isBufferActive: ({ event }) => event.type === 'obs.replayBuffer.state' && event.active,
  },
  actions: {
    storeSettings: assign((_, params: ObsSettings) => ({ settings: params, attempt: 0, lastError: null })),
    recordClose: assign((_, params: ObsClose) => ({ lastError: params })),
    recordSocketError: assign((_, params: { error: unknown }) => ({
      lastError: { code: -1, reason: errorText(params.error), failure: 'closed' as const },
    })),
    countFailure: assign({
      attempt: ({ context }) => Math.min(context.attempt + 1, OBS_BACKOFF_MS.length),
    }),
    markConnected: assign({ attempt: 0, lastError: null }),
    sendSaveToSocket: sendTo('obsSocket', { type: 'obs.replay.save' } satisfies ObsSocketCommand),
    markSaveInFlight: assign({ saveInFlight: true }),
    emitSaved: emit((_, params: { path: string; folder: string }) => ({
      type: 'replay.saved' as const,
      path: params.path,
      folder: params.folder,
    })),
    completeSave: assign({ saveInFlight: false }),
    emitRefused: emit((_, params: { message: string }) => ({
      type: 'replay.failed' as const,
      message: `OBS refused to save the replay: ${params.message}`,
    })),
    emitTimedOut: emit({
      type: 'replay.failed',
      message: `OBS did not report the saved replay within ${OBS_SAVE_TIMEOUT_MS / 1000} s`,
    }),
    emitNotConnected: emit({ type: 'replay.failed', message: 'OBS is not connected' }),
    // Runs on leaving `connected` for any reason (socket closed, settings changed), so a save in
    // flight is answered instead of being left hanging.
    abandonPendingSave: enqueueActions(({ context, enqueue }) => {
      if (!context.saveInFlight) return;
      enqueue.assign({ saveInFlight: false });
      enqueue.emit({
        type: 'replay.failed',
        message: 'The connection to OBS ended before the replay was saved',
      });
    }),
  },
}).createMachine({
  id: 'obsConnection',
  description: 'The connection to OBS Studio over obs-websocket 5: reconnects by itself and saves replays.',
  context: ({ input }) => ({
    settings: { url: input.url, password: input.password, enabled: input.enabled },
    attempt: 0,
    lastError: null,
    saveInFlight: false,
  }),
  initial: 'applyingSettings',
  on: {
    'obs.configure': {
      // Re-sending the same settings keeps a working connection, but counts as "try now" after a
      // failed login (the user may just have fixed the password in OBS).
      guard: or(['isNewSettings', stateIn('#obsConnection.authFailed')]),
      target: '.applyingSettings',
      actions: {
        type: 'storeSettings',
        params: ({ event }) => ({ url: event.url, password: event.password, enabled: event.enabled }),
      },
    },
    'obs.replay.save': { actions: 'emitNotConnected' },
  },
  states: {
    applyingSettings: {
      description: 'Chooses between connecting and staying off, at start-up and after every obs.configure.',
      always: [{ guard: 'isEnabled', target: 'session' }, { target: 'switchedOff' }],
    },
    switchedOff: {
      tags: 'disconnected',
      description: 'The OBS connection is switched off in the settings: no socket, no retries.',
    },
    backoff: {
      tags: 'connecting',
      description:
        'OBS is away: waits 1, 2, 5, then every 10 s (jittered) before the next try. Shows "connecting", like the try itself, so failed tries do not change the visible status.',
      after: { retryDelay: { target: 'session.opening' } },
    },
    authFailed: {
      tags: 'disconnected',
      description:
        'OBS refused the password (close 4009): the connection has given up and reports why. Tries again only after a new obs.configure or every 60 s, quietly.',
      after: { authRetryDelay: { target: 'session.probing' } },
    },
    session: {
      description:
        'A socket to OBS is opening or open: the obsSocket actor lives exactly as long as this state.',
      invoke: {
        id: 'obsSocket',
        src: 'obsSocket',
        input: ({ context }) => ({ url: context.settings.url, password: context.settings.password }),
        onError: {
          target: 'backoff',
          actions: [
            { type: 'recordSocketError', params: ({ event }) => ({ error: event.error }) },
            'countFailure',
          ],
        },
      },
      initial: 'opening',
      on: {
        'obs.socket.closed': [
          { guard: 'isAuthFailure', target: 'authFailed', actions: { type: 'recordClose', params: closeOf } },
          { target: 'backoff', actions: [{ type: 'recordClose', params: closeOf }, 'countFailure'] },
        ],
      },
      states: {
        opening: {
          tags: 'connecting',
          description: 'Connecting and logging in to OBS.',
          on: { 'obs.socket.connected': 'connected' },
        },
        probing: {
          tags: 'disconnected',
          description:
            'The slow retry after a failed login. Still shows "disconnected", so a probe that fails again changes nothing visible.',
          on: {
            'obs.socket.connected': 'connected',
            // Keeps the login failure as the reason even if OBS is now simply away.
            'obs.socket.closed': { target: '#obsConnection.authFailed' },
          },
        },
        connected: {
          tags: 'connected',
          description:
            'Logged in to OBS and following its replay buffer (the socket asks for its status after every connect, since OBS sends no event for a buffer already running).',
          type: 'parallel',
          entry: 'markConnected',
          exit: 'abandonPendingSave',
          states: {
            replayBuffer: {
              initial: 'inactive',
              states: {
                inactive: {
                  description: 'The replay buffer is stopped in OBS (or its status is not known yet).',
                  on: { 'obs.replayBuffer.state': { guard: 'isBufferActive', target: 'active' } },
                },
                active: {
                  description: 'The replay buffer is recording in OBS: a save can succeed.',
                  on: { 'obs.replayBuffer.state': { guard: not('isBufferActive'), target: 'inactive' } },
                },
              },
            },
            replaySave: {
              initial: 'idle',
              states: {
                idle: {
                  on: {
                    'obs.replay.save': {
                      target: 'saving',
                      actions: ['markSaveInFlight', 'sendSaveToSocket'],
                    },
                    // A save started in OBS itself (hotkey, button) or one that arrives after its timeout.
                    'obs.replay.saved': { actions: { type: 'emitSaved', params: clipOf } },
                  },
                },
                saving: {
                  description:
                    'SaveReplayBuffer was sent; waits for ReplayBufferSaved, a refusal, or 10 s. A second save meanwhile joins this one.',
                  after: { saveTimeout: { target: 'idle', actions: ['completeSave', 'emitTimedOut'] } },
                  on: {
                    'obs.replay.save': { description: 'Joins the save in flight: one answer for both.' },
                    'obs.replay.saved': {
                      target: 'idle',
                      actions: ['completeSave', { type: 'emitSaved', params: clipOf }],
                    },
                    'obs.replay.saveFailed': {
                      target: 'idle',
                      actions: [
                        'completeSave',
                        { type: 'emitRefused', params: ({ event }) => ({ message: event.message }) },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});

function closeOf({ event }: { event: ObsClose }): ObsClose {
  return { code: event.code, reason: event.reason, failure: event.failure };
}

function clipOf({ event }: { event: { path: string; folder: string } }) {
  return { path: event.path, folder: event.folder };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type ObsConnectionSnapshot = SnapshotFrom<typeof obsConnectionMachine>;

/** The part of the HUD state this machine owns. Compare it, not the snapshot: retries change the snapshot. */
export function obsStatusOf(snapshot: ObsConnectionSnapshot): {
  connection: ObsConnectionStatus;
  replayBufferActive: boolean;
  reason: ObsReason | null;
} {
  return {
    connection: statusOf(snapshot),
    replayBufferActive: snapshot.matches({ session: { connected: { replayBuffer: 'active' } } }),
    reason: obsReasonOf(snapshot),
  };
}

/** Why OBS is not connected; null while connected and before the first try has failed. */
function obsReasonOf(snapshot: ObsConnectionSnapshot): ObsReason | null {
  if (snapshot.hasTag('connected')) return null;
  if (snapshot.matches('switchedOff')) return 'switched_off';
  return snapshot.context.lastError?.failure ?? null;
}

function statusOf(snapshot: ObsConnectionSnapshot): ObsConnectionStatus {
  if (snapshot.hasTag('connected')) return 'connected';
  if (snapshot.hasTag('connecting')) return 'connecting';
  return 'disconnected';
}

/** Whether save_replay can go ahead: not_connected answers 503, buffer_inactive 409. */
export function canSaveReplay(snapshot: ObsConnectionSnapshot): 'ok' | 'not_connected' | 'buffer_inactive' {
  if (!snapshot.hasTag('connected')) return 'not_connected';
  return obsStatusOf(snapshot).replayBufferActive ? 'ok' : 'buffer_inactive';
}
