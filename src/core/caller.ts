/**
 * Who sends a command: every transport names its caller, and the dispatcher alone decides what a
 * caller may run (docs/architecture.md). Who may connect at all is the access layer's (src/access/).
 */
export type Role =
  /** A program on the automation server: Stream Deck, Companion, a script (loopback, or LAN with the token). */
  | 'program'
  /** A signed-in operator app page, or the panel API on the application server. */
  | 'operator'
  /** A HUD overlay page: it shows the HUD and reports what it shows. */
  | 'overlay'
  /** A scene page: it only shows. */
  | 'scene'
  /**
   * A connection whose credential only reads (the view key, or a page in OBS on this machine without
   * a session), whatever role it names other than overlay: it runs nothing (docs/access.md).
   */
  | 'viewer'
  /** The application around the service on this machine (/internal/* of the automation server). */
  | 'shell';

export interface Caller {
  /** Which server and channel: the automation server's HTTP or WebSocket, or the application server. */
  transport: 'http' | 'ws' | 'app';
  /** The peer's address, as the recent-requests list shows it. */
  address: string;
  role: Role;
}

/** Who may run a command, and what a caller who may not hears. */
export interface Callers {
  roles: ReadonlySet<Role>;
  refusal(role: Role): string;
}

/** The public commands: programs and the operator app; the pages that only show are refused. */
export const PUBLIC_CALLERS: Callers = {
  roles: new Set(['program', 'operator', 'shell']),
  refusal: (role) =>
    role === 'viewer'
      ? 'this connection only reads (the view key, or a page without a session): send commands from the operator app or with the access token'
      : `a ${role} page only shows the HUD: send commands from the operator app or the automation server`,
};
