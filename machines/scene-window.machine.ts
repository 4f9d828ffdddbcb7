import { assign, setup } from 'xstate';
import type { Scene } from './vocabulary.ts';

export type { Scene } from './vocabulary.ts';

export interface SceneWindowInput {
  scene: Scene | null;
}

export type SceneWindowEvent = { type: 'scene.show'; scene: Scene } | { type: 'scene.hide' };

/** The full-screen scene window: closed, or open with one scene. */
export const sceneWindowMachine = setup({
  types: {} as { context: SceneWindowInput; input: SceneWindowInput; events: SceneWindowEvent },
  guards: {
    hasScene: ({ context }) => context.scene !== null,
    isOtherScene: ({ context, event }) => event.type === 'scene.show' && event.scene !== context.scene,
  },
  actions: {
    setScene: assign({ scene: ({ event }) => (event.type === 'scene.show' ? event.scene : null) }),
    clearScene: assign({ scene: null }),
  },
}).createMachine({
  id: 'sceneWindow',
  context: ({ input }) => ({ scene: input.scene }),
  initial: 'closed',
  states: {
    closed: {
      always: { guard: 'hasScene', target: 'open' },
      on: { 'scene.show': { target: 'open', actions: 'setScene' } },
    },
    open: {
      description: 'Shows context.scene full screen',
      on: {
        'scene.show': { guard: 'isOtherScene', actions: 'setScene' },
        'scene.hide': { target: 'closed', actions: 'clearScene' },
      },
    },
  },
});
