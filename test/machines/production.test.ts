import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from 'xstate';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { ProductionEvent, ProductionInput } from '../../machines/production.machine.ts';
import { PRODUCTION_DEFAULTS, productionMachine } from '../../machines/production.machine.ts';
import { listedAndHandled, pathName, walk } from '../helpers/model.ts';

const NOTHING_ON_AIR = {
  panels: { scoreboard: false, veto: false, stats: false, radar: false, overlay: false },
  scene: null,
};

const EVENTS: ProductionEvent[] = [
  { type: 'production.sponsorOverlay.set', changes: { enabled: true } },
  { type: 'production.sponsorOverlay.set', changes: { position: 'top-center' } },
  { type: 'production.sponsorOverlay.set', changes: { enabled: false, position: 'bottom-right' } },
  { type: 'production.eventBadge.set', changes: { enabled: true, position: 'bottom-left' } },
  { type: 'production.eventBadge.set', changes: { enabled: false, position: undefined } },
  { type: 'production.feed.clean', onAir: NOTHING_ON_AIR },
  {
    type: 'production.feed.clean',
    onAir: { panels: { ...NOTHING_ON_AIR.panels, scoreboard: true }, scene: 'versus' },
  },
  { type: 'production.feed.restore' },
];

type SetEvent = Extract<ProductionEvent, { changes: unknown }>;
const keyOf = (event: SetEvent) => event.type.split('.')[1] as 'sponsorOverlay' | 'eventBadge';

const describeModelEvent = (event: ProductionEvent) =>
  'changes' in event
    ? `${keyOf(event)} ${JSON.stringify(event.changes)}`
    : `${event.type}${'onAir' in event ? ` ${JSON.stringify(event.onAir)}` : ''}`;

/**
 * The settings after an event, as docs/api.md says: a set_* changes the fields sent; a clean feed
 * with anything on air records it (its overlays with it) and turns the overlays off, with nothing on
 * air keeps what it holds; a restore turns the recorded overlays back on and forgets the record.
 */
function specProduction(before: ProductionInput, event: ProductionEvent): ProductionInput {
  if (event.type === 'production.feed.clean') {
    const anything =
      before.sponsorOverlay.enabled ||
      before.eventBadge.enabled ||
      event.onAir.scene !== null ||
      Object.values(event.onAir.panels).includes(true);
    if (!anything) return before;
    return {
      sponsorOverlay: { ...before.sponsorOverlay, enabled: false },
      eventBadge: { ...before.eventBadge, enabled: false },
      cleanFeed: {
        ...event.onAir,
        sponsorOverlay: before.sponsorOverlay.enabled,
        eventBadge: before.eventBadge.enabled,
      },
    };
  }
  if (event.type === 'production.feed.restore') {
    if (!before.cleanFeed) return before;
    return {
      sponsorOverlay: { ...before.sponsorOverlay, enabled: before.cleanFeed.sponsorOverlay },
      eventBadge: { ...before.eventBadge, enabled: before.cleanFeed.eventBadge },
      cleanFeed: null,
    };
  }
  const key = keyOf(event);
  const sent = Object.fromEntries(Object.entries(event.changes).filter(([, value]) => value !== undefined));
  return { ...before, [key]: { ...before[key], ...sent } };
}

const actors: Array<Actor<typeof productionMachine>> = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});

function startProduction(input: ProductionInput = structuredClone(PRODUCTION_DEFAULTS)) {
  const actor = createActor(productionMachine, { input });
  actors.push(actor);
  actor.start();
  return actor;
}

describe('productionMachine, model-based', () => {
  const model = createTestModel(productionMachine, {
    input: structuredClone(PRODUCTION_DEFAULTS),
    events: EVENTS,
    filterEvents: listedAndHandled(EVENTS),
  });
  const paths = model.getShortestPaths();

  it('walks every combination the listed commands can make', () => {
    const settings = new Set(
      paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.context))),
    );
    // Without a clean feed: sponsor overlay enabled x position (2 x 2); event badge: defaults, enabled
    // at bottom-left, disabled at bottom-left. The smart observer's settings are the observer actor's
    // (test/machines/observer.test.ts). With a record held, more: each path's settings are checked below.
    const withoutRecord = [...settings].filter((context) => JSON.parse(context).cleanFeed === null);
    expect(withoutRecord.length).toBe(4 * 3);
    expect(settings.size).toBeGreaterThan(4 * 3);
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeModelEvent)}`, async () => {
      let actor: Actor<typeof productionMachine> | undefined;
      await walk(path, {
        start: () => {
          actor = startProduction();
        },
        send: (event) => {
          const production = actor as Actor<typeof productionMachine>;
          const before = production.getSnapshot().context;
          production.send(event);
          expect(production.getSnapshot().context).toEqual(specProduction(before, event));
        },
        check: (expected) => {
          const actual = (actor as Actor<typeof productionMachine>).getSnapshot();
          expect(actual.value).toBe('live');
          expect(actual.context).toEqual(expected.context);
        },
      });
    });
  }
});

describe('productionMachine, a command that changes nothing keeps the same snapshot', () => {
  const noOps: Array<[string, ProductionEvent]> = [
    ['the current value again', { type: 'production.sponsorOverlay.set', changes: { enabled: false } }],
    [
      'only undefined fields',
      { type: 'production.sponsorOverlay.set', changes: { enabled: undefined, position: undefined } },
    ],
    ['no field', { type: 'production.eventBadge.set', changes: {} }],
    ['a clean feed with nothing on air', { type: 'production.feed.clean', onAir: NOTHING_ON_AIR }],
    ['a restore with nothing recorded', { type: 'production.feed.restore' }],
  ];
  for (const [name, event] of noOps) {
    it(name, () => {
      const actor = startProduction();
      const before = actor.getSnapshot();
      actor.send(event);
      expect(actor.getSnapshot()).toBe(before);
    });
  }

  it('one setting changing leaves the others as they were', () => {
    const actor = startProduction();
    actor.send({ type: 'production.eventBadge.set', changes: { enabled: true } });
    expect(actor.getSnapshot().context).toEqual({
      ...PRODUCTION_DEFAULTS,
      eventBadge: { ...PRODUCTION_DEFAULTS.eventBadge, enabled: true },
    });
  });
});
