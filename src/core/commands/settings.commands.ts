import { SettingsChangeSchema } from '../../protocol/settings.ts';
import { publicSettings } from '../../settings/settings.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';

/** The lasting settings (POST /internal/settings, POST /api/panel/settings): the shell and the operator app. */
const settings = defineCommand({
  id: 'settings',
  description:
    'Changes the settings that last: local network mode, OBS, import sources, branding, game data.',
  payload: SettingsChangeSchema,
  needsMainWindow: false,
  stateKeys: [],
  callers: {
    roles: new Set(['shell', 'operator']),
    refusal: () => 'the settings change from the operator app or the application shell on this machine',
  },
  run: async (context, changes) => ({ settings: publicSettings(await context.settings.update(changes)) }),
});

export const SETTINGS_COMMANDS: readonly AnyCommand[] = [settings];
