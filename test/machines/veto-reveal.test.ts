import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from 'xstate';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type {
  VetoRevealCommand,
  VetoRevealEvent,
  VetoRevealInput,
} from '../../machines/veto-reveal.machine.ts';
import { REVEAL_DEFAULTS, revealedCount, vetoRevealMachine } from '../../machines/veto-reveal.machine.ts';
import { listedAndHandled, pathName, reachedValues, valueKey, walk } from '../helpers/model.ts';

type Mode = 'next' | 'prev' | 'all' | 'reset' | 'instant' | 'progressive';
const MODES: Mode[] = ['next', 'prev', 'all', 'reset', 'instant', 'progressive'];

/**
 * Every command with a veto of 3 steps, and with 1 step (after an undo or a smaller veto): the
 * number of steps there are now travels with each event.
 */
const COMMANDS: VetoRevealCommand[] = [3, 1].flatMap((total) =>
  MODES.map((mode): VetoRevealCommand => ({ type: `veto.reveal.${mode}`, total })),
);

/**
 * A whole veto replaces the one on the HUD (veto_set, an import: it waits): another one, or the same
 * again; or reset_veto clears it (nothing waits).
 */
type Replaced = Extract<VetoRevealEvent, { type: 'veto.reveal.vetoReplaced' }>;
const REPLACED: Replaced[] = [
  { type: 'veto.reveal.vetoReplaced', sameSteps: false, waits: true },
  { type: 'veto.reveal.vetoReplaced', sameSteps: true, waits: true },
  { type: 'veto.reveal.vetoReplaced', sameSteps: false, waits: false },
];
type ModelEvent = VetoRevealCommand | Replaced;
const EVENTS: ModelEvent[] = [...COMMANDS, ...REPLACED];

const modeOf = (event: VetoRevealCommand) => event.type.replace('veto.reveal.', '') as Mode;
const describeModelEvent = (event: ModelEvent) =>
  event.type === 'veto.reveal.vetoReplaced'
    ? event.waits
      ? `replaced by ${event.sameSteps ? 'the same veto' : 'another veto'}`
      : 'cleared'
    : `${modeOf(event)}/${event.total}`;

/** How many steps the HUD shows after a command, from the spec: next shows one more, prev one less, … */
function specShown(before: number, event: VetoRevealCommand): number {
  switch (modeOf(event)) {
    case 'next':
      return Math.min(before + 1, event.total);
    case 'prev':
      return Math.max(before - 1, 0);
    case 'all':
    case 'instant':
      return event.total;
    case 'reset':
      return 0;
    case 'progressive':
      return before;
  }
}

/** Whether the reveal is instant after a command: instant true/false switch it, stepping turns it off. */
function specInstant(before: boolean, shownBefore: number, event: VetoRevealCommand): boolean {
  switch (modeOf(event)) {
    case 'instant':
      return true;
    case 'progressive':
    case 'reset':
      return false;
    case 'next':
      return before && shownBefore === event.total;
    case 'prev':
      return before && shownBefore === 0;
    case 'all':
      return before;
  }
}

const actors: Array<Actor<typeof vetoRevealMachine>> = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});

function startReveal(input: VetoRevealInput = { ...REVEAL_DEFAULTS }) {
  const actor = createActor(vetoRevealMachine, { input });
  actors.push(actor);
  actor.start();
  return actor;
}

describe.each<[string, VetoRevealInput]>([
  ['the default (instant)', { ...REVEAL_DEFAULTS }],
  ['a saved progressive reveal of 2 steps', { instant: false, revealed: 2, beforeSession: null }],
])('vetoRevealMachine, model-based, from %s', (_name, input) => {
  const model = createTestModel(vetoRevealMachine, {
    input,
    events: EVENTS,
    filterEvents: listedAndHandled(EVENTS),
  });
  const paths = model.getShortestPaths();

  it('walks both modes and every count of revealed steps', () => {
    expect(reachedValues(paths)).toEqual(new Set([valueKey('instant'), valueKey('progressive')]));
    const counts = new Set(
      paths.flatMap((path) => path.steps.map((step) => revealedCount(step.state.context, 3))),
    );
    expect(counts).toEqual(new Set([0, 1, 2, 3]));
  });

  for (const [index, path] of paths.entries()) {
    // The walk sends only the listed operator commands (filterEvents).
    it(`path ${index}: ${pathName(path, (event) => describeModelEvent(event as ModelEvent))}`, async () => {
      let actor: Actor<typeof vetoRevealMachine> | undefined;
      await walk(path, {
        start: () => {
          actor = startReveal({ ...input });
        },
        send: (sent) => {
          const reveal = actor as Actor<typeof vetoRevealMachine>;
          const before = reveal.getSnapshot().context;
          if (sent.type === 'veto.reveal.vetoReplaced') {
            const replaced = sent as Replaced;
            reveal.send(replaced);
            const after = reveal.getSnapshot().context;
            // A new veto waits: progressive, nothing shown; the same veto again shows as much as
            // before; a cleared veto leaves the mode (the next one shows everything when instant).
            const waits = replaced.waits && !replaced.sameSteps;
            const shown = replaced.sameSteps ? revealedCount(before, 7) : waits || !before.instant ? 0 : 7;
            expect(revealedCount(after, 7), describeModelEvent(replaced)).toBe(shown);
            expect(after.instant).toBe(waits ? false : before.instant);
            return;
          }
          const event = sent as VetoRevealCommand;
          const shownBefore = revealedCount(before, event.total);
          reveal.send(event);
          const after = reveal.getSnapshot().context;
          expect(revealedCount(after, event.total), `${describeModelEvent(event)} after ${shownBefore}`).toBe(
            specShown(shownBefore, event),
          );
          expect(after.instant).toBe(specInstant(before.instant, shownBefore, event));
          // After a reset nothing shows, also when the next veto has more steps than this one.
          if (modeOf(event) === 'reset') expect(revealedCount(after, 7)).toBe(0);
        },
        check: (expected) => {
          const actual = (actor as Actor<typeof vetoRevealMachine>).getSnapshot();
          expect(actual.value).toEqual(expected.value);
          expect(actual.context).toEqual(expected.context);
          expect(actual.matches('instant')).toBe(actual.context.instant);
          // Instant mode shows every step, whatever the count: a new step shows as soon as it is played.
          if (actual.context.instant) expect(revealedCount(actual.context, 7)).toBe(7);
        },
      });
    });
  }
});

describe('vetoRevealMachine, the reveal as a veto grows and shrinks', () => {
  it('in progressive mode a new step stays hidden until revealed', () => {
    const actor = startReveal();
    actor.send({ type: 'veto.reveal.progressive', total: 2 });
    expect(revealedCount(actor.getSnapshot().context, 3)).toBe(2);
    actor.send({ type: 'veto.reveal.next', total: 3 });
    expect(revealedCount(actor.getSnapshot().context, 3)).toBe(3);
  });

  it('shows at most the steps there are after an undo, and prev steps back from what is shown', () => {
    const actor = startReveal({ instant: false, revealed: 3, beforeSession: null });
    expect(revealedCount(actor.getSnapshot().context, 1)).toBe(1);
    actor.send({ type: 'veto.reveal.prev', total: 1 });
    expect(revealedCount(actor.getSnapshot().context, 3)).toBe(0);
  });

  // Regression: reset used to be refused when nothing was on screen right now (no veto, or fewer
  // steps than the stored count), so the stored count survived and reappeared with the next veto.
  it('reset hides every step even while the veto has none: the next veto starts hidden', () => {
    const actor = startReveal();
    actor.send({ type: 'veto.reveal.progressive', total: 3 }); // veto_reveal { instant: false }: 3 of 3 shown
    actor.send({ type: 'veto.reveal.prev', total: 3 }); // 2 of 3 shown
    // reset_veto clears the veto (total 0); the operator then presses reset for the next veto.
    actor.send({ type: 'veto.reveal.reset', total: 0 });
    expect(revealedCount(actor.getSnapshot().context, 0)).toBe(0);
    // veto_set plays a new veto of 7 steps: reset said every step is hidden.
    expect(revealedCount(actor.getSnapshot().context, 7)).toBe(0);
  });
});

describe('vetoRevealMachine, a manual veto session', () => {
  it('a session shows each step as it is played and veto_cancel brings back the reveal from before it, mode included', () => {
    const actor = startReveal({ instant: false, revealed: 2, beforeSession: null });
    actor.send({ type: 'veto.reveal.sessionStarted', replacesUnfinished: false });
    expect(actor.getSnapshot().matches('instant')).toBe(true);
    expect(revealedCount(actor.getSnapshot().context, 1)).toBe(1);
    actor.send({ type: 'veto.reveal.sessionCancelled' });
    expect(actor.getSnapshot().context).toEqual({ instant: false, revealed: 2, beforeSession: null });
    expect(actor.getSnapshot().matches('progressive')).toBe(true);
  });

  it('an instant reveal comes back instant', () => {
    const actor = startReveal();
    actor.send({ type: 'veto.reveal.sessionStarted', replacesUnfinished: false });
    actor.send({ type: 'veto.reveal.reset', total: 0 });
    expect(actor.getSnapshot().matches('progressive')).toBe(true);
    actor.send({ type: 'veto.reveal.sessionCancelled' });
    expect(actor.getSnapshot().matches('instant')).toBe(true);
    expect(revealedCount(actor.getSnapshot().context, 7)).toBe(7);
  });

  it('a session replacing one in progress keeps the older backup; one replacing a finished session takes a new one', () => {
    const actor = startReveal({ instant: false, revealed: 5, beforeSession: null });
    actor.send({ type: 'veto.reveal.sessionStarted', replacesUnfinished: false });
    actor.send({ type: 'veto.reveal.next', total: 1 });
    actor.send({ type: 'veto.reveal.sessionStarted', replacesUnfinished: true });
    expect(actor.getSnapshot().context.beforeSession).toEqual({ instant: false, revealed: 5 });
    // The crew turns the live session to step by step and reveals its one step.
    actor.send({ type: 'veto.reveal.reset', total: 1 });
    actor.send({ type: 'veto.reveal.next', total: 1 });
    actor.send({ type: 'veto.reveal.sessionStarted', replacesUnfinished: false });
    expect(actor.getSnapshot().context.beforeSession).toEqual({ instant: false, revealed: 1 });
  });

  it('veto_set, reset_veto or an import end the session: the backup goes and the new veto starts hidden', () => {
    const actor = startReveal({ instant: false, revealed: 5, beforeSession: null });
    actor.send({ type: 'veto.reveal.sessionStarted', replacesUnfinished: false });
    actor.send({ type: 'veto.reveal.next', total: 1 });
    actor.send({ type: 'veto.reveal.vetoReplaced', sameSteps: false, waits: true });
    expect(actor.getSnapshot().context).toEqual({ instant: false, revealed: 0, beforeSession: null });
    const ended = actor.getSnapshot();
    actor.send({ type: 'veto.reveal.sessionCancelled' });
    expect(actor.getSnapshot()).toBe(ended);
    // Nothing to forget: the snapshot stays the same object (no revision, no save).
    actor.send({ type: 'veto.reveal.vetoReplaced', sameSteps: false, waits: true });
    expect(actor.getSnapshot()).toBe(ended);
  });

  // Regression (issue 19): a new import kept the previous veto's reveal count, so it went on air
  // with as many steps turned over as the veto before it.
  it('a new veto in progressive mode shows nothing until revealed; the same veto again keeps its count', () => {
    const actor = startReveal({ instant: false, revealed: 3, beforeSession: null });
    actor.send({ type: 'veto.reveal.vetoReplaced', sameSteps: true, waits: true });
    expect(revealedCount(actor.getSnapshot().context, 7)).toBe(3);
    actor.send({ type: 'veto.reveal.vetoReplaced', sameSteps: false, waits: true });
    expect(revealedCount(actor.getSnapshot().context, 7)).toBe(0);
    expect(actor.getSnapshot().matches('progressive')).toBe(true);
  });

  // Issue 33: an import right after set-up put "MIRAGE NEXT · INFERNO · TRAIN" on air with the veto
  // panel closed, because the default reveal is instant.
  it('a new veto in instant mode waits too: progressive, nothing shown until revealed', () => {
    const actor = startReveal();
    actor.send({ type: 'veto.reveal.vetoReplaced', sameSteps: false, waits: true });
    expect(actor.getSnapshot().matches('progressive')).toBe(true);
    expect(revealedCount(actor.getSnapshot().context, 7)).toBe(0);
  });

  it('reset_veto leaves the mode: instant stays instant', () => {
    const actor = startReveal();
    const before = actor.getSnapshot();
    actor.send({ type: 'veto.reveal.vetoReplaced', sameSteps: false, waits: false });
    expect(actor.getSnapshot()).toBe(before);
  });

  // Regression: the stored count stayed above the steps after an undo, so the step played again
  // showed at once.
  it('steps removed by an undo lower the stored count: a step played again stays hidden', () => {
    const actor = startReveal({ instant: false, revealed: 4, beforeSession: null });
    actor.send({ type: 'veto.reveal.stepsRemoved', total: 3 });
    expect(actor.getSnapshot().context.revealed).toBe(3);
    expect(revealedCount(actor.getSnapshot().context, 4)).toBe(3);
    const clamped = actor.getSnapshot();
    actor.send({ type: 'veto.reveal.stepsRemoved', total: 3 });
    expect(actor.getSnapshot()).toBe(clamped);
  });
});
