/**
 * The panels' hotkeys in the operator app: F9 toggles the scoreboard, F7 the veto panel (`hotkey` of
 * PANELS in machines/panels.ts, the spec's defaults). Pressed anywhere in the signed-in app, a key
 * runs the same `toggle_*` command as the panel's switch, over the same WebSocket, and says what it
 * did. The app shows these keys beside the switches, so a shown key is a key that works here; they
 * act only while the app has the keyboard focus (a browser page cannot take keys from the game).
 */
import { signal } from '@preact/signals';
import type { Panel } from '../../protocol/index.ts';
import { PANELS } from '../../protocol/index.ts';
import { trigger } from './session.ts';

/** The command a panel's switch and its hotkey run. */
export const toggleAction = (panel: Panel) => `toggle_${panel.command}` as const;

/** What the last hotkey did, for the app to show (role status, or alert when refused). */
export interface HotkeyOutcome {
  key: string;
  panel: Panel['id'];
  ok: boolean;
  text: string;
  at: number;
}
export const lastHotkey = signal<HotkeyOutcome | null>(null);

const BY_KEY: ReadonlyMap<string, Panel> = new Map(
  PANELS.flatMap((panel: Panel) => (panel.hotkey ? [[panel.hotkey, panel] as const] : [])),
);

/** The keydown listener of the signed-in app. */
export function onHotkey(event: KeyboardEvent): void {
  const panel = BY_KEY.get(event.key);
  if (!panel?.hotkey || event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
  // The key is ours from here: Chromium's own F7 (caret browsing) must not answer it too.
  event.preventDefault();
  // A held key repeats: one toggle per press, or the panel would flicker on air.
  if (event.repeat) return;
  // A confirmation (reset the veto, regenerate the token) has the operator's attention.
  if (document.querySelector('dialog[open]')) return;
  const key = panel.hotkey;
  void trigger(toggleAction(panel)).then((result) => {
    const visible = result.ok ? result.state[panel.stateKey] : undefined;
    lastHotkey.value = {
      key,
      panel: panel.id,
      ok: result.ok,
      text: !result.ok
        ? `${panel.name} not toggled: ${result.message}`
        : visible === undefined
          ? `${panel.name} toggled`
          : `${panel.name} ${visible ? 'shown' : 'hidden'}`,
      at: Date.now(),
    };
  });
}
