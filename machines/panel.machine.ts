import type { SnapshotFrom } from 'xstate';
import { assign, setup } from 'xstate';
import type { StatsProvider } from './vocabulary.ts';

export type { StatsProvider } from './vocabulary.ts';

/**
 * A stats platform's figures of a player (platform_a: FACEIT), looked up before the panel shows
 * them; null where the platform gave none.
 */
export interface PlatformFigures {
  /** The player's name on the platform. */
  nickname: string;
  /** Skill level, 1 to 10. */
  level: number | null;
  elo: number | null;
  /** Average kills per death. */
  kd: number | null;
  /** Matches won, per cent. */
  winRate: number | null;
  matches: number | null;
  /** Kills that were headshots, per cent. */
  headshots: number | null;
  /** Average damage per round. */
  adr: number | null;
  /** The last results, oldest first: true a win. */
  recent: boolean[];
}

/** What show_player_stats asks the stats panel to show. */
export interface PlayerStatsRequest {
  slot: number;
  provider?: StatsProvider;
  /** The operator's note: never drawn on the HUD. */
  name?: string;
  /** The platform's figures, for a third-party provider. */
  platform?: PlatformFigures;
}

/** What is saved of a panel. */
export interface PanelInput {
  /** null until a command or an overlay report has told the state. */
  visible: boolean | null;
  /** When a timed show hides the panel (ms since the epoch), so the timer outlives a restart. */
  hideAt: number | null;
}

/** The saved panel and the time it starts at: a deadline already past starts the panel hidden. */
export interface PanelStart extends PanelInput {
  now: number;
}

export interface PanelContext {
  restored: boolean | null;
  durationMs: number | null;
  player: PlayerStatsRequest | null;
  hideAt: number | null;
  /** How long the running timer waits: durationMs after a show, what was left of it after a restart. */
  timerMs: number | null;
}

export type PanelEvent =
  | { type: 'panel.show'; player?: PlayerStatsRequest; durationMs?: undefined }
  /** `now` (ms since the epoch) turns the duration into a deadline that can be saved. */
  | { type: 'panel.show'; player?: PlayerStatsRequest; durationMs: number; now: number }
  | { type: 'panel.hide' }
  | { type: 'panel.toggle' }
  | { type: 'panel.report'; visible: boolean };

/**
 * One HUD panel (scoreboard, veto panel, player stats, overlay window): four actors of this machine.
 * show_* and hide_* do nothing when the panel is already so; a show with a duration hides the panel
 * again by itself.
 */
export const panelMachine = setup({
  types: {} as { context: PanelContext; input: PanelStart; events: PanelEvent },
  delays: {
    displayTime: ({ context }) => context.timerMs ?? 0,
  },
  guards: {
    wasShownTimed: ({ context }) => context.restored === true && context.hideAt !== null,
    wasShown: ({ context }) => context.restored === true,
    wasHidden: ({ context }) => context.restored === false,
    hasDuration: ({ event }) => event.type === 'panel.show' && event.durationMs !== undefined,
    carriesPlayer: ({ event }) => event.type === 'panel.show' && event.player !== undefined,
    reportsVisible: ({ event }) => event.type === 'panel.report' && event.visible,
    reportsHidden: ({ event }) => event.type === 'panel.report' && !event.visible,
  },
  actions: {
    rememberRequest: assign(({ event }) => {
      if (event.type !== 'panel.show') return {};
      const player = event.player ?? null;
      if (event.durationMs === undefined) return { player, durationMs: null, hideAt: null, timerMs: null };
      const { durationMs, now } = event;
      return { player, durationMs, hideAt: now + durationMs, timerMs: durationMs };
    }),
    forgetRequest: assign({ durationMs: null, player: null, hideAt: null, timerMs: null }),
  },
}).createMachine({
  id: 'panel',
  context: ({ input: { visible, hideAt, now } }) => {
    const timed = visible === true && hideAt !== null;
    const expired = timed && hideAt <= now;
    return {
      restored: expired ? false : visible,
      durationMs: null,
      player: null,
      hideAt: timed && !expired ? hideAt : null,
      timerMs: timed && !expired ? hideAt - now : null,
    };
  },
  initial: 'unknown',
  states: {
    unknown: {
      description:
        'No command and no overlay report has told the state yet: the HUD state leaves the flag out',
      always: [
        { guard: 'wasShownTimed', target: 'shown.timed' },
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
          description: 'Hides itself after durationMs (after a restart, after what was left of it)',
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

/**
 * The panel's flag from its top-level state ('unknown', 'hidden' or { shown: … }), null until told.
 * Not `snapshot.matches()`: it parses its argument into a state value on every call (about 0.5 µs),
 * and the hub and the store ask for each changed panel on every commit and every save.
 */
export const panelVisibility = (snapshot: SnapshotFrom<typeof panelMachine>): boolean | null =>
  snapshot.value === 'unknown' ? null : snapshot.value !== 'hidden';
