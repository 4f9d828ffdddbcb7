import type { Static } from '@sinclair/typebox';
import { DEFAULT_SLOT_NUMBERING } from '../protocol/game.ts';
import type { Hotkeys } from '../protocol/hotkeys.ts';
import { DEFAULT_HOTKEYS } from '../protocol/hotkeys.ts';
import type {
  Branding,
  GameSettingsSchema,
  PublicSettings,
  Settings,
  VetoSettings,
} from '../protocol/settings.ts';
import { DEFAULT_BRANDING, DEFAULT_VETO_SETTINGS } from '../protocol/settings.ts';

export function publicSettings(settings: Settings): PublicSettings {
  const { password, ...obs } = settings.obs;
  return {
    lanMode: settings.lanMode,
    obs: { ...obs, passwordSet: password !== '' },
    sources: settings.sources,
    automation: { enabled: automationEnabled(settings) },
    branding: brandingOf(settings),
    game: gameSettings(settings),
    veto: vetoSettings(settings),
    hotkeys: hotkeysOf(settings),
  };
}

/** The key of every on-air switch: the saved ones over the defaults (F9 and F7). */
export function hotkeysOf(settings: Settings): Hotkeys {
  return { ...DEFAULT_HOTKEYS, ...settings.hotkeys };
}

/** The branding set in the operator app, or nothing set. */
export function brandingOf(settings: Settings): Branding {
  return settings.branding ?? DEFAULT_BRANDING;
}

/** The game-data settings in use: the saved ones, or the defaults. */
export function gameSettings(settings: Settings): Static<typeof GameSettingsSchema> {
  return settings.game ?? { slotNumbering: DEFAULT_SLOT_NUMBERING };
}

/** Whether the automation port should be open: on unless the operator switched it off. */
export function automationEnabled(settings: Settings): boolean {
  return settings.automation?.enabled ?? true;
}

// ---- The veto's map pool ----------------------------------------------------------------------

/** The map pool the operator keeps (veto_start's default), or the Active Duty pool until changed. */
export function vetoSettings(settings: Settings): VetoSettings {
  return settings.veto ?? DEFAULT_VETO_SETTINGS;
}
