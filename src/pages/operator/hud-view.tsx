/** HUD: the set-up of what goes on air (overlay pages, corners' places, scene sources, presets, player stats, replay, branding); the on-air switches are on the Live page. */
import { computed, useSignal } from '@preact/signals';
import type { HudState } from '../../protocol/index.ts';
import { PositionSchema, SceneSchema, StatsProviderSchema } from '../../protocol/index.ts';
import { SLOTS } from '../common/broadcast.ts';
import { gameLive } from '../common/game-store.ts';
import type { Production } from '../common/store.ts';
import {
  branding,
  match,
  notices,
  panelStatus,
  presets,
  production,
  state,
  statsPlayer,
} from '../common/store.ts';
import { BrandingCard, RadarCard, SourcesCard, TalentsCard } from './branding-view.tsx';
import {
  Address,
  Card,
  CommandButton,
  chosen,
  ErrorText,
  Field,
  literals,
  Switch,
  useCommand,
} from './ui.tsx';

const POSITIONS = literals(PositionSchema);
const SCENES = literals(SceneSchema);
const PROVIDERS = literals(StatsProviderSchema);

const SCENE_NAMES: Record<(typeof SCENES)[number], string> = {
  versus: 'Versus',
  talents: 'Talents',
  sponsors: 'Sponsors',
  mapRecap: 'Map recap',
};
const PROVIDER_NAMES: Record<(typeof PROVIDERS)[number], string> = {
  platform_a: 'FACEIT (platform A)',
  platform_b: 'HLTV (platform B): not available',
  live: 'Live (game data)',
};
/** The provider the server refuses in every case (no faithful source): listed, not offered. */
const UNAVAILABLE_PROVIDERS = new Set<string>(['platform_b']);

/** The HUD slots the game data has a player in, and whether it carries a map (live values). */
const slotsInGame = computed(() =>
  Object.values(gameLive.value.players)
    .map((player) => player.slot)
    .sort()
    .join(','),
);
const gameHasMap = computed(() => gameLive.value.map !== null);
const positionName = (position: string) => position.replace('-', ' ');
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The HUD overlay pages: set-up only; the panels' switches are on the Live page. */
function OverlayPages() {
  const pages = panelStatus.value?.overlayPages ?? 0;
  return (
    <Card
      title="HUD overlay"
      hook="overlay"
      actions={
        <CommandButton action="reload_overlay" data-action="reload-overlay">
          Reload overlay
        </CommandButton>
      }
    >
      <p class="muted small" data-overlay-pages={String(pages)}>
        {pages === 0
          ? 'No HUD overlay page is connected: panel states show once the overlay reports them.'
          : `${pages} overlay ${pages === 1 ? 'page' : 'pages'} connected.`}
      </p>
      <p class="muted small">The panels, the scenes and the corners go on air from the Live page.</p>
    </Card>
  );
}

function Presets() {
  const { presets: list, activePresetId } = presets.value;
  const apply = useCommand();
  return (
    <Card title="Colour presets" hook="presets">
      {list.length === 0 ? (
        <p class="empty">Open the HUD overlay once: it reports its presets.</p>
      ) : (
        <fieldset class="preset-list">
          <legend class="sr-only">Colour presets</legend>
          {list.map((preset) => (
            <button
              type="button"
              class="btn preset"
              aria-pressed={preset.id === activePresetId}
              data-preset={preset.id}
              onClick={() => void apply.run('set_color_preset', { presetId: preset.id })}
            >
              {preset.name}
            </button>
          ))}
        </fieldset>
      )}
      <ErrorText message={apply.error.value} />
    </Card>
  );
}

/**
 * What the stats panel puts on air, in the operator's words: the overlay draws it only with figures
 * to show, so a panel that is on with nothing to show says why here (never on the HUD).
 */
function statsOnAir(
  hud: HudState,
  inGame: readonly number[],
  hasMap: boolean,
): { onAir: boolean; text: string } {
  const shown = statsPlayer.value.player;
  if (hud.statsVisible !== true) return { onAir: false, text: 'Player stats are off the air' };
  if (!shown) {
    return {
      onAir: false,
      text: 'On, but nothing is on air: no player to show (no game data names an observed player, and none is picked). Show one by slot below.',
    };
  }
  const named = hud.roster.find((entry) => entry.slot === shown.slot)?.name;
  const who = named ? `slot ${shown.slot} (${named})` : `slot ${shown.slot}`;
  if (shown.provider === 'platform_a') {
    return shown.platform
      ? { onAir: true, text: `On air: ${who}, FACEIT figures` }
      : { onAir: false, text: `On, but nothing is on air: no FACEIT figures for ${who}` };
  }
  if (!inGame.includes(shown.slot)) {
    return { onAir: false, text: `On, but nothing is on air: ${who} is not in the game data` };
  }
  if (!hasMap) return { onAir: false, text: `On, but nothing is on air: the game data has no map yet` };
  return { onAir: true, text: `On air: ${who}, live stats` };
}

function PlayerStats({ hud }: { hud: HudState }) {
  const slot = useSignal(1);
  const provider = useSignal<(typeof PROVIDERS)[number] | ''>('');
  const seconds = useSignal('');
  const show = useCommand();
  const inGame = slotsInGame.value.split(',').filter(Boolean).map(Number);
  const status = statsOnAir(hud, inGame, gameHasMap.value);
  const nameOf = (n: number) => hud.roster.find((entry) => entry.slot === n)?.name;
  return (
    <Card title="Player stats" hook="player-stats">
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          const duration = Number.parseFloat(seconds.value);
          void show.run('show_player_stats', {
            slot: slot.value,
            ...(provider.value ? { provider: provider.value } : {}),
            ...(duration > 0 ? { durationMs: Math.round(duration * 1000) } : {}),
          });
        }}
      >
        <div class="row">
          <Field label="Slot">
            <select value={String(slot.value)} onChange={(e) => (slot.value = Number(e.currentTarget.value))}>
              {SLOTS.map((n) => (
                <option value={String(n)} data-in-game={String(inGame.includes(n))}>
                  {n}
                  {nameOf(n) ? ` · ${nameOf(n)}` : ''}
                  {inGame.includes(n) ? '' : ' (not in the game)'}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Provider">
            <select
              value={provider.value}
              onChange={(e) => (provider.value = chosen(PROVIDERS, e.currentTarget.value) ?? '')}
            >
              <option value="">Default (live)</option>
              {PROVIDERS.map((p) => (
                <option value={p} disabled={UNAVAILABLE_PROVIDERS.has(p)}>
                  {PROVIDER_NAMES[p]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Duration (s)">
            <input
              type="number"
              min={0}
              step={1}
              placeholder="Until hidden"
              value={seconds.value}
              onInput={(e) => (seconds.value = e.currentTarget.value)}
            />
          </Field>
        </div>
        <div class="row row--between">
          <span
            class={status.onAir ? 'small' : 'muted small'}
            data-stats-player={statsPlayer.value.player ? String(statsPlayer.value.player.slot) : ''}
            data-stats-on-air={String(status.onAir)}
          >
            {status.text}
          </span>
          <button
            type="submit"
            class="btn btn--primary"
            aria-busy={show.busy.value}
            data-action="show-player-stats"
          >
            Show stats
          </button>
        </div>
        <p class="muted small">
          FACEIT figures need the server started with FACEIT_API_KEY; the panel opens once they are in (a few
          seconds at most) and goes on the side of the player's team.
        </p>
        <ErrorText message={show.error.value} />
      </form>
    </Card>
  );
}

function OverlaySetting(props: {
  title: string;
  hook: 'sponsorOverlay' | 'eventBadge';
  action: 'set_sponsor_overlay' | 'set_event_badge';
  value: Production['sponsorOverlay'] | undefined;
  /** Why it is off the air although on: nothing to show. Null when it has content. */
  empty: string | null;
}) {
  const set = useCommand();
  const idle = props.value?.enabled === true && props.empty !== null;
  return (
    <div class="setting" data-production={props.hook}>
      <p class="small" data-production-on-air={String(props.value?.enabled === true)}>
        {props.title}: {props.value?.enabled ? 'on air' : 'off the air'} (switched on the Live page)
      </p>
      <Field label={`${props.title} position`}>
        <select
          value={props.value?.position ?? ''}
          onChange={(e) => void set.run(props.action, { position: chosen(POSITIONS, e.currentTarget.value) })}
        >
          {POSITIONS.map((p) => (
            <option value={p}>{capital(positionName(p))}</option>
          ))}
        </select>
      </Field>
      {idle ? (
        <p class="muted small" data-off-air={props.hook}>
          On, but nothing is on air: {props.empty}
        </p>
      ) : null}
      <ErrorText message={set.error.value} />
    </div>
  );
}

function ProductionCard() {
  const value = production.value;
  const observer = useCommand();
  const smart = value?.smartObserver;
  return (
    <Card title="Corners and observer" hook="production">
      <OverlaySetting
        title="Sponsor overlay"
        hook="sponsorOverlay"
        action="set_sponsor_overlay"
        value={value?.sponsorOverlay}
        empty={
          branding.value.sponsors.length === 0
            ? 'no sponsor image (add one under Event logo and sponsors)'
            : null
        }
      />
      <OverlaySetting
        title="Event badge"
        hook="eventBadge"
        action="set_event_badge"
        value={value?.eventBadge}
        empty={
          branding.value.eventLogo === null && (match.value?.eventName.trim() ?? '') === ''
            ? 'no event logo and no event name (set them in the Match view and under Event logo and sponsors)'
            : null
        }
      />
      <p class="muted small">
        At the bottom left or right, the sponsor overlay and the badge give way to the player stats shown on
        that side while the game is live.
      </p>
      <div class="setting" data-production="cinematic">
        <Switch
          label="Cinematic freeze camera"
          checked={smart?.cinematicEnabled}
          onChange={(cinematicEnabled) => void observer.run('set_smart_observer', { cinematicEnabled })}
        />
        <p class="muted small">The smart observer and its mode are on the Live page.</p>
        <ErrorText message={observer.error.value} />
      </div>
    </Card>
  );
}

function Scenes({ hud }: { hud: HudState }) {
  const origin = window.location.origin;
  return (
    <Card title="Scene window" hook="scenes">
      <p class="muted small" data-scene-current={hud.senScene ?? ''}>
        {hud.senScene ? `Showing: ${SCENE_NAMES[hud.senScene]}` : 'Scene window closed'} · the scenes go on
        air from the Live page
      </p>
      <h3>Browser sources</h3>
      <p class="muted small">Fixed addresses for OBS browser sources; they do not follow the scene window.</p>
      <ul class="address-list">
        {SCENES.map((scene) => (
          <Address
            url={`${origin}/scenes/${scene}`}
            what={`${SCENE_NAMES[scene]} source`}
            hook={{ 'data-scene-source': scene }}
          />
        ))}
      </ul>
    </Card>
  );
}

function Replay({ hud }: { hud: HudState }) {
  const last = notices.value.find((notice) => notice.kind !== 'overlay.reload');
  return (
    <Card title="Replay" hook="replay">
      <p class="muted small" data-replay-buffer={hud.obs.replayBufferActive ? 'active' : 'inactive'}>
        OBS replay buffer: {hud.obs.replayBufferActive ? 'active' : 'not active'} · OBS {hud.obs.connection}
      </p>
      <CommandButton action="save_replay" variant="primary" data-action="save-replay">
        Save replay
      </CommandButton>
      {last ? (
        <p
          class={last.kind === 'replay.failed' ? 'error' : 'success'}
          role="status"
          data-replay-notice={last.kind}
        >
          {last.text}
        </p>
      ) : null}
    </Card>
  );
}

export function HudView() {
  const hud = state.value;
  if (!hud) return <p class="empty">Waiting for the server…</p>;
  return (
    <div class="grid">
      <OverlayPages />
      <Scenes hud={hud} />
      <ProductionCard />
      <PlayerStats hud={hud} />
      <Presets />
      <Replay hud={hud} />
      <BrandingCard />
      <RadarCard />
      <TalentsCard />
      <SourcesCard />
    </div>
  );
}
