/**
 * The on-air switches of the operator app's Live page and the key of each (settings `hotkeys`):
 * declared once, so the settings' schema, the server's conflict check, the Live page's buttons and
 * the app's key listener all list the same switches. Browser-safe: TypeBox and machines/ only.
 */
import type { Static, TNull, TOptional, TString, TUnion } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { Panel } from '../../machines/panels.ts';
import { PANELS } from '../../machines/panels.ts';
import type { Scene } from '../../machines/vocabulary.ts';
import { SCENES } from '../../machines/vocabulary.ts';
import { strict } from './schemas.ts';

const SCENE_NAMES: Record<Scene, string> = {
  versus: 'Versus',
  talents: 'Talents',
  sponsors: 'Sponsors',
  mapRecap: 'Map recap',
};

/** What a switch does, for the page that runs it. */
export type LiveSwitchKind =
  | { kind: 'panel'; panel: Panel['command'] }
  | { kind: 'overlay'; setting: 'sponsorOverlay' | 'eventBadge' }
  | { kind: 'scene'; scene: Scene }
  | { kind: 'cleanFeed' }
  | { kind: 'restoreFeed' }
  | { kind: 'revealNext' };

export interface LiveSwitch {
  id: string;
  /** Its name on the button and in the hotkey settings. */
  name: string;
  /** Its key until the operator sets another (the spec's F9 and F7), or null. */
  defaultKey: string | null;
  does: LiveSwitchKind;
}

/** Every on-air switch, in the order the Live page shows them. */
export const LIVE_SWITCHES: readonly LiveSwitch[] = [
  ...PANELS.map((panel: Panel) => ({
    id: panel.command,
    name: panel.name,
    defaultKey: 'hotkey' in panel ? (panel.hotkey as string) : null,
    does: { kind: 'panel' as const, panel: panel.command },
  })),
  {
    id: 'sponsor',
    name: 'Sponsor overlay',
    defaultKey: null,
    does: { kind: 'overlay', setting: 'sponsorOverlay' },
  },
  { id: 'badge', name: 'Event badge', defaultKey: null, does: { kind: 'overlay', setting: 'eventBadge' } },
  ...SCENES.map((scene) => ({
    id: `scene_${scene}`,
    name: `${SCENE_NAMES[scene]} scene`,
    defaultKey: null,
    does: { kind: 'scene' as const, scene },
  })),
  { id: 'reveal_next', name: 'Reveal next veto step', defaultKey: null, does: { kind: 'revealNext' } },
  { id: 'clean_feed', name: 'Clean feed', defaultKey: null, does: { kind: 'cleanFeed' } },
  { id: 'restore_feed', name: 'Restore feed', defaultKey: null, does: { kind: 'restoreFeed' } },
];

/**
 * The keys a switch may take: F1 to F12, a letter or a digit (as `KeyboardEvent.key` names them, the
 * letters in capitals). A letter or a digit acts only while the focus is not in a text field, where
 * the operator types; the F keys act everywhere in the app.
 */
export const HOTKEY_PATTERN = '^(F[1-9]|F1[0-2]|[A-Z]|[0-9])$';
export const HotkeySchema = Type.String({
  pattern: HOTKEY_PATTERN,
  description: 'F1 to F12, a capital letter or a digit',
});

type SwitchKeys = Record<string, TOptional<TUnion<[TString, TNull]>>>;

/** A change of the keys: the switches named get their key (null: none); the others keep theirs. */
export const HotkeysChangeSchema = Type.Object(
  Object.fromEntries(
    LIVE_SWITCHES.map(({ id, name }) => [
      id,
      Type.Optional(Type.Union([HotkeySchema, Type.Null()], { description: `The key of ${name}` })),
    ]),
  ) as SwitchKeys,
  { ...strict, minProperties: 1 },
);

/** Every switch's key (null: none), as the settings keep and show them. */
export const HotkeysSchema = Type.Record(Type.String(), Type.Union([HotkeySchema, Type.Null()]), {
  description: 'The key of each on-air switch of the Live page, by switch id; null: none',
});
export type Hotkeys = Static<typeof HotkeysSchema>;

export const DEFAULT_HOTKEYS: Hotkeys = Object.fromEntries(LIVE_SWITCHES.map((s) => [s.id, s.defaultKey]));

/** The key a browser's keydown names, as the settings write it (letters in capitals), or null. */
export function hotkeyOf(key: string): string | null {
  const named = key.length === 1 ? key.toUpperCase() : key;
  return new RegExp(HOTKEY_PATTERN).test(named) ? named : null;
}

/**
 * Why a set of keys cannot be saved (two switches on one key), in words; null when it can. The
 * switch that asks for a key another one has is named, with the one that has it.
 */
export function hotkeyConflict(keys: Hotkeys, changed: readonly string[]): string | null {
  for (const id of changed) {
    const key = keys[id];
    if (!key) continue;
    const other = LIVE_SWITCHES.find((entry) => entry.id !== id && keys[entry.id] === key);
    if (other) {
      const name = LIVE_SWITCHES.find((entry) => entry.id === id)?.name ?? id;
      return `hotkeys.${id}: ${key} is already the key of ${other.name}: clear it there first, or choose another key for ${name}`;
    }
  }
  return null;
}
