import { publicSettings } from '../../settings/settings.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';

/** The lasting settings (POST /internal/settings, POST /api/panel/settings): the shell and the operator app. */
const settings = defineCommand('settings', {
  callers: {
    roles: new Set(['shell', 'operator']),
    refusal: () => 'the settings change from the operator app or the application shell on this machine',
  },
  run: async (context, changes) => ({ settings: publicSettings(await context.settings.update(changes)) }),
});

/**
 * The subscription switch of the operator app (Integrations > Observer; POST /api/panel/subscription,
 * POST /internal/subscription): what the application shell reports with host_report, for a service
 * run without a shell. The host owns it; the observer follows (enabling the observer needs it).
 */
const subscription = defineCommand('subscription', {
  callers: {
    roles: new Set(['shell', 'operator']),
    refusal: () =>
      'the subscription is switched in the operator app or by the application shell on this machine',
  },
  run: ({ hud }, { active }) => {
    hud.send('host', { type: 'host.report', subscriptionActive: active });
    return { subscriptionActive: hud.snapshot('host').context.subscriptionActive };
  },
});

export const SETTINGS_COMMANDS: readonly AnyCommand[] = [settings, subscription];
