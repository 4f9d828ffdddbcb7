/**
 * The HUD panels, declared once: each is a panel actor under the supervisor, and the commands
 * (toggle_/show_/hide_<command>), the HUD-state flag, the overlay's report, the saved state, the
 * operator app's switches and the overlay's `data-panel` hook derive from its entry. Adding a panel
 * is one entry here and its drawing on the overlay page (test/core/roster.test.ts proves it).
 */
export interface PanelDeclaration {
  /** The actor's key (the saved state's and the code's name for the panel). */
  id: string;
  /** Its systemId under the supervisor. */
  systemId: `panel.${string}`;
  /** The word in toggle_*, show_* and hide_*. */
  command: string;
  /** Its flag in the HUD state; the overlay reports it under the same name. */
  stateKey: `${string}Visible` | 'hudWindowOpen';
  /** What the panel is, in a sentence, for the commands' descriptions. */
  label: string;
  /** Its short name on the operator app's switch. */
  name: string;
  /** The game's default hotkey, where the panel has one. */
  hotkey?: string;
  /** `data-panel` of the overlay page, where the panel is drawn there. */
  hook?: string;
  /**
   * The overlay reports the panel shown, not hidden, when it opens and nothing has told its state
   * yet (a new installation): for a panel that belongs on air unless a crew switches it off.
   */
  startsShown?: boolean;
}

export const PANELS = [
  {
    id: 'scoreboard',
    systemId: 'panel.scoreboard',
    command: 'scoreboard',
    stateKey: 'scoreboardVisible',
    label: 'the scoreboard',
    name: 'Scoreboard',
    hotkey: 'F9',
    hook: 'scoreboard',
  },
  {
    id: 'vetoPanel',
    systemId: 'panel.veto',
    command: 'veto',
    stateKey: 'vetoVisible',
    label: 'the veto panel',
    name: 'Veto panel',
    hotkey: 'F7',
    hook: 'veto',
  },
  {
    id: 'stats',
    systemId: 'panel.stats',
    command: 'stats',
    stateKey: 'statsVisible',
    label: 'the stats of the player set in the application',
    name: 'Player stats',
    hook: 'stats',
  },
  {
    // Shown from the start: the game's own radar goes with its HUD (cl_draw_only_deathnotices 1,
    // which the player boxes need too); crews that keep the game's radar switch this one off.
    id: 'radar',
    systemId: 'panel.radar',
    command: 'radar',
    stateKey: 'radarVisible',
    label: 'the radar',
    name: 'Radar',
    hook: 'radar',
    startsShown: true,
  },
  {
    id: 'overlay',
    systemId: 'panel.overlay',
    command: 'overlay',
    stateKey: 'hudWindowOpen',
    label: 'the HUD overlay window',
    name: 'HUD overlay window',
  },
] as const satisfies readonly PanelDeclaration[];

export type Panel = (typeof PANELS)[number] & PanelDeclaration;
export type PanelId = Panel['id'];
export type PanelStateKey = Panel['stateKey'];
export const PANEL_IDS = PANELS.map((panel) => panel.id) as readonly PanelId[];
