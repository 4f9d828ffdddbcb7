/**
 * The words of the machines' vocabulary that the wire schemas share: plain constants with no
 * xstate import, so that the browser-safe protocol module (and the pages) can use them without
 * bundling the machines.
 */

export const TEAM_FORMATS = ['auto', '1v1', '2v2', '3v3', '5v5'] as const;
export type TeamFormat = (typeof TEAM_FORMATS)[number];

/** Where player stats come from: two third-party providers and the game's own data. */
export const STATS_PROVIDERS = ['platform_a', 'platform_b', 'live'] as const;
export type StatsProvider = (typeof STATS_PROVIDERS)[number];

export const POSITIONS = [
  'top-left',
  'top-center',
  'top-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
] as const;
export type Position = (typeof POSITIONS)[number];
export const OBSERVER_MODES = ['auto', 'suggest'] as const;
export type ObserverMode = (typeof OBSERVER_MODES)[number];

export const SCENES = ['versus', 'talents', 'sponsors', 'mapRecap'] as const;
export type Scene = (typeof SCENES)[number];

/**
 * Why OBS is not connected, as the HUD state shows it: switched off in the settings, or what the
 * last try met. `closed` is every other end (OBS quit, the socket failed).
 */
export const OBS_REASONS = [
  'switched_off',
  'refused',
  'auth_failed',
  'unreachable',
  'bad_url',
  'closed',
] as const;
export type ObsReason = (typeof OBS_REASONS)[number];

/** How many changes of the match and the veto the undo history keeps each way (machines/history.machine.ts). */
export const HISTORY_BOUND = 20;
