/** The systemId of every actor under the supervisor: the only way code reaches an actor. */
export const SYSTEM_ID = {
  host: 'host',
  match: 'match',
  vetoSession: 'vetoSession',
  vetoReveal: 'vetoReveal',
  sceneWindow: 'sceneWindow',
  scoreboard: 'panel.scoreboard',
  vetoPanel: 'panel.veto',
  stats: 'panel.stats',
  overlay: 'panel.overlay',
  production: 'production',
  obs: 'obs',
} as const;

export const PANEL_IDS = ['scoreboard', 'vetoPanel', 'stats', 'overlay'] as const;
export type PanelId = (typeof PANEL_IDS)[number];
