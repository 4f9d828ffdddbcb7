/**
 * The on-air switches and their keys in the operator app (src/protocol/hotkeys.ts declares the
 * switches; the settings' `hotkeys` say each one's key, F9 for the scoreboard and F7 for the veto
 * panel until the operator sets others on the Live page). A switch's button and its key run the
 * same command over the same WebSocket, and the key says what it did. The app shows the keys on the
 * buttons, so a shown key is a key that works here; they act only while the app has the keyboard
 * focus (a browser page cannot take keys from the game).
 */
import { computed, signal } from '@preact/signals';
import type { LiveSwitch, Panel } from '../../protocol/index.ts';
import { DEFAULT_HOTKEYS, hotkeyOf, LIVE_SWITCHES, PANELS } from '../../protocol/index.ts';
import { panelStatus, production, state } from '../common/store.ts';
import { trigger } from './session.ts';

/** The command a panel's switch runs. */
export const toggleAction = (panel: Panel) => `toggle_${panel.command}` as const;

/** Every switch's key as the server keeps it (the defaults until the status has arrived). */
export const hotkeys = computed(() => panelStatus.value?.settings.hotkeys ?? DEFAULT_HOTKEYS);

/** The key of a switch, or null. */
export const keyOfSwitch = (id: string): string | null => hotkeys.value[id] ?? null;

/** Whether a switch is on air now: undefined where the state is not known (the overlay never reported). */
export function switchOn(entry: LiveSwitch): boolean | undefined {
  const hud = state.value;
  const { does } = entry;
  switch (does.kind) {
    case 'panel': {
      const panel = PANELS.find((candidate) => candidate.command === does.panel);
      return panel && hud ? hud[panel.stateKey] : undefined;
    }
    case 'overlay':
      return production.value?.[does.setting].enabled;
    case 'scene':
      return hud ? hud.senScene === does.scene : undefined;
    case 'cleanFeed':
      return production.value ? production.value.cleanFeed !== null : undefined;
    default:
      return undefined;
  }
}

/** What a switch did, or why not, in the operator's words. */
export interface SwitchOutcome {
  ok: boolean;
  text: string;
}

const onOff = (on: boolean | undefined, name: string) =>
  on === undefined ? `${name} toggled` : `${name} ${on ? 'on air' : 'off the air'}`;

/** Runs a switch: the command its button and its key run. */
export async function runSwitch(entry: LiveSwitch): Promise<SwitchOutcome> {
  const { does, name } = entry;
  const verb = does.kind === 'panel' || does.kind === 'overlay' || does.kind === 'scene' ? 'toggled' : 'done';
  const refused = (message: string) => ({ ok: false, text: `${name} not ${verb}: ${message}` });
  switch (does.kind) {
    case 'panel': {
      const panel = PANELS.find((candidate) => candidate.command === does.panel);
      if (!panel) return refused('no such panel');
      const answer = await trigger(toggleAction(panel));
      if (!answer.ok) return refused(answer.message);
      const visible = answer.state[panel.stateKey];
      return {
        ok: true,
        text: visible === undefined ? `${name} toggled` : `${name} ${visible ? 'shown' : 'hidden'}`,
      };
    }
    case 'overlay': {
      const enabled = production.value?.[does.setting].enabled !== true;
      const answer =
        does.setting === 'sponsorOverlay'
          ? await trigger('set_sponsor_overlay', { enabled })
          : await trigger('set_event_badge', { enabled });
      return answer.ok ? { ok: true, text: onOff(answer.result.enabled, name) } : refused(answer.message);
    }
    case 'scene': {
      const shown = state.value?.senScene === does.scene;
      const answer = shown
        ? await trigger('hide_sen_scene')
        : await trigger('show_sen_scene', { scene: does.scene });
      return answer.ok ? { ok: true, text: onOff(!shown, name) } : refused(answer.message);
    }
    case 'revealNext': {
      const answer = await trigger('veto_reveal', { mode: 'next' });
      return answer.ok
        ? { ok: true, text: `Veto: ${answer.result.revealed} of ${answer.result.total} steps on air` }
        : refused(answer.message);
    }
    case 'cleanFeed': {
      const answer = await trigger('clean_feed');
      return answer.ok
        ? { ok: true, text: 'Clean feed: everything is off the air' }
        : refused(answer.message);
    }
    case 'restoreFeed': {
      const answer = await trigger('restore_feed');
      return answer.ok ? { ok: true, text: 'Feed restored' } : refused(answer.message);
    }
  }
}

/** What the last hotkey did, for the app to show (role status, or alert when refused). */
export interface HotkeyOutcome extends SwitchOutcome {
  key: string;
  switchId: string;
  at: number;
}
export const lastHotkey = signal<HotkeyOutcome | null>(null);

/** A field the operator types in: a letter or digit key there is text, not a switch. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLInputElement)
    return !['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset'].includes(
      target.type,
    );
  return target instanceof HTMLSelectElement;
}

/** The keydown listener of the signed-in app. */
export function onHotkey(event: KeyboardEvent): void {
  if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
  const key = hotkeyOf(event.key);
  if (!key) return;
  const entry = LIVE_SWITCHES.find((candidate) => keyOfSwitch(candidate.id) === key);
  if (!entry) return;
  // A letter or a digit in a text field is the operator typing.
  if (key.length === 1 && isTyping(event.target)) return;
  // The key is ours from here: Chromium's own F7 (caret browsing) must not answer it too.
  event.preventDefault();
  // A held key repeats: one press, one switch, or a panel would flicker on air.
  if (event.repeat) return;
  // A confirmation (reset the veto, regenerate the token) has the operator's attention.
  if (document.querySelector('dialog[open]')) return;
  void runSwitch(entry).then((outcome) => {
    lastHotkey.value = { ...outcome, key, switchId: entry.id, at: Date.now() };
  });
}
