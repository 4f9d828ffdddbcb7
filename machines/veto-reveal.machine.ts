import { assign, setup } from 'xstate';

export interface VetoRevealInput {
  instant: boolean;
  /** Steps shown in progressive mode; in instant mode every step is shown. */
  revealed: number;
}

export const REVEAL_DEFAULTS: VetoRevealInput = { instant: true, revealed: 0 };

/** Every event carries the number of veto steps there are now, so the machine needs no other actor. */
export type VetoRevealEvent =
  | { type: 'veto.reveal.next'; total: number }
  | { type: 'veto.reveal.prev'; total: number }
  | { type: 'veto.reveal.all'; total: number }
  | { type: 'veto.reveal.reset'; total: number }
  | { type: 'veto.reveal.instant'; total: number }
  | { type: 'veto.reveal.progressive'; total: number };

const clamp = (value: number, total: number) => Math.max(0, Math.min(value, total));

/** How many steps the HUD shows: all of them in instant mode, the revealed ones (at most all) otherwise. */
export function revealedCount(context: VetoRevealInput, total: number): number {
  return context.instant ? total : clamp(context.revealed, total);
}

/**
 * The veto reveal: instant mode shows each step as soon as it exists; progressive mode shows
 * steps one at a time as the operator reveals them. Stepping (next, prev, reset) while instant
 * switches to progressive, starting from what was on screen.
 */
export const vetoRevealMachine = setup({
  types: {} as { context: VetoRevealInput; input: VetoRevealInput; events: VetoRevealEvent },
  guards: {
    isInstant: ({ context }) => context.instant,
    canRevealMore: ({ context, event }) => revealedCount(context, event.total) < event.total,
    canHideOne: ({ context, event }) => revealedCount(context, event.total) > 0,
    isNotAllShown: ({ context, event }) => revealedCount(context, event.total) !== event.total,
    // Judged on the stored count, not on what shows now: with no veto on screen, a reset must
    // still make the next veto start hidden.
    hasRevealed: ({ context }) => context.revealed > 0,
  },
  actions: {
    revealNext: assign(({ context, event }) => ({ revealed: revealedCount(context, event.total) + 1 })),
    hideLast: assign(({ context, event }) => ({ revealed: revealedCount(context, event.total) - 1 })),
    revealAll: assign(({ event }) => ({ revealed: event.total })),
    hideAll: assign({ revealed: 0 }),
    markInstant: assign({ instant: true }),
    // Progressive mode starts from what is on screen.
    markProgressive: assign(({ context, event }) => ({
      instant: false,
      revealed: revealedCount(context, event.total),
    })),
  },
}).createMachine({
  id: 'vetoReveal',
  context: ({ input }) => input,
  initial: 'progressive',
  states: {
    progressive: {
      description: 'The operator reveals steps one at a time',
      always: { guard: 'isInstant', target: 'instant' },
      on: {
        'veto.reveal.next': { guard: 'canRevealMore', actions: 'revealNext' },
        'veto.reveal.prev': { guard: 'canHideOne', actions: 'hideLast' },
        'veto.reveal.all': { guard: 'isNotAllShown', actions: 'revealAll' },
        'veto.reveal.reset': { guard: 'hasRevealed', actions: 'hideAll' },
        'veto.reveal.instant': { target: 'instant', actions: 'markInstant' },
      },
    },
    instant: {
      description: 'Every veto step shows as soon as it is played',
      on: {
        'veto.reveal.next': {
          guard: 'canRevealMore',
          target: 'progressive',
          actions: ['markProgressive', 'revealNext'],
        },
        'veto.reveal.prev': {
          guard: 'canHideOne',
          target: 'progressive',
          actions: ['markProgressive', 'hideLast'],
        },
        'veto.reveal.reset': { target: 'progressive', actions: ['markProgressive', 'hideAll'] },
        'veto.reveal.progressive': { target: 'progressive', actions: 'markProgressive' },
      },
    },
  },
});
