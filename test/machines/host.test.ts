import { afterEach, describe, expect, it } from 'vitest';
import type { Actor, SnapshotFrom } from 'xstate';
import { createActor, SimulatedClock } from 'xstate';
import type {
  ColorPreset,
  HostEvent,
  HostInput,
  MapFigures,
  RosterEntry,
} from '../../machines/host.machine.ts';
import { hostMachine, isMainWindowReady, MAIN_WINDOW_GRACE_MS } from '../../machines/host.machine.ts';
import { machineModel, pathName, reachedValues, valueKey, walk } from '../helpers/model.ts';

type HostSnapshot = SnapshotFrom<typeof hostMachine>;

const PRESETS: ColorPreset[] = [
  { id: 'default', name: 'Default' },
  { id: 'major', name: 'Major 2026' },
];
const ROSTER: RosterEntry[] = [
  { slot: 1, name: 'ropz' },
  { slot: 0, name: 'ZywOo' },
];

/** ADR's figures after four rounds of de_dust2 (game data sends them when a round is over). */
const FIGURES: MapFigures = { map: 'de_dust2', round: 4, rounds: 4, damage: { '76561198016255205': 312 } };

const EVENTS: HostEvent[] = [
  { type: 'host.report', mainWindowOpen: true },
  { type: 'host.report', mainWindowOpen: false },
  { type: 'host.report', signedIn: true },
  { type: 'host.report', signedIn: false },
  { type: 'host.report', mainWindowOpen: true, signedIn: true, subscriptionActive: true },
  { type: 'host.report', subscriptionActive: false },
  { type: 'host.roster', roster: ROSTER },
  { type: 'host.roster', roster: [] },
  { type: 'host.mapFigures', figures: FIGURES },
  { type: 'host.mapFigures', figures: null },
  { type: 'host.gameReceiving', receiving: true },
  { type: 'host.gameReceiving', receiving: false },
  { type: 'host.presets', presets: PRESETS },
  { type: 'preset.apply', presetId: 'major' },
  { type: 'preset.apply', presetId: 'default' },
];

function describeModelEvent(event: HostEvent): string {
  switch (event.type) {
    case 'host.report': {
      const { type: _, ...flags } = event;
      return `report ${JSON.stringify(flags)}`;
    }
    case 'host.roster':
      return `roster of ${event.roster.length}`;
    case 'host.mapFigures':
      return event.figures ? `figures of ${event.figures.rounds} rounds` : 'no figures';
    case 'host.gameReceiving':
      return event.receiving ? 'game data arrives' : 'game data stopped';
    case 'host.presets':
      return `${event.presets.length} presets`;
    case 'preset.apply':
      return `apply ${event.presetId}`;
    case 'host.pagesGone':
      return 'the last page went';
  }
}

/** What the dispatcher reads: whether commands flagged "Main window" may run. */
function mainWindowStateOf(snapshot: HostSnapshot): 'closed' | 'signedOut' | 'ready' {
  if (snapshot.matches('mainWindowClosed')) return 'closed';
  return snapshot.matches({ mainWindowOpen: 'ready' }) ? 'ready' : 'signedOut';
}

/** The host after an event, from what the application reported: reported flags win, others stay. */
function specHost(before: HostInput, event: HostEvent): HostInput {
  switch (event.type) {
    case 'host.report':
      return {
        ...before,
        mainWindowOpen: event.mainWindowOpen ?? before.mainWindowOpen,
        signedIn: event.signedIn ?? before.signedIn,
        subscriptionActive: event.subscriptionActive ?? before.subscriptionActive,
      };
    case 'host.roster':
      return { ...before, roster: event.roster };
    case 'host.mapFigures':
      return { ...before, mapFigures: event.figures };
    case 'host.gameReceiving':
      return { ...before, gameReceiving: event.receiving };
    case 'host.presets':
      return { ...before, presets: event.presets };
    case 'preset.apply':
      return { ...before, colorPresetId: event.presetId };
    // The window closes only when the grace period runs out (tested below with a simulated clock).
    case 'host.pagesGone':
      return before;
  }
}

const actors: Array<Actor<typeof hostMachine>> = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});

function startHost(input: HostInput) {
  const actor = createActor(hostMachine, { input });
  actors.push(actor);
  actor.start();
  return actor;
}

const APP_STARTING: HostInput = {
  mainWindowOpen: false,
  signedIn: false,
  subscriptionActive: false,
  presets: [],
  colorPresetId: null,
  roster: [],
  mapFigures: null,
  gameReceiving: false,
};

describe.each<[string, HostInput]>([
  ['the application starting', APP_STARTING],
  ['headless (open and signed in)', { ...APP_STARTING, mainWindowOpen: true, signedIn: true }],
])('hostMachine, model-based, from %s', (_name, input) => {
  // machineModel, not createTestModel: the machine has an `after` (the grace period), which
  // createTestModel refuses; the walk sends the same listed events and only those a state takes.
  const model = machineModel(hostMachine, { input, events: EVENTS });
  const paths = model.getShortestPaths();

  it('walks the three main-window states', () => {
    expect(reachedValues(paths)).toEqual(
      new Set([
        valueKey('mainWindowClosed'),
        valueKey({ mainWindowOpen: 'signedOut' }),
        valueKey({ mainWindowOpen: 'ready' }),
      ]),
    );
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeModelEvent)}`, async () => {
      let actor: Actor<typeof hostMachine> | undefined;
      await walk(path, {
        start: () => {
          actor = startHost(input);
        },
        send: (event) => {
          const host = actor as Actor<typeof hostMachine>;
          const before = host.getSnapshot().context;
          host.send(event);
          expect(host.getSnapshot().context).toEqual(specHost(before, event));
        },
        check: (expected) => {
          const actual = (actor as Actor<typeof hostMachine>).getSnapshot();
          expect(actual.value).toEqual(expected.value);
          expect(actual.context).toEqual(expected.context);
          // Main-window commands run exactly when the window is open and signed in.
          const { mainWindowOpen, signedIn } = actual.context;
          expect(mainWindowStateOf(actual)).toBe(
            mainWindowOpen ? (signedIn ? 'ready' : 'signedOut') : 'closed',
          );
          expect(isMainWindowReady(actual.context)).toBe(mainWindowStateOf(actual) === 'ready');
        },
      });
    });
  }
});

describe('hostMachine, reports that change nothing keep the same snapshot', () => {
  const noOps: Array<[string, HostEvent]> = [
    ['a report of the current flags', { type: 'host.report', mainWindowOpen: true, signedIn: true }],
    ['an empty report', { type: 'host.report' }],
    [
      'the same roster again (a new array)',
      { type: 'host.roster', roster: ROSTER.map((entry) => ({ ...entry })) },
    ],
    [
      'the same preset list again',
      { type: 'host.presets', presets: PRESETS.map((preset) => ({ ...preset })) },
    ],
    ['the active preset again', { type: 'preset.apply', presetId: 'major' }],
  ];
  for (const [name, event] of noOps) {
    it(name, () => {
      const actor = startHost({
        ...APP_STARTING,
        mainWindowOpen: true,
        signedIn: true,
        presets: PRESETS,
        colorPresetId: 'major',
        roster: ROSTER,
      });
      const before = actor.getSnapshot();
      actor.send(event);
      expect(actor.getSnapshot()).toBe(before);
    });
  }

  it('a roster in another order is a change', () => {
    const actor = startHost({ ...APP_STARTING, roster: ROSTER });
    actor.send({ type: 'host.roster', roster: [...ROSTER].reverse() });
    expect(actor.getSnapshot().context.roster.map((entry) => entry.slot)).toEqual([0, 1]);
  });
});

describe('hostMachine, model-based with the last page going and the grace period running out', () => {
  const TIMER = 'xstate.after.mainWindowGrace.host.mainWindowOpen.closing';
  const timer = { type: TIMER } as unknown as HostEvent;
  // The window's events only: the roster, figures and presets are walked above and do not meet the timer.
  const windowEvents = EVENTS.filter((event) => event.type === 'host.report');
  const events: HostEvent[] = [...windowEvents, { type: 'host.pagesGone' }, timer];
  const model = machineModel(hostMachine, { input: APP_STARTING, events });
  const paths = model.getShortestPaths();

  it('walks the closing state too', () => {
    expect(reachedValues(paths)).toContain(valueKey({ mainWindowOpen: 'closing' }));
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, (event) => ((event.type as string) === TIMER ? 'the grace period runs out' : describeModelEvent(event)))}`, async () => {
      const clock = new SimulatedClock();
      let actor: Actor<typeof hostMachine> | undefined;
      await walk(path, {
        start: () => {
          actor = createActor(hostMachine, { input: APP_STARTING, clock });
          actors.push(actor);
          actor.start();
        },
        send: (event) => {
          const host = actor as Actor<typeof hostMachine>;
          if ((event.type as string) !== TIMER) return void host.send(event);
          // Closed exactly the grace period after the last page went, not a millisecond earlier.
          clock.increment(MAIN_WINDOW_GRACE_MS - 1);
          expect(isMainWindowReady(host.getSnapshot().context)).toBe(host.getSnapshot().context.signedIn);
          clock.increment(1);
        },
        check: (expected) => {
          const actual = (actor as Actor<typeof hostMachine>).getSnapshot();
          expect(actual.value).toEqual(expected.value);
          expect(actual.context).toEqual(expected.context);
        },
      });
    });
  }
});

describe('hostMachine, the grace period after the last page goes (an after, on a simulated clock)', () => {
  const OPEN: HostInput = { ...APP_STARTING, mainWindowOpen: true, signedIn: true };
  const startOn = (clock: SimulatedClock) => {
    const actor = createActor(hostMachine, { input: OPEN, clock });
    actors.push(actor);
    return actor.start();
  };

  it('keeps the window open and signed in until the grace period runs out, then closes it', () => {
    const clock = new SimulatedClock();
    const actor = startOn(clock);
    actor.send({ type: 'host.pagesGone' });
    clock.increment(MAIN_WINDOW_GRACE_MS - 1);
    expect(isMainWindowReady(actor.getSnapshot().context)).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('mainWindowClosed');
    expect(actor.getSnapshot().context).toMatchObject({ mainWindowOpen: false, signedIn: false });
  });

  it('a page that comes back within it (a reload) keeps the window open', () => {
    const clock = new SimulatedClock();
    const actor = startOn(clock);
    actor.send({ type: 'host.pagesGone' });
    clock.increment(MAIN_WINDOW_GRACE_MS - 1);
    actor.send({ type: 'host.report', mainWindowOpen: true, signedIn: true });
    clock.increment(MAIN_WINDOW_GRACE_MS * 2);
    expect(actor.getSnapshot().value).toEqual({ mainWindowOpen: 'ready' });
  });
});
