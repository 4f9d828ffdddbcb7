/**
 * What the application around the service reports: its main window and subscription (the shell),
 * panel flags and colour presets (the HUD overlay); game data has its own path (src/game/).
 * Loopback only, never in GET /api/actions, same validation and revisions as commands.
 */
import { PANELS } from '../../protocol/panels.ts';
import { VIEWER_REFUSAL } from '../caller.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';

const hostReport = defineCommand('host_report', {
  callers: {
    roles: new Set(['shell']),
    refusal: () =>
      'host_report comes from the application shell on this machine (POST /internal/host_report)',
  },
  run: ({ hud }, report) => {
    hud.send('host', { type: 'host.report', ...report });
    const { mainWindowOpen, signedIn, subscriptionActive } = hud.snapshot('host').context;
    return { mainWindowOpen, signedIn, subscriptionActive };
  },
});

const overlayReport = defineCommand('overlay_report', {
  callers: {
    roles: new Set(['shell', 'overlay']),
    // The view key never writes, not even the overlay's report: what is on air is not its to change.
    refusal: (role) =>
      role === 'viewer'
        ? `${VIEWER_REFUSAL}; a HUD overlay reports what it shows from this machine, or with the access token`
        : 'only a HUD overlay page (role=overlay) reports what it shows',
  },
  run: ({ hud }, report) => {
    for (const { id, stateKey } of PANELS) {
      const visible = report[stateKey];
      if (visible !== undefined) hud.send(id, { type: 'panel.report', visible });
    }
    if (report.presets) hud.send('host', { type: 'host.presets', presets: report.presets });
    // A browser source that loads is the overlay window opening, as long as no toggle_overlay,
    // show_overlay or hide_overlay has decided the window's state: those keep the last word.
    if (report.opened && hud.snapshot('overlay').matches('unknown')) {
      hud.send('overlay', { type: 'panel.report', visible: true });
    }
    return {};
  },
});

export const INTERNAL_COMMANDS: readonly AnyCommand[] = [hostReport, overlayReport];
