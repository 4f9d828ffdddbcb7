import { assign, enqueueActions, setup } from 'xstate';
import { SYSTEM_ID } from './system-ids.ts';

export interface ColorPreset {
  id: string;
  name: string;
}

export interface RosterEntry {
  slot: number;
  name: string;
}

/**
 * What lasts of a map's damage figures: the rounds of the map that are over, as game data counted
 * them (src/game/adr.ts). Saved with the roster, so ADR continues after a restart mid-map.
 */
export interface MapFigures {
  /** The map as the game names it (de_dust2, workshop/…/de_mirage). */
  map: string;
  /** The game's round count (map.round) they were closed at: they hold the rounds before it. */
  round: number;
  /** How many rounds they hold (rounds the service did not see are not among them). */
  rounds: number;
  /** Damage done in those rounds, by SteamID64. */
  damage: Record<string, number>;
}

/** What the application shell and the HUD overlay tell the service about themselves. */
export interface HostInput {
  mainWindowOpen: boolean;
  signedIn: boolean;
  subscriptionActive: boolean;
  presets: ColorPreset[];
  colorPresetId: string | null;
  roster: RosterEntry[];
  /** ADR's figures of the map in play; null before a round of it is over. */
  mapFigures: MapFigures | null;
  /** Game data arrives (a frame with the cfg's auth token within the last few seconds). */
  gameReceiving: boolean;
}

export type HostReport = Partial<Pick<HostInput, 'mainWindowOpen' | 'signedIn' | 'subscriptionActive'>>;

export type HostEvent =
  | ({ type: 'host.report' } & HostReport)
  | { type: 'host.presets'; presets: ColorPreset[] }
  | { type: 'host.roster'; roster: RosterEntry[] }
  | { type: 'host.mapFigures'; figures: MapFigures | null }
  | { type: 'host.gameReceiving'; receiving: boolean }
  | { type: 'preset.apply'; presetId: string }
  /** The last operator app page went: the window closes unless one comes back within the grace period. */
  | { type: 'host.pagesGone' };

/** After the last operator app page goes, the main window counts as closed this much later. */
export const MAIN_WINDOW_GRACE_MS = 750;

/** The same players in the same slots: a roster that is not new (game data asks before it sends one). */
export const sameRoster = (a: readonly RosterEntry[], b: readonly RosterEntry[]) =>
  a.length === b.length && a.every((entry, i) => entry.slot === b[i]?.slot && entry.name === b[i]?.name);

const samePresets = (a: readonly ColorPreset[], b: readonly ColorPreset[]) =>
  a.length === b.length && a.every((preset, i) => preset.id === b[i]?.id && preset.name === b[i]?.name);

/**
 * The application around the service: its main window (commands flagged "Main window" need it
 * open and signed in), the subscription, the colour presets the HUD overlay reported, the active
 * preset, the roster and the map's figures from game data, and whether game data arrives. The main-window states follow the reported flags.
 */
export const hostMachine = setup({
  types: {} as { context: HostInput; input: HostInput; events: HostEvent },
  delays: { mainWindowGrace: MAIN_WINDOW_GRACE_MS },
  guards: {
    isWindowOpen: ({ context }) => context.mainWindowOpen,
    isWindowClosed: ({ context }) => !context.mainWindowOpen,
    isSignedIn: ({ context }) => context.signedIn,
    isSignedOut: ({ context }) => !context.signedIn,
    changesHost: ({ context, event }) =>
      event.type === 'host.report' &&
      (['mainWindowOpen', 'signedIn', 'subscriptionActive'] as const).some(
        (key) => event[key] !== undefined && event[key] !== context[key],
      ),
    changesSubscription: ({ context, event }) =>
      event.type === 'host.report' &&
      event.subscriptionActive !== undefined &&
      event.subscriptionActive !== context.subscriptionActive,
    // A page came back (or the shell says the window is open) before the grace period ran out.
    isWindowBack: ({ event }) => event.type === 'host.report' && event.mainWindowOpen === true,
    isNewRoster: ({ context, event }) =>
      event.type === 'host.roster' && !sameRoster(context.roster, event.roster),
    // Game data makes new figures only when a round is over: the same object is no change.
    isNewMapFigures: ({ context, event }) =>
      event.type === 'host.mapFigures' && event.figures !== context.mapFigures,
    changesReceiving: ({ context, event }) =>
      event.type === 'host.gameReceiving' && event.receiving !== context.gameReceiving,
    isNewPresetList: ({ context, event }) =>
      event.type === 'host.presets' && !samePresets(context.presets, event.presets),
    isOtherPreset: ({ context, event }) =>
      event.type === 'preset.apply' && event.presetId !== context.colorPresetId,
  },
  actions: {
    applyReport: assign(({ context, event }) => {
      if (event.type !== 'host.report') return {};
      return {
        mainWindowOpen: event.mainWindowOpen ?? context.mainWindowOpen,
        signedIn: event.signedIn ?? context.signedIn,
        subscriptionActive: event.subscriptionActive ?? context.subscriptionActive,
      };
    }),
    closeWindow: assign({ mainWindowOpen: false, signedIn: false }),
    // The observer follows the subscription (enabling it waits for one): it starts from the host's
    // (machines/supervisor.machine.ts) and is told every change, by systemId. Alone (a test of this
    // machine) there is no observer to tell.
    tellObserver: enqueueActions(({ context, enqueue, system }) => {
      const observer = system.get(SYSTEM_ID.observer);
      const subscription = { type: 'observer.subscription', active: context.subscriptionActive } as const;
      if (observer) enqueue.sendTo(observer, subscription);
    }),
    setRoster: assign({
      roster: ({ context, event }) => (event.type === 'host.roster' ? event.roster : context.roster),
    }),
    setMapFigures: assign({
      mapFigures: ({ context, event }) =>
        event.type === 'host.mapFigures' ? event.figures : context.mapFigures,
    }),
    setGameReceiving: assign({
      gameReceiving: ({ context, event }) =>
        event.type === 'host.gameReceiving' ? event.receiving : context.gameReceiving,
    }),
    setPresets: assign({
      presets: ({ context, event }) => (event.type === 'host.presets' ? event.presets : context.presets),
    }),
    setColorPreset: assign({
      colorPresetId: ({ context, event }) =>
        event.type === 'preset.apply' ? event.presetId : context.colorPresetId,
    }),
  },
}).createMachine({
  id: 'host',
  context: ({ input }) => input,
  initial: 'mainWindowClosed',
  on: {
    'host.report': [
      { guard: 'changesSubscription', actions: ['applyReport', 'tellObserver'] },
      { guard: 'changesHost', actions: 'applyReport' },
    ],
    'host.roster': { guard: 'isNewRoster', actions: 'setRoster' },
    'host.mapFigures': { guard: 'isNewMapFigures', actions: 'setMapFigures' },
    'host.gameReceiving': { guard: 'changesReceiving', actions: 'setGameReceiving' },
    'host.presets': { guard: 'isNewPresetList', actions: 'setPresets' },
    'preset.apply': { guard: 'isOtherPreset', actions: 'setColorPreset' },
  },
  states: {
    mainWindowClosed: {
      description: 'Commands flagged "Main window" answer 503 unavailable',
      always: { guard: 'isWindowOpen', target: 'mainWindowOpen' },
    },
    mainWindowOpen: {
      initial: 'signedOut',
      always: { guard: 'isWindowClosed', target: 'mainWindowClosed' },
      on: { 'host.pagesGone': '.closing' },
      states: {
        signedOut: {
          description: 'Open but not signed in: "Main window" commands still answer 503',
          always: { guard: 'isSignedIn', target: 'ready' },
        },
        ready: {
          description: 'Open and signed in: every command can run',
          always: { guard: 'isSignedOut', target: 'signedOut' },
        },
        closing: {
          description:
            'The last operator app page went: still open (a reload comes back at once); closed and signed out when none came back within the grace period',
          after: { mainWindowGrace: { actions: 'closeWindow' } },
          on: {
            'host.report': {
              guard: 'isWindowBack',
              target: 'signedOut',
              actions: ['applyReport', 'tellObserver'],
            },
          },
        },
      },
    },
  },
});

/** Whether commands flagged "Main window" may run. */
export const isMainWindowReady = (context: HostInput) => context.mainWindowOpen && context.signedIn;
