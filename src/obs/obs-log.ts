import type { Logger } from 'pino';
import type { ObsConnectionSnapshot, ObsReason } from '../../machines/obs-connection.machine.ts';
import { obsStatusOf } from '../../machines/obs-connection.machine.ts';

/** What each reason means for the operator, and what to do about it. */
const EXPLAINED: Record<ObsReason, string> = {
  switched_off: 'OBS connection switched off',
  refused:
    'OBS is not connected: nothing accepted the connection there (is OBS running, with Tools > WebSocket Server Settings > Enable on?); retrying',
  auth_failed:
    'OBS is not connected: OBS refused the password (see Tools > WebSocket Server Settings); trying again every minute or when the settings change',
  unreachable:
    'OBS is not connected: the address cannot be reached (unknown host, no route, no answer); retrying',
  bad_url:
    'OBS is not connected: the address is not a WebSocket URL; write it as ws://host:port, e.g. ws://127.0.0.1:4455',
  closed: 'OBS is not connected: the connection ended; retrying',
};

/** What the log follows: connected, or the reason it is not (null while nothing is known yet). */
const stateOf = (snapshot: ObsConnectionSnapshot): ObsReason | 'connected' | null => {
  const { connection, reason } = obsStatusOf(snapshot);
  return connection === 'connected' ? 'connected' : reason;
};

/** What the log reads: the OBS actor, or the service's view of it that follows it across restarts. */
export interface ObsSnapshots {
  getSnapshot(): ObsConnectionSnapshot;
  subscribe(listener: (snapshot: ObsConnectionSnapshot) => void): { unsubscribe(): void };
}

/**
 * Logs each change of the OBS connection once: connected, or a new reason it is not. Tries that fail
 * the same way as the one before say nothing, however many there are. Returns the unsubscribe.
 */
export function logObsConnection(actor: ObsSnapshots, logger: Logger): () => void {
  let logged: ReturnType<typeof stateOf> = null;
  const follow = (snapshot: ObsConnectionSnapshot) => {
    const state = stateOf(snapshot);
    if (state === logged) return;
    logged = state;
    const { settings, lastError } = snapshot.context;
    if (state === 'connected') {
      logger.info({ obs: { url: settings.url } }, 'OBS connected');
    } else if (state === 'switched_off') {
      logger.info(EXPLAINED.switched_off);
    } else if (state !== null) {
      const detail = lastError ? { code: lastError.code, detail: lastError.reason } : {};
      logger.warn({ obs: { url: settings.url, reason: state, ...detail } }, EXPLAINED[state]);
    }
  };
  follow(actor.getSnapshot());
  const subscription = actor.subscribe(follow);
  return () => subscription.unsubscribe();
}
