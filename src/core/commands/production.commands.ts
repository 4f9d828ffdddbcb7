import { canSaveReplay } from '../../../machines/obs-connection.machine.ts';
import { configureRefusal } from '../../../machines/observer.machine.ts';
import { panelVisibility } from '../../../machines/panel.machine.ts';
import type { Panel } from '../../../machines/panels.ts';
import type { FeedRecord } from '../../../machines/production.machine.ts';
import { conflict, unavailable } from '../../protocol/errors.ts';
import { PANELS } from '../../protocol/panels.ts';
import { brandingOf } from '../../settings/settings.ts';
import type { AnyCommand, CommandContext } from './command.ts';
import { defineCommand } from './command.ts';
import { livePlayer } from './hud.commands.ts';

const showSenScene = defineCommand('show_sen_scene', {
  run: ({ hud }, { scene }) => {
    hud.send('sceneWindow', { type: 'scene.show', scene });
    return { scene };
  },
});

const hideSenScene = defineCommand('hide_sen_scene', {
  run: ({ hud }) => {
    hud.send('sceneWindow', { type: 'scene.hide' });
    return { scene: null };
  },
});

/** Where the operator app sets the event logo and the sponsors (and the event name). */
const BRANDING_PLACE = 'the operator app (HUD > Event logo and sponsors)';

/**
 * An overlay turned on with nothing to show would put an empty box, or set-up text, on air: turning
 * it on is refused while it has no content. Moving it or turning it off always works; content that
 * goes away later leaves it on and off the air (the overlay draws it only with content).
 */
const setSponsorOverlay = defineCommand('set_sponsor_overlay', {
  run: ({ hud, settings }, changes) => {
    if (changes.enabled === true && brandingOf(settings.current()).sponsors.length === 0) {
      throw conflict(`the sponsor overlay has no sponsor image to show: upload one in ${BRANDING_PLACE}`);
    }
    hud.send('production', { type: 'production.sponsorOverlay.set', changes });
    return hud.snapshot('production').context.sponsorOverlay;
  },
});

const setEventBadge = defineCommand('set_event_badge', {
  run: ({ hud, settings }, changes) => {
    const content =
      brandingOf(settings.current()).eventLogo !== null ||
      hud.snapshot('match').context.eventName.trim() !== '';
    if (changes.enabled === true && !content) {
      throw conflict(
        `the event badge has nothing to show: set the event name (set_event_name) or upload the event logo in ${BRANDING_PLACE}`,
      );
    }
    hud.send('production', { type: 'production.eventBadge.set', changes });
    return hud.snapshot('production').context.eventBadge;
  },
});

/** Where the subscription is switched: the operator app's Observer view, or the application shell. */
export const NO_SUBSCRIPTION =
  'the smart observer needs an active subscription: activate it in the operator app (Integrations > Observer, "Subscription active") or in the application';

const setSmartObserver = defineCommand('set_smart_observer', {
  // The observer actor owns these settings (the production event shows them as smartObserver).
  run: ({ hud }, changes) => {
    if (configureRefusal(hud.snapshot('observer').context, changes)) {
      throw unavailable(NO_SUBSCRIPTION);
    }
    hud.send('observer', { type: 'observer.configure', changes });
    return hud.snapshot('observer').context.settings;
  },
});

const isShown = ({ hud }: CommandContext, panel: Panel) => panelVisibility(hud.snapshot(panel.id)) === true;

/**
 * Clean feed: every panel shown goes off (the HUD overlay window too, which carries the top bar and
 * the players), the scene window closes, and the production actor records what was on air and turns
 * its overlays off. One batch, so the pages see one revision with everything off.
 */
const cleanFeed = defineCommand('clean_feed', {
  run: (context) => {
    const { hud } = context;
    const panels = Object.fromEntries(PANELS.map((panel) => [panel.command, isShown(context, panel)]));
    const scene = hud.snapshot('sceneWindow').context.scene;
    hud.send('production', {
      type: 'production.feed.clean',
      onAir: { panels: panels as FeedRecord['panels'], scene },
    });
    for (const panel of PANELS) if (isShown(context, panel)) hud.send(panel.id, { type: 'panel.hide' });
    hud.send('sceneWindow', { type: 'scene.hide' });
    return { cleanFeed: hud.snapshot('production').context.cleanFeed };
  },
});

/**
 * Restore: the feed becomes exactly the record: what was on air comes back (a panel shown for a time
 * comes back held: its time was cut by the clean feed), what was put on air since goes off. The
 * stats panel opens with the player set in the application, as show_stats does.
 */
const restoreFeed = defineCommand('restore_feed', {
  run: (context) => {
    const { hud } = context;
    const record = hud.snapshot('production').context.cleanFeed;
    if (record === null) {
      throw conflict('nothing to restore: the feed was not cleaned (clean_feed), or it was restored already');
    }
    for (const panel of PANELS) {
      const wanted = record.panels[panel.command];
      if (wanted === isShown(context, panel)) continue;
      if (!wanted) hud.send(panel.id, { type: 'panel.hide' });
      else {
        const player = panel.id === 'stats' ? livePlayer(context) : null;
        hud.send(panel.id, player ? { type: 'panel.show', player: player.request } : { type: 'panel.show' });
      }
    }
    hud.send(
      'sceneWindow',
      record.scene ? { type: 'scene.show', scene: record.scene } : { type: 'scene.hide' },
    );
    hud.send('production', { type: 'production.feed.restore' });
    return { restored: record };
  },
});

const saveReplay = defineCommand('save_replay', {
  run: ({ hud }) => {
    const readiness = canSaveReplay(hud.snapshot('obs'));
    if (readiness === 'not_connected') {
      throw unavailable(
        'OBS is not connected: start OBS and check the WebSocket server settings (Tools > WebSocket Server Settings)',
      );
    }
    if (readiness === 'buffer_inactive') {
      throw conflict("OBS's replay buffer is not running: start it in OBS (Controls > Start Replay Buffer)");
    }
    hud.send('obs', { type: 'obs.replay.save' });
    return { saving: true };
  },
});

export const productionCommands: AnyCommand[] = [
  showSenScene,
  hideSenScene,
  setSponsorOverlay,
  setEventBadge,
  setSmartObserver,
  cleanFeed,
  restoreFeed,
  saveReplay,
];
