import type { Static } from '@sinclair/typebox';
import { DEFAULT_SLOT_NUMBERING } from '../protocol/game.ts';
import type { Branding, GameSettingsSchema, PublicSettings, Settings } from '../protocol/settings.ts';
import { DEFAULT_BRANDING } from '../protocol/settings.ts';

export function publicSettings(settings: Settings): PublicSettings {
  const { password, ...obs } = settings.obs;
  return {
    lanMode: settings.lanMode,
    obs: { ...obs, passwordSet: password !== '' },
    sources: settings.sources,
    automation: { enabled: automationEnabled(settings) },
    branding: brandingOf(settings),
    game: gameSettings(settings),
  };
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
