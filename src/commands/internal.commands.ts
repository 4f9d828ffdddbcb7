/**
 * What the application around the service reports: its main window and subscription (the shell),
 * panel flags and colour presets (the HUD overlay) and the roster (the game, through Game State
 * Integration). Loopback only, never in GET /api/actions, same validation and revisions as commands.
 */
import type { TBoolean, TOptional } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { RosterEntry } from '../../machines/host.machine.ts';
import type { PanelStateKey } from '../protocol/panels.ts';
import { PANELS } from '../protocol/panels.ts';
import { strict } from '../schemas.ts';
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
    },
    atLeastOne,
  ),
  needsMainWindow: false,
  stateKeys: PANELS.map((panel) => panel.stateKey),
  run: ({ hud }, report) => {
    for (const { id, stateKey } of PANELS) {
      const visible = report[stateKey];
      if (visible !== undefined) hud.send(id, { type: 'panel.report', visible });
    }
    if (report.presets) hud.send('host', { type: 'host.presets', presets: report.presets });
    return {};
  },
});

// Game State Integration posts the whole game state; only the players matter here.
const GsiPlayer = Type.Object({
  name: Type.String({ maxLength: 128 }),
  observer_slot: Type.Optional(Type.Integer()),
});
const gsiUpdate = defineCommand({
  id: 'gsi_update',
  description: 'A Game State Integration post from CS2: the roster by observer slot.',
  payload: Type.Object({ allplayers: Type.Optional(Type.Record(Type.String(), GsiPlayer)) }),
  needsMainWindow: false,
  stateKeys: ['roster'],
  run: ({ hud }, { allplayers }) => {
    if (allplayers) hud.send('host', { type: 'host.roster', roster: rosterOf(Object.values(allplayers)) });
    return {};
  },
});

/** Players by HUD slot, 1 to 9 then 0, as the spec orders the roster. */
export function rosterOf(players: ReadonlyArray<{ name: string; observer_slot?: number }>): RosterEntry[] {
  const order = (slot: number) => (slot === 0 ? 10 : slot);
  return players
    .filter((player): player is { name: string; observer_slot: number } => {
      const slot = player.observer_slot;
      return slot !== undefined && slot >= 0 && slot <= 9;
    })
    .map((player) => ({ slot: player.observer_slot, name: player.name }))
    .sort((a, b) => order(a.slot) - order(b.slot));
}

export const INTERNAL_COMMANDS: readonly AnyCommand[] = [hostReport, overlayReport, gsiUpdate];
