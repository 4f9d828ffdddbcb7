import type { PanelId } from '../../machines/system-ids.ts';

/** One HUD panel as every part of the service names it. */
export interface PanelDeclaration {
  /** The panel actor (machines/system-ids.ts). */
  id: PanelId;
  /** The word in toggle_*, show_* and hide_*. */
  command: string;
  /** Its flag in the HUD state; the overlay reports it under the same name. */
  stateKey: 'scoreboardVisible' | 'vetoVisible' | 'statsVisible' | 'hudWindowOpen';
  /** What the panel is, for descriptions and the operator app. */
  label: string;
  /** The game's default hotkey, where the panel has one. */
  hotkey?: string;
  /** `data-panel` of the overlay page, where the panel is drawn there. */
  hook?: string;
}

/**
 * The HUD panels, declared once: the commands, the overlay report, the HUD-state view, the saved
 * state and the pages derive from this list.
 */
export const PANELS = [
  {
    id: 'scoreboard',
    command: 'scoreboard',
    stateKey: 'scoreboardVisible',
    label: 'the scoreboard',
    hotkey: 'F9',
    hook: 'scoreboard',
  },
  {
    id: 'vetoPanel',
    command: 'veto',
    stateKey: 'vetoVisible',
    label: 'the veto panel',
    hotkey: 'F7',
    hook: 'veto',
  },
  {
    id: 'stats',
    command: 'stats',
    stateKey: 'statsVisible',
    label: 'the stats of the player set in the application',
    hook: 'stats',
  },
  { id: 'overlay', command: 'overlay', stateKey: 'hudWindowOpen', label: 'the HUD overlay window' },
] as const satisfies readonly PanelDeclaration[];

export type PanelStateKey = (typeof PANELS)[number]['stateKey'];
