/**
 * Live: the page of the show itself, the first after sign-in. What is on air now, every on-air
 * switch with its key on the button, clean feed and restore, the smart observer, the last changes,
 * and the keys. Set-up (match, branding, integrations) stays in its own views.
 */
import { useSignal } from '@preact/signals';
import type { FeedRecord, LiveSwitch } from '../../protocol/index.ts';
import { LIVE_SWITCHES, ObserverModeSchema, PANELS } from '../../protocol/index.ts';
import { branding, match, observer, panelStatus, production, reveal, state } from '../common/store.ts';
import { api } from './api.ts';
import { keyOfSwitch, runSwitch, switchOn } from './hotkeys.ts';
import { MomentSwitches } from './moment-switches.tsx';
import { RecentChanges } from './recent-changes.tsx';
import { Card, chosen, ErrorText, Field, literals, Switch, useCommand } from './ui.tsx';

const OBSERVER_MODES = literals(ObserverModeSchema);
const byKind = (kind: LiveSwitch['does']['kind']) =>
  LIVE_SWITCHES.filter((entry) => entry.does.kind === kind);
const switchById = (id: string) => LIVE_SWITCHES.find((entry) => entry.id === id);

/** The key shown on a button, as the settings say it (nothing when the switch has none). */
function KeyCap({ id }: { id: string }) {
  const key = keyOfSwitch(id);
  return key ? (
    <kbd class="hotkey live-key" data-hotkey={key}>
      {key}
    </kbd>
  ) : null;
}

/** Why an overlay that is on shows nothing (no content), or null. */
function emptyOverlay(setting: 'sponsorOverlay' | 'eventBadge'): string | null {
  if (setting === 'sponsorOverlay')
    return branding.value.sponsors.length === 0 ? 'no sponsor image (HUD > Event logo and sponsors)' : null;
  return branding.value.eventLogo === null && (match.value?.eventName.trim() ?? '') === ''
    ? 'no event logo and no event name'
    : null;
}

/** One on-air switch: a large button carrying its state and its key; its refusal shows under it. */
function LiveButton({ entry, error }: { entry: LiveSwitch; error: (text: string | null) => void }) {
  const busy = useSignal(false);
  const on = switchOn(entry);
  const key = keyOfSwitch(entry.id);
  const panel = entry.does.kind === 'panel' ? PANELS.find((p) => p.command === entry.id) : undefined;
  const empty = entry.does.kind === 'overlay' && on ? emptyOverlay(entry.does.setting) : null;
  return (
    <button
      type="button"
      role="switch"
      class="live-switch"
      aria-checked={on === true}
      aria-busy={busy.value}
      data-live-switch={entry.id}
      data-state={on === undefined ? 'unknown' : on ? 'on' : 'off'}
      {...(panel ? { 'data-panel-switch': panel.id } : {})}
      {...(key ? { 'aria-keyshortcuts': key } : {})}
      onClick={async () => {
        busy.value = true;
        const outcome = await runSwitch(entry);
        busy.value = false;
        error(outcome.ok ? null : outcome.text);
      }}
    >
      <span class="live-switch__name">{entry.name}</span>
      <span class="live-switch__state" aria-hidden="true">
        {on === undefined ? 'Not reported' : on ? (empty ? 'On · empty' : 'On air') : 'Off'}
      </span>
      <KeyCap id={entry.id} />
      {empty ? <span class="sr-only">, on but nothing is on air: {empty}</span> : null}
    </button>
  );
}

function SwitchGroup({ title, entries }: { title: string; entries: LiveSwitch[] }) {
  const error = useSignal<string | null>(null);
  return (
    <div class="live-group">
      <h3>{title}</h3>
      <div class="live-switches">
        {entries.map((entry) => (
          <LiveButton key={entry.id} entry={entry} error={(text) => (error.value = text)} />
        ))}
      </div>
      <ErrorText message={error.value} />
    </div>
  );
}

function Switches() {
  return (
    <Card title="On-air switches" hook="live-switches" wide>
      <SwitchGroup title="Panels" entries={byKind('panel')} />
      <SwitchGroup title="Corners" entries={byKind('overlay')} />
      <SwitchGroup title="Scene window" entries={byKind('scene')} />
    </Card>
  );
}

/** What restore_feed brings back, in words. */
function feedWords(record: FeedRecord): string {
  const names = [
    ...PANELS.filter((panel) => record.panels[panel.command]).map((panel) => panel.name),
    ...(record.scene ? [switchById(`scene_${record.scene}`)?.name ?? record.scene] : []),
    ...(record.sponsorOverlay ? ['Sponsor overlay'] : []),
    ...(record.eventBadge ? ['Event badge'] : []),
  ];
  return names.length > 0 ? names.join(', ') : 'nothing';
}

function CleanFeed() {
  const error = useSignal<string | null>(null);
  const busy = useSignal<string | null>(null);
  const record = production.value?.cleanFeed ?? null;
  const press = async (id: 'clean_feed' | 'restore_feed') => {
    const entry = switchById(id);
    if (!entry) return;
    busy.value = id;
    const outcome = await runSwitch(entry);
    busy.value = null;
    error.value = outcome.ok ? null : outcome.text;
  };
  return (
    <Card title="Clean feed" hook="clean-feed">
      <p class={record ? 'live-feed live-feed--clean' : 'live-feed'} data-clean-feed={record ? 'on' : 'off'}>
        {record ? (
          <>
            <strong>Clean feed: the HUD is off the air.</strong> Restore brings back: {feedWords(record)}.
          </>
        ) : (
          'Takes every panel, the scene, the sponsor overlay and the badge off the air at once; Restore brings back what was there.'
        )}
      </p>
      <div class="live-feed__actions">
        <button
          type="button"
          class="btn btn--danger live-big"
          aria-busy={busy.value === 'clean_feed'}
          data-action="clean-feed"
          aria-keyshortcuts={keyOfSwitch('clean_feed') ?? undefined}
          onClick={() => void press('clean_feed')}
        >
          Clean feed <KeyCap id="clean_feed" />
        </button>
        <button
          type="button"
          class="btn btn--primary live-big"
          disabled={record === null}
          aria-busy={busy.value === 'restore_feed'}
          data-action="restore-feed"
          aria-keyshortcuts={keyOfSwitch('restore_feed') ?? undefined}
          onClick={() => void press('restore_feed')}
        >
          Restore <KeyCap id="restore_feed" />
        </button>
      </div>
      <ErrorText message={error.value} />
    </Card>
  );
}

const OBSERVER_WORDS = { disabled: 'Off', suggest: 'Suggest', auto: 'Auto' } as const;

/** One item of "On air now". */
function Item(props: { id: string; label: string; on: boolean | undefined; value: string }) {
  const tone = props.on === undefined ? 'unknown' : props.on ? 'on' : 'off';
  return (
    <div class="on-air__item" data-on-air={props.id} data-state={tone}>
      <dt>{props.label}</dt>
      <dd>
        <span class="on-air__dot" aria-hidden="true" />
        {props.value}
      </dd>
    </div>
  );
}

function OnAirNow() {
  const hud = state.value;
  const made = production.value;
  const shown = reveal.value;
  const seen = observer.value;
  if (!hud) return null;
  const scene = hud.senScene ? (switchById(`scene_${hud.senScene}`)?.name ?? hud.senScene) : null;
  const words = (on: boolean | undefined) => (on === undefined ? 'Not reported' : on ? 'On air' : 'Off');
  return (
    <Card title="On air now" hook="on-air" wide>
      <dl class="on-air">
        {PANELS.map((panel) => (
          <Item
            id={panel.command}
            label={panel.name}
            on={hud[panel.stateKey]}
            value={words(hud[panel.stateKey])}
          />
        ))}
        <Item id="scene" label="Scene window" on={scene !== null} value={scene ?? 'Closed'} />
        <Item
          id="reveal"
          label="Veto reveal"
          on={shown ? shown.revealed > 0 : undefined}
          value={
            shown && shown.total > 0
              ? `${shown.revealed} of ${shown.total} steps · ${shown.instant ? 'instant' : 'step by step'}`
              : 'No veto'
          }
        />
        <Item
          id="sponsor"
          label="Sponsor overlay"
          on={made?.sponsorOverlay.enabled}
          value={words(made?.sponsorOverlay.enabled)}
        />
        <Item
          id="badge"
          label="Event badge"
          on={made?.eventBadge.enabled}
          value={words(made?.eventBadge.enabled)}
        />
        <Item
          id="observer"
          label="Observer"
          on={seen ? seen.state !== 'disabled' : undefined}
          value={
            seen
              ? `${OBSERVER_WORDS[seen.state]}${seen.blockedBy === 'no_subscription' ? ' (no subscription)' : ''}`
              : 'Unknown'
          }
        />
      </dl>
      <AutomationClients />
    </Card>
  );
}

/** Who else depends on this page: programs whose main-window commands stop when it closes. */
function AutomationClients() {
  const clients = panelStatus.value?.automation.clients ?? 0;
  return (
    <p
      class={clients === 0 ? 'muted small live-clients' : 'small live-clients live-clients--on'}
      data-automation-clients={String(clients)}
    >
      {clients === 0
        ? 'No program is connected to the automation server.'
        : `${clients} ${clients === 1 ? 'program is' : 'programs are'} connected to the automation server (a Stream Deck through Companion): keep this tab open, closing it stops their veto, match and observer commands. The browser asks before it closes.`}
    </p>
  );
}

function Reveal() {
  const shown = reveal.value;
  const error = useSignal<string | null>(null);
  const entry = switchById('reveal_next');
  const step = useCommand();
  return (
    <Card title="Veto on air" hook="live-reveal">
      <p class="muted small" data-reveal={shown ? `${shown.revealed}/${shown.total}` : ''}>
        {shown && shown.total > 0
          ? `${shown.revealed} of ${shown.total} steps on air (${shown.instant ? 'instant' : 'step by step'})`
          : 'No veto set: the Veto view starts or imports one.'}
      </p>
      <div class="row">
        <button
          type="button"
          class="btn"
          data-reveal-action="prev"
          disabled={!shown || shown.revealed === 0}
          onClick={() => void step.run('veto_reveal', { mode: 'prev' })}
        >
          Hide last
        </button>
        <button
          type="button"
          class="btn btn--primary"
          data-reveal-action="next"
          disabled={!shown || shown.total === 0 || shown.revealed >= shown.total}
          aria-keyshortcuts={keyOfSwitch('reveal_next') ?? undefined}
          onClick={async () => {
            if (!entry) return;
            const outcome = await runSwitch(entry);
            error.value = outcome.ok ? null : outcome.text;
          }}
        >
          Reveal next <KeyCap id="reveal_next" />
        </button>
      </div>
      <ErrorText message={error.value ?? step.error.value} />
    </Card>
  );
}

function SmartObserver() {
  const smart = production.value?.smartObserver;
  const set = useCommand();
  return (
    <Card title="Smart observer" hook="live-observer">
      <div class="setting" data-production="smartObserver">
        <Switch
          label="Smart observer"
          checked={smart?.enabled}
          onChange={(enabled) => void set.run('set_smart_observer', { enabled })}
        />
        <Field label="Observer mode">
          <select
            value={smart?.mode ?? ''}
            onChange={(e) =>
              void set.run('set_smart_observer', { mode: chosen(OBSERVER_MODES, e.currentTarget.value) })
            }
          >
            {OBSERVER_MODES.map((mode) => (
              <option value={mode}>
                {mode === 'auto' ? 'Auto (switches view)' : 'Suggest (highlight only)'}
              </option>
            ))}
          </select>
        </Field>
        <ErrorText message={set.error.value} />
      </div>
    </Card>
  );
}

/** The keys: F1 to F12, A to Z, 0 to 9 (src/protocol/hotkeys.ts), or none. */
const KEY_CHOICES = [
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''),
];

function Hotkeys() {
  const error = useSignal<string | null>(null);
  const saved = useSignal<string | null>(null);
  return (
    <Card title="Keys" hook="hotkeys">
      <details class="hotkeys">
        <summary>Set the key of each switch</summary>
        <p class="muted small">
          A key works while this app has the focus; a letter or a digit not while typing in a field. One key,
          one switch: a key another switch has is refused.
        </p>
        <div class="hotkeys__list">
          {LIVE_SWITCHES.map((entry) => (
            <Field label={`Key for ${entry.name}`}>
              <select
                data-hotkey-setting={entry.id}
                value={keyOfSwitch(entry.id) ?? ''}
                onChange={async (e) => {
                  const select = e.currentTarget;
                  const key = select.value === '' ? null : select.value;
                  const answer = await api.settings({ hotkeys: { [entry.id]: key } });
                  error.value = answer.ok ? null : answer.message;
                  saved.value = answer.ok ? `${entry.name}: ${key ?? 'no key'}` : null;
                  // A refused key leaves the select on the key the server keeps.
                  if (!answer.ok) select.value = keyOfSwitch(entry.id) ?? '';
                }}
              >
                <option value="">No key</option>
                {KEY_CHOICES.map((key) => (
                  <option value={key}>{key}</option>
                ))}
              </select>
            </Field>
          ))}
        </div>
      </details>
      {saved.value ? (
        <p class="success small" role="status" data-hotkey-saved>
          Saved: {saved.value}
        </p>
      ) : null}
      <ErrorText message={error.value} />
    </Card>
  );
}

export function LiveView() {
  if (!state.value) return <p class="empty">Waiting for the server…</p>;
  return (
    <div class="live">
      <OnAirNow />
      {/* Two columns from 1100 px: the switches beside clean feed, both on screen at 1280x800. */}
      <div class="live__main">
        <Switches />
        <RecentChanges />
        <Hotkeys />
      </div>
      <div class="live__side">
        <CleanFeed />
        <Reveal />
        <MomentSwitches />
        <SmartObserver />
      </div>
    </div>
  );
}
