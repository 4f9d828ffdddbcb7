/**
 * What a connection's credential allows, decided by the access checks from what it presents, never
 * from what it says it is (`?role=`). Which commands and reports each grant reaches is decided in one
 * place, `roleOf` (src/ws/ws-messages.ts), and the dispatcher's callers check (docs/access.md).
 */
export type Grant =
  /** Runs commands: a signed-in session, the access token, a program on this machine (no Origin). */
  | 'full'
  /**
   * Reads, and as the HUD overlay (`?role=overlay`) reports what it shows: a page of this server in a
   * browser on this machine without a session (OBS's browser sources), which nothing else can be.
   */
  | 'report'
  /** Only reads, whatever role it names: the view key, from this machine or the local network. */
  | 'view';
