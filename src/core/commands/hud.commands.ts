import type { PlayerStatsRequest } from '../../../machines/panel.machine.ts';
import type { Panel } from '../../../machines/panels.ts';
import { conflict, invalidPayload } from '../../protocol/errors.ts';
import { PANELS } from '../../protocol/panels.ts';
import type { LookedUpPlayer } from '../../stats/faceit-stats.ts';
import type { AnyCommand, CommandContext } from './command.ts';
import { defineCommand } from './command.ts';

/**
 * The player set in the application for toggle_stats and show_stats: the operator's pick, else the
 * observed player, with the game's live values; null without game data.
 */
export function livePlayer({ game }: CommandContext) {
  const slot = game.statsSlot();
  if (slot === null) return null;
  return { request: { slot, provider: 'live' as const }, stats: game.playerInSlot(slot) };
}

/** toggle_*, show_* and hide_* for every panel: show and hide do nothing when already so. */
const panelCommands: AnyCommand[] = PANELS.flatMap((panel: Panel) => {
  const { id, command: name } = panel;
  return [
    defineCommand(`toggle_${name}`, {
      run: (context) => {
        const { hud } = context;
        const player = id === 'stats' ? livePlayer(context) : null;
        // Opening the stats shows the player set in the application, with the game's live values.
        if (player && !hud.snapshot(id).matches('shown'))
          hud.send(id, { type: 'panel.show', player: player.request });
        else hud.send(id, { type: 'panel.toggle' });
        return player ? { player: player.request, stats: player.stats } : {};
      },
    }),
    defineCommand(`show_${name}`, {
      run: (context) => {
        const player = id === 'stats' ? livePlayer(context) : null;
        context.hud.send(
          id,
          player ? { type: 'panel.show', player: player.request } : { type: 'panel.show' },
        );
        return player ? { player: player.request, stats: player.stats } : {};
      },
    }),
    defineCommand(`hide_${name}`, {
      run: ({ hud }) => {
        hud.send(id, { type: 'panel.hide' });
        return {};
      },
    }),
  ];
});

/** The match a platform's figures are kept for: the two teams (set_teams, a veto, an import). */
function matchOf({ hud }: CommandContext): string {
  const { teamA, teamB } = hud.snapshot('match').context;
  return JSON.stringify([teamA?.name ?? null, teamB?.name ?? null]);
}

/** Every player of the game data, for the lookups that run in the background. */
function everyLivePlayer({ game }: CommandContext): LookedUpPlayer[] {
  return Array.from({ length: 10 }, (_, slot) => slot).flatMap((slot) => {
    const player = game.playerInSlot(slot);
    return player ? [{ steamid: player.steamid, name: player.name }] : [];
  });
}

/** Why a slot has nothing the provider can show: no player there, or none in the game data. */
function emptySlot({ hud }: CommandContext, slot: number): string {
  const named = hud.snapshot('host').context.roster.find((entry) => entry.slot === slot)?.name;
  return named
    ? `slot ${slot} (${named}) is not in the game data: the stats come from the game's player in that slot (Integrations > Game)`
    : `slot ${slot} has no player: no game data names one there (Integrations > Game)`;
}

function showStats(
  { hud }: CommandContext,
  player: PlayerStatsRequest,
  durationMs: number | undefined,
): void {
  hud.send(
    'stats',
    durationMs === undefined
      ? { type: 'panel.show', player }
      : { type: 'panel.show', player, durationMs, now: Date.now() },
  );
}

/**
 * Nothing the viewers cannot be shown reaches the panel: a provider without a source and a slot
 * without a player are refused, and a platform's figures are looked up before the panel opens.
 */
const showPlayerStats = defineCommand('show_player_stats', {
  run: (context, { slot, provider, durationMs, name }) => {
    const request: PlayerStatsRequest = {
      slot,
      ...(provider ? { provider } : {}),
      ...(name !== undefined ? { name } : {}),
    };
    const platform = provider === 'platform_a' || provider === 'platform_b' ? provider : null;
    const refused = platform ? context.stats.refusal(platform) : null;
    if (refused) throw refused;
    const live = context.game.playerInSlot(slot);
    if (!live) throw conflict(emptySlot(context, slot));
    if (!platform && context.game.live().map === null) {
      throw conflict(`no live stats for slot ${slot} (${live.name}) yet: the game data has no map`);
    }
    if (!platform) {
      showStats(context, request, durationMs);
      return { stats: live };
    }
    // The asked player first; the rest of the game's players follow in the background, so that the
    // next ones are at hand. The lookup ends outside the command's batch (the dispatcher commits it).
    const match = matchOf(context);
    const figures = context.stats.figures(platform, { steamid: live.steamid, name: live.name }, match);
    context.stats.prefetch(platform, everyLivePlayer(context), match);
    return figures.then((found) => {
      showStats(context, { ...request, platform: found }, durationMs);
      return { platform: found };
    });
  },
});

const reloadOverlay = defineCommand('reload_overlay', {
  run: ({ hud, notices }) => {
    if (!hud.snapshot('overlay').matches('shown')) {
      throw conflict('the HUD overlay window is closed: open it with show_overlay first');
    }
    notices.emit('overlay.reload', {});
    return {};
  },
});

const setColorPreset = defineCommand('set_color_preset', {
  run: ({ hud }, { presetId }) => {
    const { presets } = hud.snapshot('host').context;
    if (presets.length === 0) {
      throw conflict('no colour presets are known yet: open the HUD overlay once so it reports them');
    }
    const preset = presets.find((candidate) => candidate.id === presetId);
    if (!preset) {
      throw invalidPayload(
        `presetId: no preset "${presetId}"; known: ${presets.map((p) => p.id).join(', ')}`,
      );
    }
    hud.send('host', { type: 'preset.apply', presetId });
    return { preset };
  },
});

export const hudCommands: AnyCommand[] = [...panelCommands, showPlayerStats, reloadOverlay, setColorPreset];
