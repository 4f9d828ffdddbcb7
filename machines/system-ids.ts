import type { Panel } from './panels.ts';
import { PANELS } from './panels.ts';

export type { PanelId } from './panels.ts';
export { PANEL_IDS } from './panels.ts';

/** The actors that are not panels, by key and systemId. */
const SUBSYSTEM_ID = {
  host: 'host',
  match: 'match',
  vetoSession: 'vetoSession',
  vetoReveal: 'vetoReveal',
  sceneWindow: 'sceneWindow',
  production: 'production',
  obs: 'obs',
  observer: 'observer',
  game: 'game',
  recorder: 'recorder',
  history: 'history',
} as const;

type PanelSystemIds = { [P in Panel as P['id']]: P['systemId'] };

/** The systemId of every actor under the supervisor: the only way code reaches an actor. */
export const SYSTEM_ID: typeof SUBSYSTEM_ID & PanelSystemIds = {
  ...SUBSYSTEM_ID,
  ...(Object.fromEntries(PANELS.map((panel) => [panel.id, panel.systemId])) as PanelSystemIds),
};

export type SubsystemKey = keyof typeof SUBSYSTEM_ID;
export const SUBSYSTEM_KEYS = Object.keys(SUBSYSTEM_ID) as SubsystemKey[];
