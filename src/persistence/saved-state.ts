/**
 * The saved state: what survives a restart and a kill. A versioned document checked against a
 * schema on load: the run's stamp, the settings, and one part per entry of SAVED_PARTS
 * (saved-parts.ts), whose types tie each part to its actor's input.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { ObsSettings } from '../../machines/obs-connection.machine.ts';
import type { Settings } from '../protocol/settings.ts';
import { SettingsSchema } from '../protocol/settings.ts';
import { SAVED_PART_SCHEMAS } from './saved-parts.ts';

export const SAVED_STATE_VERSION = 1;

/** What every document holds besides the actors' parts. */
export const SAVED_STAMP_KEYS = ['version', 'savedAt', 'revision', 'settings'] as const;

export const SavedStateSchema = Type.Object({
  version: Type.Literal(SAVED_STATE_VERSION),
  savedAt: Type.String(),
  revision: Type.Integer({ minimum: 0 }),
  settings: SettingsSchema,
  ...SAVED_PART_SCHEMAS,
});

export type SavedState = Static<typeof SavedStateSchema>;

/**
 * A saved state as a start reads it: a part that could not be read is left out and starts from its
 * default; of the settings, only the setting that could not be read (docs/persistence.md).
 */
export type LoadedState = Pick<SavedState, 'version' | 'revision'> &
  Partial<Omit<SavedState, 'version' | 'revision' | 'settings'>> & { settings?: Partial<Settings> };

// The schema and the machines describe the same data: this fails to compile when they drift apart
// (the actors' parts are tied to their inputs by SAVED_PARTS' types).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(): T => true as T;
agree<Same<SavedState['settings']['obs'], ObsSettings>>();
