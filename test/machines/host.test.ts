import { afterEach, describe, expect, it } from 'vitest';
import type { Actor, SnapshotFrom } from 'xstate';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type {
  ColorPreset,
  HostEvent,
  HostInput,
  MapFigures,
  RosterEntry,
} from '../../machines/host.machine.ts';
import { hostMachine, isMainWindowReady } from '../../machines/host.machine.ts';
import { listedAndHandled, pathName, reachedValues, valueKey, walk } from '../helpers/model.ts';

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
  const model = createTestModel(hostMachine, {
    input,
    events: EVENTS,
    filterEvents: listedAndHandled(EVENTS),
  });
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
