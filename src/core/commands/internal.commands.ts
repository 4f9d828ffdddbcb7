/**
 * What the application around the service reports: its main window and subscription (the shell),
 * panel flags and colour presets (the HUD overlay); game data has its own path (src/game/).
 * Loopback only, never in GET /api/actions, same validation and revisions as commands.
 */
import type { TBoolean, TOptional } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { PanelStateKey } from '../../protocol/panels.ts';
import { PANELS } from '../../protocol/panels.ts';
import { strict } from '../../protocol/schemas.ts';
import { VIEWER_REFUSAL } from '../caller.ts';
import type { AnyCommand } from './command.ts';
import { defineCommand } from './command.ts';

const atLeastOne = { ...strict, minProperties: 1 } as const;

const hostReport = defineCommand({
  id: 'host_report',
  description: 'The application shell reports its main window, sign-in and subscription.',
  payload: Type.Object(
    {
      mainWindowOpen: Type.Optional(Type.Boolean()),
      signedIn: Type.Optional(Type.Boolean()),
      subscriptionActive: Type.Optional(Type.Boolean()),
    },
    atLeastOne,
  ),
  needsMainWindow: false,
  stateKeys: ['mainWindowOpen'],
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

/** Each panel's flag, as the overlay reports it. */
const panelFlags = Object.fromEntries(
  PANELS.map(({ stateKey }) => [stateKey, Type.Optional(Type.Boolean())]),
) as {
  [K in PanelStateKey]: TOptional<TBoolean>;
};

const overlayReport = defineCommand({
  id: 'overlay_report',
  description: 'The HUD overlay reports which panels it shows and its colour presets.',
  payload: Type.Object(
    {
      ...panelFlags,
      presets: Type.Optional(
        Type.Array(
          Type.Object(
            { id: Type.String({ minLength: 1, maxLength: 128 }), name: Type.String({ maxLength: 128 }) },
            strict,
          ),
          { maxItems: 200 },
        ),
      ),
      opened: Type.Optional(
        Type.Boolean({
          description:
            'An overlay page just opened: the overlay window counts as open unless a command has said otherwise',
        }),
      ),
    },
    atLeastOne,
  ),
  needsMainWindow: false,
  stateKeys: PANELS.map((panel) => panel.stateKey),
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
