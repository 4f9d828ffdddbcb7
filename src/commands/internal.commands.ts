/**
 * What the application around the service reports: its main window and subscription (the shell),
 * panel flags and colour presets (the HUD overlay) and the roster (the game, through Game State
 * Integration). Loopback only, never in GET /api/actions, same validation and revisions as commands.
 */
import { Type } from '@sinclair/typebox';
import type { RosterEntry } from '../../machines/host.machine.ts';
import type { PanelId } from '../../machines/system-ids.ts';
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

const PANEL_FLAGS: ReadonlyArray<
  [flag: 'scoreboardVisible' | 'vetoVisible' | 'statsVisible' | 'hudWindowOpen', panel: PanelId]
> = [
  ['scoreboardVisible', 'scoreboard'],
  ['vetoVisible', 'vetoPanel'],
  ['statsVisible', 'stats'],
  ['hudWindowOpen', 'overlay'],
];

const overlayReport = defineCommand({
  id: 'overlay_report',
  description: 'The HUD overlay reports which panels it shows and its colour presets.',
  payload: Type.Object(
    {
      scoreboardVisible: Type.Optional(Type.Boolean()),
      vetoVisible: Type.Optional(Type.Boolean()),
      statsVisible: Type.Optional(Type.Boolean()),
      hudWindowOpen: Type.Optional(Type.Boolean()),
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
  stateKeys: ['scoreboardVisible', 'vetoVisible', 'statsVisible', 'hudWindowOpen'],
  run: ({ hud }, report) => {
    for (const [flag, panel] of PANEL_FLAGS) {
      const visible = report[flag];
      if (visible !== undefined) hud.send(panel, { type: 'panel.report', visible });
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
