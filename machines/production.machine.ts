import { assign, setup } from 'xstate';
import type { Position } from './vocabulary.ts';

export type { ObserverMode, Position } from './vocabulary.ts';

export interface OverlaySetting {
  enabled: boolean;
  position: Position;
}

/** The smart observer's settings live in the observer actor (observer.machine.ts), their one owner. */
export interface ProductionInput {
  sponsorOverlay: OverlaySetting;
  eventBadge: OverlaySetting;
}

export const PRODUCTION_DEFAULTS: ProductionInput = {
  sponsorOverlay: { enabled: false, position: 'bottom-right' },
  eventBadge: { enabled: false, position: 'top-left' },
};

export type ProductionEvent =
  | { type: 'production.sponsorOverlay.set'; changes: Partial<OverlaySetting> }
  | { type: 'production.eventBadge.set'; changes: Partial<OverlaySetting> };

type SettingKey = keyof ProductionInput;

const keyOf = (event: ProductionEvent): SettingKey =>
  event.type === 'production.sponsorOverlay.set' ? 'sponsorOverlay' : 'eventBadge';

/** The production overlays: plain settings that the HUD follows. */
export const productionMachine = setup({
  types: {} as { context: ProductionInput; input: ProductionInput; events: ProductionEvent },
  guards: {
    changesSetting: ({ context, event }) => {
      const current = context[keyOf(event)] as unknown as Record<string, unknown>;
      return Object.entries(event.changes).some(
        ([field, value]) => value !== undefined && current[field] !== value,
      );
    },
  },
  actions: {
    applyChanges: assign(({ context, event }) => {
      const key = keyOf(event);
      const defined = Object.fromEntries(
        Object.entries(event.changes).filter(([, value]) => value !== undefined),
      );
      return { [key]: { ...context[key], ...defined } };
    }),
  },
}).createMachine({
  id: 'production',
  context: ({ input }) => input,
  initial: 'live',
  states: {
    live: {
      description: 'Settings apply at once on the HUD',
      on: {
        'production.sponsorOverlay.set': { guard: 'changesSetting', actions: 'applyChanges' },
        'production.eventBadge.set': { guard: 'changesSetting', actions: 'applyChanges' },
      },
    },
  },
});
