/**
 * What a connection's credential allows, decided by the access checks from what it presents, never
 * from what it says it is (`?role=`): `full` runs commands (a signed-in session, the access token, a
 * program on this machine); `view` only reads the state and the game, plus the HUD overlay's report
 * of what it shows (the view key, or a page in OBS on this machine without a session).
 */
export type Grant = 'full' | 'view';
