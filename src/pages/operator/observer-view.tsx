/**
 * Integrations > Observer: the subscription switch, the smart observer's mode, the link to the
 * game's console (with why it is down) and its address, the current suggestion and the last cuts.
 * Everything is drawn from the `observer` signal; every change is a command (or the panel API's
 * subscription switch).
 */
import { useSignal } from '@preact/signals';
import type { ObserverView as Observer } from '../../protocol/index.ts';
import { ObserverModeSchema } from '../../protocol/index.ts';
import { serverClockOffset } from '../common/game-store.ts';
import {
  agoWords,
  CONNECTION_WORDS,
  cutOutcomeWords,
  LINK_REASON_WORDS,
  reasonWords,
  STRATEGY_WORDS,
  sideWords,
  stateWords,
} from '../common/observer-words.ts';
import { observer } from '../common/store.ts';
import { useNow } from '../common/use-now.ts';
import { request } from './api.ts';
import {
  Address,
  Card,
  CommandButton,
  CopyButton,
  chosen,
  ErrorText,
  Field,
  literals,
  Switch,
  useCommand,
  useDraft,
} from './ui.tsx';

const MODES = literals(ObserverModeSchema);

function Subscription({ value }: { value: Observer }) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const save = async (active: boolean) => {
    busy.value = true;
    error.value = null;
    const answer = await request('POST', '/api/panel/subscription', { active });
    busy.value = false;
    if (!answer.ok) error.value = answer.message;
  };
  return (
    <>
      <Switch
        label="Subscription active"
        checked={value.subscriptionActive}
        disabled={busy.value}
        onChange={(next) => void save(next)}
        hook={{ 'data-setting': 'subscription' }}
      />
      <ErrorText message={error.value} />
    </>
  );
}

/** Green only while nothing is wrong: auto whose camera does not follow is not a green state. */
function pillOf(value: Observer): 'off' | 'connected' | 'connecting' | 'disconnected' {
  if (value.state === 'disabled') return 'off';
  if (value.state === 'suggest') return 'connected';
  if (value.camera.exhausted || value.cameraFollows === 'ignored' || value.cameraFollows === 'moved_away')
    return 'disconnected';
  return value.cameraFollows === 'following' || value.cameraFollows === null ? 'connected' : 'connecting';
}

function Mode({ value }: { value: Observer }) {
  const command = useCommand();
  return (
    <Card title="Smart observer" hook="observer-mode">
      <p class="observer-state" data-observer-state={value.state}>
        <span class={`pill pill--${pillOf(value)}`}>{stateWords(value)}</span>
      </p>
      <Subscription value={value} />
      {value.blockedBy === 'no_subscription' ? (
        <p class="muted small" data-observer-blocked>
          Switched on, waiting for an active subscription.
        </p>
      ) : null}
      <Switch
        label="Smart observer"
        checked={value.enabled}
        onChange={(enabled) => void command.run('set_smart_observer', { enabled })}
        hook={{ 'data-setting': 'observer-enabled' }}
      />
      <Field label="Mode">
        <select
          value={value.mode}
          data-setting="observer-mode"
          onChange={(e) =>
            void command.run('set_smart_observer', { mode: chosen(MODES, e.currentTarget.value) })
          }
        >
          {MODES.map((mode) => (
            <option value={mode}>
              {mode === 'auto' ? 'Auto: moves the game camera' : 'Suggest: shows whom to watch'}
            </option>
          ))}
        </select>
      </Field>
      <Switch
        label="Cinematic freeze camera (stays on a death for 2.5 s)"
        checked={value.cinematicEnabled}
        onChange={(cinematicEnabled) => void command.run('set_smart_observer', { cinematicEnabled })}
        hook={{ 'data-setting': 'observer-cinematic' }}
      />
      <ErrorText message={command.error.value} />
    </Card>
  );
}

function Link({ value }: { value: Observer }) {
  const { link } = value;
  const host = useDraft(link.host);
  const port = useDraft(String(link.port));
  const command = useCommand();
  const saved = useSignal(false);
  const save = async () => {
    saved.value = false;
    const result = await command.run('set_observer_console', {
      host: host.value.trim(),
      port: Number(port.value),
    });
    saved.value = result.ok;
  };
  return (
    <Card title="Game console" hook="observer-link">
      <p
        class="observer-link"
        data-observer-link={link.connection}
        data-observer-link-reason={link.reason ?? 'none'}
      >
        <span class={`pill pill--${link.connection}`}>{CONNECTION_WORDS[link.connection]}</span>{' '}
        <code>{link.address}</code>
      </p>
      {link.reason && link.reason !== 'not_auto' && value.launch.advice ? (
        // The launch advice below says what to do: here only what failed.
        <p role="status" data-observer-link-words class="muted small">
          The link failed{link.message ? ` (${link.message})` : ''}.
        </p>
      ) : link.reason && link.reason !== 'not_auto' ? (
        <p role="status" data-observer-link-words>
          {LINK_REASON_WORDS[link.reason]}
          {/* The words say it all for a closed console; a failed try's detail names the error. */}
          {link.message && link.reason !== 'closed' ? (
            <span class="muted small"> ({link.message})</span>
          ) : null}
        </p>
      ) : (
        <p class="muted small">
          {link.reason ? LINK_REASON_WORDS[link.reason] : 'The camera moves over this link.'}
        </p>
      )}
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Field label="Console address (IP)">
          <input
            value={host.value}
            onInput={(e) => {
              host.value = e.currentTarget.value;
            }}
            spellcheck={false}
            autocomplete="off"
            data-setting="observer-host"
          />
        </Field>
        <Field label="Port">
          <input
            value={port.value}
            inputMode="numeric"
            size={6}
            onInput={(e) => {
              port.value = e.currentTarget.value;
            }}
            data-setting="observer-port"
          />
        </Field>
        <button
          type="submit"
          class="btn btn--primary"
          aria-busy={command.busy.value}
          data-action="observer-console"
        >
          Save address
        </button>
      </form>
      {saved.value ? <p class="muted small">Address saved.</p> : null}
      <ErrorText message={command.error.value} />
      <Launch value={value} />
    </Card>
  );
}

/**
 * Ready before going live: the observer PC's launch options to copy, and, when the link fails, which
 * option is probably missing (the server's words, as GET /api/observer says them).
 */
function Launch({ value }: { value: Observer }) {
  const { launch } = value;
  return (
    <div class="observer-launch" data-observer-launch={launch.options}>
      <p class="small">Observer PC: Steam → Counter-Strike 2 → Properties → Launch options:</p>
      <p class="row">
        <code data-observer-launch-options>{launch.options}</code>
        <CopyButton text={launch.options} label="Copy launch options" />
      </p>
      {launch.advice ? (
        <p
          class="error"
          role="alert"
          data-observer-launch-advice
          data-observer-launch-missing={launch.missing ?? 'none'}
        >
          {launch.missing ? (
            <>
              Probably missing: <code>{launch.missing}</code>.{' '}
            </>
          ) : null}
          {launch.advice}
        </p>
      ) : (
        <p class="muted small">
          Then restart CS2. Only this machine or the local network reaches the console.
        </p>
      )}
    </div>
  );
}

const STRATEGIES = Object.keys(STRATEGY_WORDS) as Array<keyof typeof STRATEGY_WORDS>;

/** How cuts reach the game and whether they do: test before going live, probe again, pin one. */
function Camera({ value }: { value: Observer }) {
  const command = useCommand();
  const { camera } = value;
  const warn = camera.exhausted || value.cameraFollows === 'ignored' || value.cameraFollows === 'moved_away';
  const pin = (choice: string) =>
    void command.run('observer_pin', {
      strategy: choice === 'learn' ? null : (choice as (typeof STRATEGIES)[number]),
    });
  return (
    <Card title="Camera" hook="observer-camera">
      <p
        class={warn ? 'error' : undefined}
        role={warn ? 'alert' : 'status'}
        data-camera-follows={value.cameraFollows ?? 'none'}
        data-camera-strategy={camera.strategy ?? 'none'}
        data-camera-source={camera.source}
        data-camera-exhausted={camera.exhausted ? 'yes' : 'no'}
      >
        {camera.text}
      </p>
      <p class="muted small">
        {camera.exhausted
          ? 'Strategy: none worked (each was tried once)'
          : `Strategy: ${camera.strategy ? STRATEGY_WORDS[camera.strategy] : '–'} (${
              camera.source === 'pinned'
                ? 'pinned'
                : camera.source === 'proven'
                  ? 'proven by the frames'
                  : 'being tried'
            })`}
      </p>
      <div class="row">
        <CommandButton action="observer_test_cut" variant="primary" data-action="observer-test-cut">
          Test cut
        </CommandButton>
        <CommandButton action="observer_probe_again" data-action="observer-probe-again">
          Probe again
        </CommandButton>
        <Field label="Cut strategy">
          <select
            value={camera.source === 'pinned' && camera.strategy ? camera.strategy : 'learn'}
            onChange={(e) => pin(e.currentTarget.value)}
            data-setting="observer-strategy"
          >
            <option value="learn">Learn from the frames</option>
            {STRATEGIES.map((strategy) => (
              <option value={strategy}>{STRATEGY_WORDS[strategy]}</option>
            ))}
          </select>
        </Field>
      </div>
      <ErrorText message={command.error.value} />
    </Card>
  );
}

function SuggestionCard({ value, now }: { value: Observer; now: number }) {
  const suggestion = value.suggestion;
  return (
    <Card title="Suggestion" hook="observer-suggestion">
      {suggestion ? (
        <div class="suggestion" data-suggestion-slot={suggestion.slot} data-side={suggestion.side}>
          <kbd class="suggestion__key" aria-label={`Key ${suggestion.slot}`}>
            {suggestion.slot}
          </kbd>
          <div>
            <p class="suggestion__name">{suggestion.name}</p>
            <p data-suggestion-reason={suggestion.reason}>{reasonWords(suggestion)}</p>
            <p class="muted small">
              {sideWords(suggestion.side)} · since {agoWords(suggestion.since, now, serverClockOffset.value)}
              {value.holdingUntil !== null ? ' · the camera stays on the death' : ''}
            </p>
          </div>
        </div>
      ) : (
        <p class="empty">
          {value.state === 'disabled'
            ? 'The observer is off.'
            : 'No suggestion yet: waiting for game data with players.'}
        </p>
      )}
      <p class="muted small">For the person at the observer PC (signed in like this app):</p>
      <ul class="address-list">
        <Address
          url={`${window.location.origin}/observer`}
          hook={{ 'data-address': 'observer-page' }}
          what="the observer page"
        />
      </ul>
    </Card>
  );
}

function Cuts({ value, now }: { value: Observer; now: number }) {
  const cuts = [...value.cuts].reverse();
  return (
    <Card title="Last cuts" hook="observer-cuts" wide>
      {cuts.length === 0 ? (
        <p class="empty">No cut yet.</p>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Key</th>
              <th scope="col">Player</th>
              <th scope="col">Why</th>
              <th scope="col">To the game</th>
              <th scope="col">Camera</th>
            </tr>
          </thead>
          <tbody>
            {cuts.map((cut) => (
              <tr
                data-cut-slot={cut.slot}
                data-cut-sent={cut.sent ? 'yes' : 'no'}
                data-cut-strategy={cut.strategy ?? 'none'}
                data-cut-outcome={cut.outcome ?? 'none'}
              >
                <td>{agoWords(cut.at, now, serverClockOffset.value)}</td>
                <td>
                  <kbd>{cut.slot}</kbd>
                </td>
                <td>{cut.name}</td>
                <td>{reasonWords(cut)}</td>
                <td>{cut.sent ? 'Sent' : '–'}</td>
                <td>{cutOutcomeWords(cut)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

export function ObserverView() {
  const value = observer.value;
  const now = useNow(1000);
  if (!value) return <p class="empty">Waiting for the server…</p>;
  return (
    <div class="grid" data-observer-view>
      <Mode value={value} />
      <Link value={value} />
      <Camera value={value} />
      <SuggestionCard value={value} now={now} />
      <Cuts value={value} now={now} />
    </div>
  );
}
