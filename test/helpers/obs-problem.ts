import type { ObsConnectionSnapshot } from '../../machines/obs-connection.machine.ts';

/** Why OBS is not connected, in words, from the machine's last error (a failed login, a refused connection); null when fine. */
export function obsProblemOf(snapshot: ObsConnectionSnapshot): string | null {
  if (snapshot.hasTag('connected') || snapshot.matches('switchedOff')) return null;
  const { lastError } = snapshot.context;
  if (!lastError) return null;
  if (lastError.failure === 'auth_failed')
    return `OBS refused the password (${lastError.reason || 'close 4009'})`;
  return lastError.reason
    ? `${lastError.reason} (code ${lastError.code})`
    : `connection closed (code ${lastError.code})`;
}
