/**
 * Who sends a command: every transport names its caller, and the dispatcher alone decides what a
 * caller may run (docs/architecture.md). Who may connect at all is the access layer's (src/access/).
 */
export type Role =
  /** A program on the automation server: Stream Deck, Companion, a script (loopback, or LAN with the token). */
  | 'program'
  /** A signed-in operator app page, or the panel API on the application server. */
  | 'operator'
  /**
   * A HUD overlay page whose credential may report what it shows (a page in OBS on this machine, a
   * session, the access token): it shows the HUD and reports what it shows, nothing else.
   */
  | 'overlay'
  /** A scene page: it only shows. */
  | 'scene'
  /**
   * A connection that only reads: the view key whatever role it names, or a page in a browser on this
   * machine without a session that is not the HUD overlay. It runs nothing, not even a report
   * (docs/access.md).
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

/** What a connection that only reads hears for anything that would change the state. */
export const VIEWER_REFUSAL =
  'this connection only reads (the view key, or a page without a session): send commands from the operator app or with the access token';

/** The public commands: programs and the operator app; the pages that only show are refused. */
export const PUBLIC_CALLERS: Callers = {
  roles: new Set(['program', 'operator', 'shell']),
  refusal: (role) =>
    role === 'viewer'
      ? VIEWER_REFUSAL
      : `a ${role} page only shows the HUD: send commands from the operator app or the automation server`,
};
