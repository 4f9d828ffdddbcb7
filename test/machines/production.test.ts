import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from 'xstate';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { ProductionEvent, ProductionInput } from '../../machines/production.machine.ts';
import { PRODUCTION_DEFAULTS, productionMachine } from '../../machines/production.machine.ts';
import { listedAndHandled, pathName, walk } from '../helpers/model.ts';

const EVENTS: ProductionEvent[] = [
  { type: 'production.sponsorOverlay.set', changes: { enabled: true } },
  { type: 'production.sponsorOverlay.set', changes: { position: 'top-center' } },
  { type: 'production.sponsorOverlay.set', changes: { enabled: false, position: 'bottom-right' } },
  { type: 'production.eventBadge.set', changes: { enabled: true, position: 'bottom-left' } },
  { type: 'production.eventBadge.set', changes: { enabled: false, position: undefined } },
];

const keyOf = (event: ProductionEvent) => event.type.split('.')[1] as keyof ProductionInput;

const describeModelEvent = (event: ProductionEvent) => `${keyOf(event)} ${JSON.stringify(event.changes)}`;

/** The settings after a set_* command: the fields sent change, the fields left out stay. */
function specProduction(before: ProductionInput, event: ProductionEvent): ProductionInput {
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
    // sponsor overlay: enabled x position (2 x 2); event badge: defaults, enabled at bottom-left, disabled at
    // bottom-left. The smart observer's settings are the observer actor's (test/machines/observer.test.ts).
    expect(settings.size).toBe(4 * 3);
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
