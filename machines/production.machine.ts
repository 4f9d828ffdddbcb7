import { assign, setup } from 'xstate';
import type { ObserverMode, Position } from './vocabulary.ts';

export type { ObserverMode, Position } from './vocabulary.ts';

export interface OverlaySetting {
  enabled: boolean;
  position: Position;
}

export interface SmartObserverSetting {
  enabled: boolean;
  mode: ObserverMode;
  cinematicEnabled: boolean;
}

export interface ProductionInput {
  sponsorOverlay: OverlaySetting;
  eventBadge: OverlaySetting;
  smartObserver: SmartObserverSetting;
}

export const PRODUCTION_DEFAULTS: ProductionInput = {
  sponsorOverlay: { enabled: false, position: 'bottom-right' },
  eventBadge: { enabled: false, position: 'top-left' },
  smartObserver: { enabled: false, mode: 'suggest', cinematicEnabled: false },
};

export type ProductionEvent =
  | { type: 'production.sponsorOverlay.set'; changes: Partial<OverlaySetting> }
  | { type: 'production.eventBadge.set'; changes: Partial<OverlaySetting> }
  | { type: 'production.smartObserver.set'; changes: Partial<SmartObserverSetting> };

type SettingKey = keyof ProductionInput;

const keyOf = (event: ProductionEvent): SettingKey =>
  event.type === 'production.sponsorOverlay.set'
    ? 'sponsorOverlay'
    : event.type === 'production.eventBadge.set'
      ? 'eventBadge'
      : 'smartObserver';

/** The production overlays and the automatic observer: plain settings that the HUD follows. */
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
        'production.smartObserver.set': { guard: 'changesSetting', actions: 'applyChanges' },
      },
    },
  },
});
