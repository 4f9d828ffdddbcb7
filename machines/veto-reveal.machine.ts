import { assign, setup } from 'xstate';

export interface RevealSetting {
  instant: boolean;
  /** Steps shown in progressive mode; in instant mode every step is shown. */
  revealed: number;
}

export interface VetoRevealInput extends RevealSetting {
  /** The reveal of the veto a manual session replaced, restored by veto_cancel. */
  beforeSession: RevealSetting | null;
}

export const REVEAL_DEFAULTS: VetoRevealInput = { instant: true, revealed: 0, beforeSession: null };

/** The operator's commands carry the number of veto steps there are now, so the machine needs no other actor. */
export type VetoRevealCommand =
  | { type: 'veto.reveal.next'; total: number }
  | { type: 'veto.reveal.prev'; total: number }
  | { type: 'veto.reveal.all'; total: number }
  | { type: 'veto.reveal.reset'; total: number }
  | { type: 'veto.reveal.instant'; total: number }
  | { type: 'veto.reveal.progressive'; total: number };

/**
 * The veto session tells the reveal when a session starts, loses steps or is cancelled, and when a
 * whole veto replaces the one on the HUD (veto_set, an applied import, reset_veto).
 */
export type VetoRevealEvent =
  | VetoRevealCommand
  /** `replacesUnfinished`: a session still in progress is replaced, so the older backup stays. */
  | { type: 'veto.reveal.sessionStarted'; replacesUnfinished: boolean }
  | { type: 'veto.reveal.stepsRemoved'; total: number }
  | { type: 'veto.reveal.sessionCancelled' }
  /**
   * `sameSteps`: the new veto is the one on the HUD again (the same import twice): its count and mode
   * stay. `waits`: a whole veto arrives (veto_set, an applied import) and waits in progressive mode
   * with nothing revealed; reset_veto clears the veto and leaves the mode as it was.
   */
  | { type: 'veto.reveal.vetoReplaced'; sameSteps: boolean; waits: boolean }
  /** Undo or redo puts an earlier reveal back (machines/history.machine.ts). */
  | { type: 'veto.reveal.restore'; reveal: Partial<VetoRevealInput> };

/** The step count an event carries; the session's start, end and cancel carry none. */
const totalOf = (event: VetoRevealEvent) => ('total' in event ? event.total : 0);

const clamp = (value: number, total: number) => Math.max(0, Math.min(value, total));

/** How many steps the HUD shows: all of them in instant mode, the revealed ones (at most all) otherwise. */
export function revealedCount(context: RevealSetting, total: number): number {
  return context.instant ? total : clamp(context.revealed, total);
}

/**
 * The veto reveal: instant mode shows each step as soon as it exists; progressive mode shows
 * steps one at a time as the operator reveals them. Stepping (next, prev, reset) while instant
 * switches to progressive, starting from what was on screen. A whole veto that arrives at once
 * (veto_set, an applied import) waits: progressive, nothing revealed, so nothing of it reaches air
 * before the crew reveals it. A live session (veto_start) is instant: each step shows as it is
 * played. reset_veto forgets the count and leaves the mode.
 */
export const vetoRevealMachine = setup({
  types: {} as { context: VetoRevealInput; input: VetoRevealInput; events: VetoRevealEvent },
  guards: {
    isInstant: ({ context }) => context.instant,
    canRevealMore: ({ context, event }) => revealedCount(context, totalOf(event)) < totalOf(event),
    canHideOne: ({ context, event }) => revealedCount(context, totalOf(event)) > 0,
    isNotAllShown: ({ context, event }) => revealedCount(context, totalOf(event)) !== totalOf(event),
    // Judged on the stored count, not on what shows now: with no veto on screen, a reset must
    // still make the next veto start hidden.
    hasRevealed: ({ context }) => context.revealed > 0,
    revealsMoreThanThereAre: ({ context, event }) => context.revealed > totalOf(event),
    hasBackup: ({ context }) => context.beforeSession !== null,
    // A replaced veto changes the reveal when a session's backup goes or an old count would carry over.
    changesReveal: ({ context, event }) =>
      context.beforeSession !== null ||
      (event.type === 'veto.reveal.vetoReplaced' &&
        !event.sameSteps &&
        (context.revealed > 0 || (event.waits && context.instant))),
  },
  actions: {
    revealNext: assign(({ context, event }) => ({ revealed: revealedCount(context, totalOf(event)) + 1 })),
    hideLast: assign(({ context, event }) => ({ revealed: revealedCount(context, totalOf(event)) - 1 })),
    revealAll: assign(({ event }) => ({ revealed: totalOf(event) })),
    // A step played again after an undo is a new step: in progressive mode it waits to be revealed.
    forgetRemovedSteps: assign(({ event }) => ({ revealed: totalOf(event) })),
    hideAll: assign({ revealed: 0 }),
    restoreReveal: assign(({ event }) => (event.type === 'veto.reveal.restore' ? event.reveal : {})),
    markInstant: assign({ instant: true }),
    // Progressive mode starts from what is on screen.
    markProgressive: assign(({ context, event }) => ({
      instant: false,
      revealed: revealedCount(context, totalOf(event)),
    })),
    // The new session starts with no steps, so nothing of the old veto's count carries over; it is
    // played live, so each step shows as it is made (instant). veto_cancel brings back the mode.
    openSession: assign(({ context, event }) => {
      const { instant, revealed, beforeSession } = context;
      const keepsOlder = event.type === 'veto.reveal.sessionStarted' && event.replacesUnfinished;
      return {
        beforeSession: (keepsOlder ? beforeSession : null) ?? { instant, revealed },
        instant: true,
        revealed: 0,
      };
    }),
    restoreBeforeSession: assign(({ context }) => ({ ...context.beforeSession, beforeSession: null })),
    // A new veto starts from nothing revealed (all of it in instant mode): the mode is the crew's
    // choice and stays, the count belonged to the veto that left.
    // The count belonged to the veto that left; a veto that arrives whole waits to be revealed, and
    // the same veto again keeps what was shown of it.
    forgetReplacedVeto: assign(({ context, event }) => {
      if (event.type !== 'veto.reveal.vetoReplaced' || event.sameSteps) return { beforeSession: null };
      return { beforeSession: null, revealed: 0, instant: event.waits ? false : context.instant };
    }),
  },
}).createMachine({
  id: 'vetoReveal',
  context: ({ input }) => input,
  initial: 'progressive',
  on: {
    // Through progressive, which moves on to instant (a live session shows each step as it is made).
    'veto.reveal.sessionStarted': { target: '.progressive', actions: 'openSession' },
    'veto.reveal.stepsRemoved': { guard: 'revealsMoreThanThereAre', actions: 'forgetRemovedSteps' },
    // Through progressive, which moves on to instant when the restored reveal was instant.
    'veto.reveal.sessionCancelled': {
      guard: 'hasBackup',
      target: '.progressive',
      actions: 'restoreBeforeSession',
    },
    // Through progressive, which moves on to instant when the reveal put back is instant.
    'veto.reveal.restore': { target: '.progressive', actions: 'restoreReveal' },
    'veto.reveal.vetoReplaced': {
      guard: 'changesReveal',
      target: '.progressive',
      actions: 'forgetReplacedVeto',
    },
  },
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
