import { afterEach, describe, expect, it } from 'vitest';
import type { Actor, SnapshotFrom } from 'xstate';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { Scene, SceneWindowEvent, SceneWindowInput } from '../../machines/scene-window.machine.ts';
import { sceneWindowMachine } from '../../machines/scene-window.machine.ts';
import { SCENES } from '../../machines/vocabulary.ts';
import { listedAndHandled, pathName, reachedValues, valueKey, walk } from '../helpers/model.ts';

type SceneSnapshot = SnapshotFrom<typeof sceneWindowMachine>;

const EVENTS: SceneWindowEvent[] = [
  ...SCENES.map((scene): SceneWindowEvent => ({ type: 'scene.show', scene })),
  { type: 'scene.hide' },
];

const describeModelEvent = (event: SceneWindowEvent) =>
  event.type === 'scene.show' ? `show ${event.scene}` : 'hide';

/** senScene of the HUD state: the scene shown, null when the window is closed. */
const senSceneOf = (snapshot: SceneSnapshot): Scene | null =>
  snapshot.matches('open') ? snapshot.context.scene : null;

const actors: Array<Actor<typeof sceneWindowMachine>> = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});

function startWindow(input: SceneWindowInput) {
  const actor = createActor(sceneWindowMachine, { input });
  actors.push(actor);
  actor.start();
  return actor;
}

describe.each<[string, SceneWindowInput]>([
  ['closed', { scene: null }],
  ['restored open on talents', { scene: 'talents' }],
])('sceneWindowMachine, model-based, starting %s', (_name, input) => {
  const model = createTestModel(sceneWindowMachine, {
    input,
    events: EVENTS,
    filterEvents: listedAndHandled(EVENTS),
  });
  const paths = model.getShortestPaths();

  it('walks closed and open with every scene', () => {
    const scenes = new Set(paths.flatMap((path) => path.steps.map((step) => senSceneOf(step.state))));
    expect(scenes).toEqual(new Set([null, ...SCENES]));
    expect(reachedValues(paths)).toEqual(new Set([valueKey('closed'), valueKey('open')]));
  });

  for (const [index, path] of paths.entries()) {
    it(`path ${index}: ${pathName(path, describeModelEvent)}`, async () => {
      let actor: Actor<typeof sceneWindowMachine> | undefined;
      await walk(path, {
        start: () => {
          actor = startWindow(input);
          expect(senSceneOf(actor.getSnapshot())).toBe(input.scene);
        },
        send: (event) => {
          const window = actor as Actor<typeof sceneWindowMachine>;
          window.send(event);
          // show_sen_scene opens the window on that scene (or changes it); hide_sen_scene closes it.
          expect(senSceneOf(window.getSnapshot())).toBe(event.type === 'scene.show' ? event.scene : null);
        },
        check: (expected) => {
          const actual = (actor as Actor<typeof sceneWindowMachine>).getSnapshot();
          expect(actual.value).toEqual(expected.value);
          expect(actual.context).toEqual(expected.context);
          expect(actual.matches('open')).toBe(actual.context.scene !== null);
        },
      });
    });
  }
});

describe('sceneWindowMachine, commands that change nothing', () => {
  it('showing the scene already shown keeps the same snapshot', () => {
    const actor = startWindow({ scene: 'versus' });
    const before = actor.getSnapshot();
    actor.send({ type: 'scene.show', scene: 'versus' });
    expect(actor.getSnapshot()).toBe(before);
  });

  it('hiding a closed window keeps the same snapshot', () => {
    const actor = startWindow({ scene: null });
    const before = actor.getSnapshot();
    actor.send({ type: 'scene.hide' });
    expect(actor.getSnapshot()).toBe(before);
  });
});
