import { Type } from '@sinclair/typebox';
import type { PlayerStatsRequest } from '../../../machines/panel.machine.ts';
import type { Panel } from '../../../machines/panels.ts';
import { conflict, invalidPayload } from '../../protocol/errors.ts';
import { PANELS } from '../../protocol/panels.ts';
import { StatsProviderSchema, strict } from '../../protocol/schemas.ts';
import type { LookedUpPlayer } from '../../stats/faceit-stats.ts';
import type { AnyCommand, CommandContext } from './command.ts';
import { defineCommand } from './command.ts';

/**
 * The player set in the application for toggle_stats and show_stats: the operator's pick, else the
 * observed player, with the game's live values; null without game data.
 */
function livePlayer({ game }: CommandContext) {
  const slot = game.statsSlot();
  if (slot === null) return null;
  return { request: { slot, provider: 'live' as const }, stats: game.playerInSlot(slot) };
}

/** toggle_*, show_* and hide_* for every panel: show and hide do nothing when already so. */
const panelCommands: AnyCommand[] = PANELS.flatMap((panel: Panel) => {
  const { id, command: name, stateKey, label } = panel;
  const note = panel.hotkey ? ` (hotkey ${panel.hotkey} by default)` : '';
  return [
    defineCommand({
      id: `toggle_${name}`,
      description: `Shows or hides ${label}${note}.`,
      payload: null,
      needsMainWindow: false,
      stateKeys: [stateKey],
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
    defineCommand({
      id: `show_${name}`,
      description: `Shows ${label}; does nothing if it is already shown.`,
      payload: null,
      needsMainWindow: false,
      stateKeys: [stateKey],
      run: (context) => {
        const player = id === 'stats' ? livePlayer(context) : null;
        context.hud.send(
          id,
          player ? { type: 'panel.show', player: player.request } : { type: 'panel.show' },
        );
        return player ? { player: player.request, stats: player.stats } : {};
      },
    }),
    defineCommand({
      id: `hide_${name}`,
      description: `Hides ${label}; does nothing if it is already hidden.`,
      payload: null,
      needsMainWindow: false,
      stateKeys: [stateKey],
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

const PlayerStatsPayload = Type.Object(
  {
    slot: Type.Integer({ minimum: 0, maximum: 9, description: 'HUD slot: 1 to 9, 0 for the tenth player' }),
    provider: Type.Optional(StatsProviderSchema),
    durationMs: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3_600_000,
        description: 'How long the panel stays open, milliseconds',
      }),
    ),
    name: Type.Optional(Type.String({ maxLength: 64, description: 'A note; not used by the service' })),
  },
  strict,
);

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
const showPlayerStats = defineCommand({
  id: 'show_player_stats',
  description:
    "Shows the stats of a player by HUD slot (1 to 9, 0 for the tenth player), for durationMs if given. live (the default): the game data's values; platform_a: FACEIT (needs FACEIT_API_KEY), looked up by SteamID64 before the panel opens; platform_b is not available. 409 for a slot with no player in the game data.",
  payload: PlayerStatsPayload,
  needsMainWindow: false,
  stateKeys: ['statsVisible'],
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

const reloadOverlay = defineCommand({
  id: 'reload_overlay',
  description: 'Reloads the HUD overlay window.',
  payload: null,
  needsMainWindow: false,
  stateKeys: ['hudWindowOpen'],
  run: ({ hud, hub }) => {
    if (!hud.snapshot('overlay').matches('shown')) {
      throw conflict('the HUD overlay window is closed: open it with show_overlay first');
    }
    hub.notify('overlay.reload', {});
    return {};
  },
});

const setColorPreset = defineCommand({
  id: 'set_color_preset',
  description: 'Applies a colour preset; the ids come from GET /api/presets.',
  payload: Type.Object({ presetId: Type.String({ minLength: 1, maxLength: 128 }) }, strict),
  needsMainWindow: false,
  stateKeys: [],
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
