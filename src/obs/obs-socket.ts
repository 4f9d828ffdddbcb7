import { EventSubscription, OBSWebSocket, OBSWebSocketError } from 'obs-websocket-js';
import { fromCallback } from 'xstate';
import {
  backoffDelay,
  OBS_AUTH_FAILED_CLOSE_CODE,
  type ObsFailure,
  type ObsSocketCommand,
  type ObsSocketEvent,
  type ObsSocketInput,
  obsConnectionMachine,
} from '../../machines/obs-connection.machine.ts';

/** obs-websocket request status codes worth a sentence (obs-websocket `RequestStatus`). */
const SAVE_REFUSALS: Record<number, string> = {
  501: 'the replay buffer is not running',
};

/**
 * One try at OBS and, if it succeeds, the whole connection: the machine starts a new one for every
 * try, so this actor never retries by itself and reports exactly one `obs.socket.closed`.
 */
export const obsSocket = fromCallback<ObsSocketCommand, ObsSocketInput>(({ input, sendBack, receive }) => {
  const obs = new OBSWebSocket();
  let stopped = false;
  let closed = false;
  // Node's `ws` reports a refused connection as an error then a bare close 1006; the error says why.
  let lastErrorMessage = '';

  const report = (event: ObsSocketEvent) => {
    if (!stopped) sendBack(event);
  };
  const reportClosed = (code: number, text: string) => {
    if (closed) return;
    closed = true;
    const reason = text || lastErrorMessage;
    report({ type: 'obs.socket.closed', code, reason, failure: obsFailureOf(code, reason) });
  };

  obs.on('ConnectionError', (error) => {
    lastErrorMessage = error.message;
  });
  obs.on('ConnectionClosed', (error) => reportClosed(error.code, error.message));
  obs.on('ReplayBufferStateChanged', ({ outputActive }) =>
    report({ type: 'obs.replayBuffer.state', active: outputActive }),
  );
  // The clip is served to the pages only from inside the folder OBS records to, so ask for it with
  // every save (the operator can change it in OBS at any time).
  obs.on('ReplayBufferSaved', ({ savedReplayPath }) => {
    obs.call('GetRecordDirectory').then(
      ({ recordDirectory }) =>
        report({ type: 'obs.replay.saved', path: savedReplayPath, folder: recordDirectory }),
      (error: unknown) =>
        report({
          type: 'obs.replay.saveFailed',
          message: `OBS saved a clip but did not say where it records (${describeRefusal(error)})`,
        }),
    );
  });

  receive((command) => {
    switch (command.type) {
      case 'obs.replay.save':
        obs.call('SaveReplayBuffer').catch((error: unknown) => {
          report({ type: 'obs.replay.saveFailed', message: describeRefusal(error) });
        });
        return;
    }
  });

  void (async () => {
    try {
      await obs.connect(input.url, input.password, { eventSubscriptions: EventSubscription.Outputs });
    } catch (error) {
      // Usually ConnectionClosed has already reported this try (with OBS's close code, e.g. 4009);
      // this covers failures that never opened a socket, such as a malformed URL.
      reportClosed(error instanceof OBSWebSocketError ? error.code : -1, errorText(error));
      return;
    }
    report({ type: 'obs.socket.connected' });
    try {
      // OBS started with its buffer already running sends no state-change event: ask.
      const { outputActive } = await obs.call('GetReplayBufferStatus');
      report({ type: 'obs.replayBuffer.state', active: outputActive });
    } catch {
      // The replay buffer is not set up in this OBS profile, or the socket just closed (reported
      // by ConnectionClosed). Either way the buffer stays inactive in the machine.
    }
  })();

  return () => {
    stopped = true;
    obs.removeAllListeners();
    obs.disconnect().catch(() => {
      // Closing a socket that is already gone: nothing left to clean up.
    });
  };
});

/**
 * What a close means. obs-websocket-js passes on only the text of a socket error (Node's `ws` says
 * "connect ECONNREFUSED 127.0.0.1:4455"), and a URL `ws` cannot use fails before any socket with
 * its own sentence ("Invalid URL: …", "The URL's protocol must be one of …").
 */
export function obsFailureOf(code: number, reason: string): ObsFailure {
  if (code === OBS_AUTH_FAILED_CLOSE_CODE) return 'auth_failed';
  if (/\bECONNREFUSED\b|^Unexpected server response/.test(reason)) return 'refused';
  if (/\b(ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN|ETIMEDOUT)\b/.test(reason))
    return 'unreachable';
  if (/^Invalid URL\b|URL's protocol must be|\bERR_INVALID_URL\b/.test(reason)) return 'bad_url';
  return 'closed';
}

function describeRefusal(error: unknown): string {
  if (error instanceof OBSWebSocketError) {
    const known = SAVE_REFUSALS[error.code];
    const text = known ?? (error.message || 'no reason given');
    return `${text} (OBS code ${error.code})`;
  }
  return errorText(error);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Spreads retries by ±20 % so several services (or a service restarted with OBS) do not knock on
 * OBS in step. `random` is injectable for tests.
 */
export function jitteredRetryDelay(attempt: number, random: () => number = Math.random): number {
  return Math.round(backoffDelay(attempt) * (0.8 + 0.4 * random()));
}

/** The OBS connection machine wired to real OBS: the actor to run in the service. */
export const obsConnectionLive = obsConnectionMachine.provide({
  actors: { obsSocket },
  delays: { retryDelay: ({ context }) => jitteredRetryDelay(context.attempt) },
});
