/**
 * Ready before going live (issue 32): the launch options the observer PC's CS2 needs for the
 * observer's console link, and, when the link fails, which one is probably missing, in words. Pure;
 * shown in GET /api/observer (`launch`) and the Observer view. docs/observer.md "Starting CS2 with the
 * console" has the sources.
 */
import type { LinkReason } from '../../machines/observer.machine.ts';

export interface LaunchAdvice {
  /** The exact launch options to paste into Steam (Counter-Strike 2 > Properties > Launch options). */
  options: string;
  /** The option the failure points at, or null when the failure does not point at one. */
  missing: string | null;
  /** What to do, in words (null while nothing is wrong). */
  advice: string | null;
}

/**
 * `-netconport <port>` opens the console; on Windows the port opens only with `-tools` (the Workshop
 * Tools initialise networking first: ValveSoftware/csgo-osx-linux#3603). Both are given: `-tools` is
 * harmless on Linux. `-insecure` is reported needed by some (csgo-osx-linux#4102, the
 * cs2-observer-toolkit README) but keeps the game off VAC-secured servers, so it is advice for a link
 * still refused with both, not part of the options.
 */
export function launchAdviceOf(
  host: string,
  port: number,
  address: string,
  reason: LinkReason | null,
): LaunchAdvice {
  const options = `-netconport ${port} -tools`;
  switch (reason) {
    case 'refused':
      return {
        options,
        missing: `-netconport ${port}`,
        advice: `Nothing listens on ${address}: CS2 there is not running, or was started without -netconport ${port} (on Windows also -tools, without which the port does not open). Paste the launch options, restart CS2; if it is still refused with both, add -insecure (reported needed by some; the game then cannot join VAC-secured servers).`,
      };
    case 'timeout':
      return {
        options,
        missing: null,
        advice: `${host} does not answer on port ${port}: its firewall probably drops the port. Allow TCP ${port} in for cs2.exe on that PC, or check that it is on.`,
      };
    case 'unreachable':
      return {
        options,
        missing: null,
        advice: `${host} cannot be reached: check the observer PC's IP address and that both PCs are on the same network.`,
      };
    default:
      return { options, missing: null, advice: null };
  }
}
