import { assign, setup } from 'xstate';

/** Where player stats come from: two third-party providers and the game's own data. */
export const STATS_PROVIDERS = ['platform_a', 'platform_b', 'live'] as const;
export type StatsProvider = (typeof STATS_PROVIDERS)[number];

/** What show_player_stats asks the stats panel to show. */
export interface PlayerStatsRequest {
  slot: number;
  provider?: StatsProvider;
  name?: string;
}

export interface PanelInput {
  /** null until a command or an overlay report has told the state. */
  visible: boolean | null;
}

export interface PanelContext {
  restored: boolean | null;
  durationMs: number | null;
  player: PlayerStatsRequest | null;
}

export type PanelEvent =
  | { type: 'panel.show'; durationMs?: number; player?: PlayerStatsRequest }
  | { type: 'panel.hide' }
  | { type: 'panel.toggle' }
  | { type: 'panel.report'; visible: boolean };

/**
 * One HUD panel (scoreboard, veto panel, player stats, overlay window): four actors of this machine.
 * show_* and hide_* do nothing when the panel is already so; a show with a duration hides the panel
 * again by itself.
 */
export const panelMachine = setup({
  types: {} as { context: PanelContext; input: PanelInput; events: PanelEvent },
  delays: {
    displayTime: ({ context }) => context.durationMs ?? 0,
  },
  guards: {
    wasShown: ({ context }) => context.restored === true,
    wasHidden: ({ context }) => context.restored === false,
    hasDuration: ({ event }) => event.type === 'panel.show' && event.durationMs !== undefined,
    carriesPlayer: ({ event }) => event.type === 'panel.show' && event.player !== undefined,
    reportsVisible: ({ event }) => event.type === 'panel.report' && event.visible,
    reportsHidden: ({ event }) => event.type === 'panel.report' && !event.visible,
  },
  actions: {
    rememberRequest: assign(({ event }) =>
      event.type === 'panel.show'
        ? { durationMs: event.durationMs ?? null, player: event.player ?? null }
        : {},
    ),
    forgetRequest: assign({ durationMs: null, player: null }),
  },
}).createMachine({
  id: 'panel',
  context: ({ input }) => ({ restored: input.visible, durationMs: null, player: null }),
  initial: 'unknown',
  states: {
    unknown: {
      description:
        'No command and no overlay report has told the state yet: the HUD state leaves the flag out',
      always: [
        { guard: 'wasShown', target: 'shown' },
        { guard: 'wasHidden', target: 'hidden' },
      ],
      on: {
        'panel.show': [
          { guard: 'hasDuration', target: 'shown.timed', actions: 'rememberRequest' },
          { target: 'shown', actions: 'rememberRequest' },
        ],
        'panel.hide': 'hidden',
        'panel.toggle': 'shown',
        'panel.report': [{ guard: 'reportsVisible', target: 'shown' }, { target: 'hidden' }],
      },
    },
    hidden: {
      entry: 'forgetRequest',
      on: {
        'panel.show': [
          { guard: 'hasDuration', target: 'shown.timed', actions: 'rememberRequest' },
          { target: 'shown', actions: 'rememberRequest' },
        ],
        'panel.toggle': 'shown',
        'panel.report': { guard: 'reportsVisible', target: 'shown' },
      },
    },
    shown: {
      initial: 'held',
      states: {
        held: { description: 'Stays until hidden' },
        timed: {
          description: 'Hides itself after durationMs',
          after: { displayTime: '#panel.hidden' },
        },
      },
      on: {
        // A plain show of a shown panel changes nothing; new content (another player, a new
        // duration) replaces the old and restarts the timer.
        'panel.show': [
          { guard: 'hasDuration', target: '.timed', reenter: true, actions: 'rememberRequest' },
          { guard: 'carriesPlayer', target: '.held', reenter: true, actions: 'rememberRequest' },
        ],
        'panel.hide': 'hidden',
        'panel.toggle': 'hidden',
        'panel.report': { guard: 'reportsHidden', target: 'hidden' },
      },
    },
  },
});
