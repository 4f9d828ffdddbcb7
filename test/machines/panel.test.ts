import { afterEach, describe, expect, it } from 'vitest';
import type { Actor, SnapshotFrom } from 'xstate';
import { createActor, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { PanelEvent, PanelStart, PlayerStatsRequest } from '../../machines/panel.machine.ts';
import { panelMachine } from '../../machines/panel.machine.ts';
import { describeEvent, machineModel, pathName, reachedValues, valueKey, walk } from '../helpers/model.ts';

type PanelSnapshot = SnapshotFrom<typeof panelMachine>;

/** The delayed event of `shown.timed`: the model sends it, the test plays it by advancing the clock. */
const TIMER = 'xstate.after.displayTime.panel.shown.timed';
type TimerEvent = { type: typeof TIMER };
type ModelEvent = PanelEvent | TimerEvent;

/** The wall-clock time of the tests' commands and starts (ms since the epoch). */
const NOW = Date.UTC(2026, 10, 24, 12);
/** A panel saved as `visible` with no timer, started at NOW. */
const at = (visible: boolean | null): PanelStart => ({ visible, hideAt: null, now: NOW });

const PLAYER_3: PlayerStatsRequest = { slot: 3, provider: 'live', name: 'ropz' };
const PLAYER_0: PlayerStatsRequest = { slot: 0 };

const EVENTS: ModelEvent[] = [
  { type: 'panel.show' },
  { type: 'panel.show', durationMs: 3_000, now: NOW },
  { type: 'panel.show', player: PLAYER_3, durationMs: 5_000, now: NOW },
  { type: 'panel.show', player: PLAYER_0 },
  { type: 'panel.hide' },
  { type: 'panel.toggle' },
  { type: 'panel.report', visible: true },
  { type: 'panel.report', visible: false },
  { type: TIMER },
];

/** The panel flag of the HUD state: absent (undefined) until a command or the overlay told it. */
const visibleOf = (snapshot: PanelSnapshot): boolean | undefined =>
  snapshot.matches('unknown') ? undefined : snapshot.matches('shown');

/** The flag after an event, from the spec's panel table. */
function specVisible(before: boolean | undefined, event: ModelEvent): boolean {
  switch (event.type) {
    case 'panel.toggle':
      return before !== true;
    case 'panel.show':
      return true;
    case 'panel.hide':
      return false;
    case 'panel.report':
      return event.visible;
    case TIMER:
      return false;
  }
}

function describeModelEvent(event: ModelEvent): string {
  if (event.type === TIMER) return 'timer fires';
  if (event.type === 'panel.show') {
    const parts = [
      event.player ? `slot ${event.player.slot}` : '',
      event.durationMs !== undefined ? `${event.durationMs} ms` : '',
    ].filter(Boolean);
    return parts.length > 0 ? `show(${parts.join(', ')})` : 'show';
  }
  return describeEvent(event as never).replace(/^panel\./, '');
}

const actors: Array<Actor<typeof panelMachine>> = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});

function startPanel(input: PanelStart) {
  const clock = new SimulatedClock();
  const actor = createActor(panelMachine, { input, clock });
  actors.push(actor);
  actor.start();
  return { actor, clock };
}

type Panel = ReturnType<typeof startPanel>;

it('createTestModel refuses the machine (the timed state has an `after`), hence machineModel', () => {
  expect(() => createTestModel(panelMachine)).toThrow(/After events on test machines are not supported/);
});

describe.each<[string, PanelStart]>([
  ['nothing known yet', at(null)],
  ['restored as shown', at(true)],
  ['restored as hidden', at(false)],
  ['restored as shown with 2 s left of a timer', { visible: true, hideAt: NOW + 2_000, now: NOW }],
])('panelMachine, model-based, starting from %s', (_name, input) => {
  const model = machineModel(panelMachine, { input, events: EVENTS as never });
  const paths = model.getShortestPaths();

  it('walks every state', () => {
    const reached = reachedValues(paths);
    const expected = [valueKey('hidden'), valueKey({ shown: 'held' }), valueKey({ shown: 'timed' })];
    if (input.visible === null) expected.push(valueKey('unknown'));
    expect([...reached].sort()).toEqual(expected.sort());
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeModelEvent)}`, async () => {
      let panel: Panel | undefined;
      await walk<PanelSnapshot, ModelEvent>(path as never, {
        start: () => {
          panel = startPanel(input);
          // A restored panel shows its flag at once; an unknown one leaves it out.
          expect(visibleOf(panel.actor.getSnapshot())).toBe(input.visible ?? undefined);
        },
        send: (event, from) => {
          const { actor, clock } = panel as Panel;
          const before = visibleOf(actor.getSnapshot());
          if (event.type === TIMER) {
            // The timer hides the panel after exactly durationMs (or what was left), not a millisecond earlier.
            const delay = from.context.timerMs as number;
            clock.increment(delay - 1);
            expect(actor.getSnapshot().matches({ shown: 'timed' })).toBe(true);
            clock.increment(1);
          } else {
            actor.send(event);
          }
          const after = actor.getSnapshot();
          expect(visibleOf(after), `${describeModelEvent(event)} when ${String(before)}`).toBe(
            specVisible(before, event),
          );
          if (event.type === 'panel.show' && (event.player || event.durationMs !== undefined)) {
            // New content replaces the old: the player asked for and its duration.
            expect(after.context.player).toEqual(event.player ?? null);
            expect(after.context.durationMs).toBe(event.durationMs ?? null);
            expect(after.matches({ shown: event.durationMs !== undefined ? 'timed' : 'held' })).toBe(true);
          }
        },
        check: (expected) => {
          const actual = (panel as Panel).actor.getSnapshot();
          expect(actual.value).toEqual(expected.value);
          expect(actual.context).toEqual(expected.context);
          // A hidden panel forgets what it showed; only a timed panel has a duration.
          if (actual.matches('hidden'))
            expect(actual.context).toMatchObject({ player: null, durationMs: null });
          // A timed panel has a deadline to save, and it is when its timer fires.
          if (actual.matches({ shown: 'timed' })) {
            expect(actual.context.timerMs).toBeGreaterThan(0);
            expect(actual.context.hideAt).toBe(NOW + (actual.context.timerMs as number));
          } else {
            expect(actual.context).toMatchObject({ hideAt: null, timerMs: null });
          }
        },
      });
    });
  }
});

describe('panelMachine, the display timer', () => {
  it('a new duration restarts the timer from the new show', () => {
    const { actor, clock } = startPanel(at(false));
    actor.send({ type: 'panel.show', player: PLAYER_3, durationMs: 3_000, now: NOW });
    clock.increment(2_000);
    actor.send({ type: 'panel.show', player: PLAYER_0, durationMs: 5_000, now: NOW });
    clock.increment(4_999);
    expect(actor.getSnapshot().context.player).toEqual(PLAYER_0);
    expect(actor.getSnapshot().matches('shown')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
  });

  it('a plain show of a timed panel changes nothing: the timer still hides it', () => {
    const { actor, clock } = startPanel(at(false));
    actor.send({ type: 'panel.show', player: PLAYER_3, durationMs: 3_000, now: NOW });
    clock.increment(1_000);
    const timed = actor.getSnapshot();
    actor.send({ type: 'panel.show' });
    expect(actor.getSnapshot()).toBe(timed);
    clock.increment(2_000);
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
  });

  it('hide stops the timer: a later show stays until hidden', () => {
    const { actor, clock } = startPanel(at(null));
    actor.send({ type: 'panel.show', durationMs: 3_000, now: NOW });
    actor.send({ type: 'panel.hide' });
    actor.send({ type: 'panel.show' });
    clock.increment(60_000);
    expect(actor.getSnapshot().matches({ shown: 'held' })).toBe(true);
  });

  it('a show with another player but no duration holds the panel', () => {
    const { actor, clock } = startPanel(at(false));
    actor.send({ type: 'panel.show', player: PLAYER_3, durationMs: 3_000, now: NOW });
    actor.send({ type: 'panel.show', player: PLAYER_0 });
    clock.increment(60_000);
    expect(actor.getSnapshot().matches({ shown: 'held' })).toBe(true);
    expect(actor.getSnapshot().context.player).toEqual(PLAYER_0);
  });

  it('toggle of a timed panel hides it, and the old timer does not fire into a later show', () => {
    const { actor, clock } = startPanel(at(false));
    actor.send({ type: 'panel.show', durationMs: 3_000, now: NOW });
    actor.send({ type: 'panel.toggle' });
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
    actor.send({ type: 'panel.toggle' });
    clock.increment(3_000);
    expect(actor.getSnapshot().matches({ shown: 'held' })).toBe(true);
  });
});

describe('panelMachine, show_* and hide_* do nothing when already so', () => {
  const noOps: Array<[string, PanelStart, PanelEvent]> = [
    ['show of a shown panel', at(true), { type: 'panel.show' }],
    ['hide of a hidden panel', at(false), { type: 'panel.hide' }],
    ['an overlay report that agrees (shown)', at(true), { type: 'panel.report', visible: true }],
    ['an overlay report that agrees (hidden)', at(false), { type: 'panel.report', visible: false }],
  ];
  for (const [name, input, event] of noOps) {
    it(name, () => {
      const { actor } = startPanel(input);
      const before = actor.getSnapshot();
      actor.send(event);
      expect(actor.getSnapshot()).toBe(before);
    });
  }
});

// Regression: the timer of show_player_stats { durationMs } was not saved, so after a restart the
// panel stayed shown for good.
describe('panelMachine, a timed show across a restart', () => {
  it('saves the deadline: a show with a duration hides at now + durationMs', () => {
    const { actor } = startPanel(at(false));
    actor.send({ type: 'panel.show', player: PLAYER_3, durationMs: 8_000, now: NOW });
    expect(actor.getSnapshot().context.hideAt).toBe(NOW + 8_000);
  });

  it('restarted before the deadline, the panel shows for what was left of the timer', () => {
    const { actor, clock } = startPanel({ visible: true, hideAt: NOW + 2_500, now: NOW });
    expect(actor.getSnapshot().matches({ shown: 'timed' })).toBe(true);
    clock.increment(2_499);
    expect(actor.getSnapshot().matches('shown')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
  });

  it('restarted after the deadline (or at it), the panel starts hidden', () => {
    for (const hideAt of [NOW - 1, NOW]) {
      const { actor } = startPanel({ visible: true, hideAt, now: NOW });
      expect(actor.getSnapshot().matches('hidden')).toBe(true);
      expect(actor.getSnapshot().context).toMatchObject({ hideAt: null, timerMs: null });
    }
  });

  it('a deadline saved with a hidden panel means nothing', () => {
    const { actor } = startPanel({ visible: false, hideAt: NOW + 5_000, now: NOW });
    expect(actor.getSnapshot().matches('hidden')).toBe(true);
  });
});
