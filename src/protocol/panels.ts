/** The HUD panels as the wire names them: declared once beside the panel machine (machines/panels.ts). */
export type { Panel, PanelDeclaration, PanelId, PanelStateKey } from '../../machines/panels.ts';
export { PANELS } from '../../machines/panels.ts';
