import { assign, setup } from 'xstate';
import type { Panel } from './panels.ts';
import type { Position, Scene } from './vocabulary.ts';

export type { ObserverMode, Position } from './vocabulary.ts';

export interface OverlaySetting {
  enabled: boolean;
  position: Position;
}

/**
 * What clean_feed took off the air, for restore_feed to bring back: each panel of machines/panels.ts
 * by its command word, the scene window's scene, and the two overlays this machine owns.
 */
export interface FeedRecord {
  panels: Record<Panel['command'], boolean>;
  scene: Scene | null;
  sponsorOverlay: boolean;
  eventBadge: boolean;
}

/** The smart observer's settings live in the observer actor (observer.machine.ts), their one owner. */
export interface ProductionInput {
  sponsorOverlay: OverlaySetting;
  eventBadge: OverlaySetting;
  /** What restore_feed brings back; null when the feed was not cleaned (or was restored since). */
  cleanFeed: FeedRecord | null;
}

export const PRODUCTION_DEFAULTS: ProductionInput = {
  sponsorOverlay: { enabled: false, position: 'bottom-right' },
  eventBadge: { enabled: false, position: 'top-left' },
  cleanFeed: null,
};

export type ProductionEvent =
  | { type: 'production.sponsorOverlay.set'; changes: Partial<OverlaySetting> }
  | { type: 'production.eventBadge.set'; changes: Partial<OverlaySetting> }
  /** The panels and the scene on air as the command found them; the overlays are this machine's. */
  | { type: 'production.feed.clean'; onAir: Pick<FeedRecord, 'panels' | 'scene'> }
  | { type: 'production.feed.restore' };

type SettingKey = 'sponsorOverlay' | 'eventBadge';

const keyOf = (event: ProductionEvent): SettingKey =>
  event.type === 'production.sponsorOverlay.set' ? 'sponsorOverlay' : 'eventBadge';

/**
 * Whether anything is on air now. A clean feed with nothing on air keeps the record it holds: a
 * second clean_feed (a double press) must not make the restore bring back an empty feed.
 */
export function somethingOnAir(context: ProductionInput, onAir: Pick<FeedRecord, 'panels' | 'scene'>) {
  return (
    context.sponsorOverlay.enabled ||
    context.eventBadge.enabled ||
    onAir.scene !== null ||
    Object.values(onAir.panels).some(Boolean)
  );
}

/** The production overlays: plain settings that the HUD follows, and the clean feed's record. */
export const productionMachine = setup({
  types: {} as { context: ProductionInput; input: ProductionInput; events: ProductionEvent },
  guards: {
    changesSetting: ({ context, event }) => {
      if (event.type !== 'production.sponsorOverlay.set' && event.type !== 'production.eventBadge.set')
        return false;
      const current = context[keyOf(event)] as unknown as Record<string, unknown>;
      return Object.entries(event.changes).some(
        ([field, value]) => value !== undefined && current[field] !== value,
      );
    },
    isAnythingOnAir: ({ context, event }) =>
      event.type === 'production.feed.clean' && somethingOnAir(context, event.onAir),
    hasCleanFeed: ({ context }) => context.cleanFeed !== null,
  },
  actions: {
    applyChanges: assign(({ context, event }) => {
      if (event.type !== 'production.sponsorOverlay.set' && event.type !== 'production.eventBadge.set')
        return {};
      const key = keyOf(event);
      const defined = Object.fromEntries(
        Object.entries(event.changes).filter(([, value]) => value !== undefined),
      );
      return { [key]: { ...context[key], ...defined } };
    }),
    recordFeed: assign(({ context, event }) => {
      if (event.type !== 'production.feed.clean') return {};
      return {
        cleanFeed: {
          panels: { ...event.onAir.panels },
          scene: event.onAir.scene,
          sponsorOverlay: context.sponsorOverlay.enabled,
          eventBadge: context.eventBadge.enabled,
        },
        sponsorOverlay: { ...context.sponsorOverlay, enabled: false },
        eventBadge: { ...context.eventBadge, enabled: false },
      };
    }),
    restoreOverlays: assign(({ context }) => {
      const record = context.cleanFeed;
      if (!record) return {};
      return {
        cleanFeed: null,
        sponsorOverlay: { ...context.sponsorOverlay, enabled: record.sponsorOverlay },
        eventBadge: { ...context.eventBadge, enabled: record.eventBadge },
      };
    }),
  },
}).createMachine({
  id: 'production',
  context: ({ input }) => input,
  initial: 'live',
  states: {
    live: {
      description:
        'Settings apply at once on the HUD; clean_feed records what was on air (when anything was) and restore_feed brings it back',
      on: {
        'production.sponsorOverlay.set': { guard: 'changesSetting', actions: 'applyChanges' },
        'production.eventBadge.set': { guard: 'changesSetting', actions: 'applyChanges' },
        'production.feed.clean': { guard: 'isAnythingOnAir', actions: 'recordFeed' },
        'production.feed.restore': { guard: 'hasCleanFeed', actions: 'restoreOverlays' },
      },
    },
  },
});
