/** HUD: panel switches, presets, player stats, production overlays, smart observer, scenes, replay. */
import { computed, useSignal } from '@preact/signals';
import type { HudState, Panel } from '../../protocol/index.ts';
import {
  ObserverModeSchema,
  PANELS,
  PositionSchema,
  SceneSchema,
  StatsProviderSchema,
} from '../../protocol/index.ts';
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
import { toggleAction } from './hotkeys.ts';
import { MomentSwitches } from './moment-switches.tsx';
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
const OBSERVER_MODES = literals(ObserverModeSchema);

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

function PanelSwitch({ panel, hud }: { panel: Panel; hud: HudState }) {
  const toggle = useCommand();
  const value = hud[panel.stateKey];
  return (
    <li>
      <Switch
        label={panel.name}
        checked={value}
        hint="Not reported"
        onChange={() => void toggle.run(toggleAction(panel))}
        hook={{
          'data-panel-switch': panel.id,
          ...(panel.hotkey ? { 'aria-keyshortcuts': panel.hotkey } : {}),
        }}
      />
      {panel.hotkey ? (
        <kbd class="hotkey" title={`Press ${panel.hotkey} anywhere in this app`} data-hotkey={panel.hotkey}>
          {panel.hotkey}
        </kbd>
      ) : null}
      <ErrorText message={toggle.error.value} />
    </li>
  );
}

function Panels({ hud }: { hud: HudState }) {
  const pages = panelStatus.value?.overlayPages ?? 0;
  return (
    <Card
      title="Panels"
      hook="panels"
      actions={
        <CommandButton action="reload_overlay" data-action="reload-overlay">
          Reload overlay
        </CommandButton>
      }
    >
      <ul class="switch-list">
        {PANELS.map((panel) => (
          <PanelSwitch key={panel.id} panel={panel} hud={hud} />
        ))}
      </ul>
      <p class="muted small">
        {pages === 0
          ? 'No HUD overlay page is connected: panel states show once the overlay reports them.'
          : `${pages} overlay ${pages === 1 ? 'page' : 'pages'} connected.`}
      </p>
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
      <Switch
        label={props.title}
        checked={props.value?.enabled}
        onChange={(enabled) => void set.run(props.action, { enabled })}
      />
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
    <Card title="Production" hook="production">
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
      <div class="setting" data-production="smartObserver">
        <Switch
          label="Smart observer"
          checked={smart?.enabled}
          onChange={(enabled) => void observer.run('set_smart_observer', { enabled })}
        />
        <Field label="Observer mode">
          <select
            value={smart?.mode ?? ''}
            onChange={(e) =>
              void observer.run('set_smart_observer', { mode: chosen(OBSERVER_MODES, e.currentTarget.value) })
            }
          >
            {OBSERVER_MODES.map((mode) => (
              <option value={mode}>
                {mode === 'auto' ? 'Auto (switches view)' : 'Suggest (highlight only)'}
              </option>
            ))}
          </select>
        </Field>
        <Switch
          label="Cinematic freeze camera"
          checked={smart?.cinematicEnabled}
          onChange={(cinematicEnabled) => void observer.run('set_smart_observer', { cinematicEnabled })}
        />
        <ErrorText message={observer.error.value} />
      </div>
    </Card>
  );
}

function Scenes({ hud }: { hud: HudState }) {
  const show = useCommand();
  const origin = window.location.origin;
  return (
    <Card
      title="Scene window"
      hook="scenes"
      actions={
        <CommandButton action="hide_sen_scene" disabled={hud.senScene === null} data-action="hide-scene">
          Hide scene
        </CommandButton>
      }
    >
      <p class="muted small" data-scene-current={hud.senScene ?? ''}>
        {hud.senScene ? `Showing: ${SCENE_NAMES[hud.senScene]}` : 'Scene window closed'}
      </p>
      <fieldset class="scene-grid">
        <legend class="sr-only">Show a scene</legend>
        {SCENES.map((scene) => (
          <button
            type="button"
            class="btn scene-btn"
            aria-pressed={hud.senScene === scene}
            data-scene={scene}
            onClick={() => void show.run('show_sen_scene', { scene })}
          >
            {SCENE_NAMES[scene]}
          </button>
        ))}
      </fieldset>
      <ErrorText message={show.error.value} />
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
      <Panels hud={hud} />
      <MomentSwitches />
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
