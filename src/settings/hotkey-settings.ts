/**
 * The keys of the Live page's on-air switches in the settings (`hotkeys`): one key, one switch. A
 * change that gives a switch a key another switch has is refused in words, and nothing is saved.
 */
import { conflict } from '../protocol/errors.ts';
import { hotkeyConflict } from '../protocol/hotkeys.ts';
import type { Settings, SettingsChange } from '../protocol/settings.ts';
import { hotkeysOf } from './settings.ts';

/** Throws `conflict` when the settings after `changes` would put two switches on one key. */
export function checkedHotkeys(next: Settings, changes: SettingsChange): void {
  if (!changes.hotkeys) return;
  const changed = Object.entries(changes.hotkeys)
    .filter(([, key]) => key !== undefined)
    .map(([id]) => id);
  const problem = hotkeyConflict(hotkeysOf(next), changed);
  if (problem) throw conflict(problem);
}
