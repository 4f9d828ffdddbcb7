/**
 * /observer: for the person at the observer PC. Whom to watch, big enough to read across the desk:
 * the key to press (the HUD slot), the player's name, why, and how long ago it changed. Signed in
 * like the operator app (the same session cookie and sign-in key); it connects as a page that only
 * shows (role=scene), so it neither runs commands nor counts as the operator app's main window.
 */
import { signal, useSignal } from '@preact/signals';
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import type { ObserverView } from '../../protocol/index.ts';
import { Client } from '../common/client.ts';
import { serverClockOffset } from '../common/game-store.ts';
import {
  agoWords,
  CONNECTION_WORDS,
  LINK_REASON_WORDS,
  reasonWords,
  STRATEGY_WORDS,
  sideWords,
  stateWords,
} from '../common/observer-words.ts';
import { connectionStatus, observer } from '../common/store.ts';
import { useNow } from '../common/use-now.ts';
import { api } from '../operator/api.ts';
import { ErrorText } from '../operator/ui.tsx';

type Auth = 'checking' | 'signed-out' | 'signed-in';
const auth = signal<Auth>('checking');
const client = new Client({ role: 'scene', onClose: () => void checkSignIn() });

/** Opened by its view-key address (`/observer?view=…`): it only shows, so it needs no sign-in. */
const viewOnly = new URLSearchParams(window.location.search).has('view');

async function checkSignIn(): Promise<void> {
  const answer = await api.authStatus();
  if ((answer.ok && answer.signedIn) || viewOnly) {
    auth.value = 'signed-in';
    client.start();
  } else {
    client.stop();
    auth.value = 'signed-out';
  }
}

/** The operator app's sign-in key (its sign-in address signs this page in too). */
function SignIn() {
  const key = useSignal('');
  const error = useSignal<string | null>(null);
  return (
    <main class="sign-in" data-view="sign-in">
      <form
        class="sign-in__card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await api.signIn(key.value.trim());
          if (answer.ok) await checkSignIn();
          else error.value = answer.message;
        }}
      >
        <p class="brand">hud-automation</p>
        <h1>Observer sign-in</h1>
        <p class="muted">
          Paste the key of the operator app's sign-in address (
          <code class="nowrap">hud-automation app-url</code> prints it), or open that address on this PC
          first.
        </p>
        <label class="field">
          <span>Sign-in key</span>
          <input
            value={key.value}
            onInput={(e) => {
              key.value = e.currentTarget.value;
            }}
            autocomplete="off"
            spellcheck={false}
          />
        </label>
        <button type="submit" class="btn btn--primary">
          Sign in
        </button>
        <ErrorText message={error.value} />
      </form>
    </main>
  );
}

type Cut = NonNullable<ObserverView['lastCut']>;

/** Whether the last cut moved the camera, as the frames showed it (one pill: the key stays big). */
const OUTCOME_TONE: Record<NonNullable<Cut['outcome']>, 'connected' | 'connecting' | 'disconnected'> = {
  followed: 'connected',
  pending: 'connecting',
  already_shown: 'connected',
  replaced: 'connecting',
  target_died: 'connecting',
  not_followed: 'disconnected',
};

function lastCutWords(cut: Cut): string {
  switch (cut.outcome) {
    case 'followed':
      return `Last cut shown after ${cut.followedAfterMs ?? 0} ms`;
    case 'not_followed':
      return 'Last cut not followed';
    case 'already_shown':
      return 'Last cut: already shown';
    case 'target_died':
      return 'Last cut: he died first';
    case 'replaced':
      return 'Last cut: cut again';
    default:
      return 'Last cut: waiting for the game';
  }
}

function Watch() {
  const value = observer.value;
  const now = useNow(250);
  const link = connectionStatus.value;
  if (!value) {
    return (
      <p class="observer-page__waiting" role="status">
        Connecting to hud-automation…
      </p>
    );
  }
  const suggestion = value.state === 'disabled' ? null : value.suggestion;
  const holding = value.holdingUntil !== null && value.holdingUntil > now - serverClockOffset.value;
  return (
    <main class="observer-page" data-observer-page data-observer-state={value.state} data-connection={link}>
      <header class="observer-page__bar">
        <span class="brand">hud-automation · Observer</span>
        <span class={`pill pill--${value.state === 'disabled' ? 'off' : 'connected'}`} data-observer-mode>
          {stateWords(value)}
        </span>
        {value.state === 'auto' ? (
          <span
            class={`pill pill--${value.link.connection}`}
            data-observer-link={value.link.connection}
            title={value.link.reason ? LINK_REASON_WORDS[value.link.reason] : undefined}
          >
            Game console: {CONNECTION_WORDS[value.link.connection]}
          </span>
        ) : null}
        {value.state === 'auto' ? (
          <span
            class={`pill pill--${value.camera.exhausted ? 'disconnected' : value.camera.source === 'probing' ? 'connecting' : 'connected'}`}
            data-camera-strategy={value.camera.strategy ?? 'none'}
            data-camera-source={value.camera.source}
          >
            Cuts: {value.camera.strategy ? STRATEGY_WORDS[value.camera.strategy] : 'none works'}
            {value.camera.source === 'pinned'
              ? ' (pinned)'
              : value.camera.source === 'probing'
                ? ' (probing)'
                : ''}
          </span>
        ) : null}
        {value.state === 'auto' && value.lastCut?.sent ? (
          <span
            class={`pill pill--${OUTCOME_TONE[value.lastCut.outcome ?? 'pending']}`}
            data-last-cut-outcome={value.lastCut.outcome ?? 'none'}
            data-camera-follows={value.cameraFollows ?? 'none'}
            title={value.camera.text}
          >
            {lastCutWords(value.lastCut)}
          </span>
        ) : null}
        {link !== 'open' ? <span class="pill pill--disconnected">Reconnecting to the server</span> : null}
      </header>
      {suggestion ? (
        <section
          class="observer-page__watch"
          aria-label="Whom to watch"
          data-suggestion-slot={suggestion.slot}
          data-side={suggestion.side}
        >
          <p class="observer-page__press">{value.state === 'auto' ? 'Camera on' : 'Press'}</p>
          <kbd class="observer-page__key" aria-label={`Key ${suggestion.slot}`}>
            {suggestion.slot}
          </kbd>
          <p class="observer-page__name" data-suggestion-name>
            {suggestion.name}
          </p>
          <p class="observer-page__reason" data-suggestion-reason={suggestion.reason}>
            {reasonWords(suggestion)}
          </p>
          <p class="observer-page__since" data-suggestion-since>
            {sideWords(suggestion.side)} · changed {agoWords(suggestion.since, now, serverClockOffset.value)}
            {holding ? ' · the camera stays on the death' : ''}
          </p>
        </section>
      ) : (
        <section class="observer-page__idle" role="status">
          <p class="observer-page__idle-title">
            {value.state === 'disabled' ? 'The smart observer is off' : 'No suggestion yet'}
          </p>
          <p class="muted">
            {value.blockedBy === 'no_subscription'
              ? 'It is switched on and waits for an active subscription (operator app: Integrations > Observer).'
              : value.state === 'disabled'
                ? 'Switch it on in the operator app (Integrations > Observer) or from a Stream Deck.'
                : 'Waiting for game data with players: spectate the match in CS2.'}
          </p>
        </section>
      )}
    </main>
  );
}

function ObserverPage() {
  useEffect(() => {
    document.title = auth.value === 'signed-out' ? 'Sign in · hud-automation' : 'Observer · hud-automation';
  }, [auth.value]);
  if (auth.value === 'checking') {
    return (
      <p class="splash" role="status">
        Connecting to hud-automation…
      </p>
    );
  }
  return auth.value === 'signed-out' ? <SignIn /> : <Watch />;
}

const root = document.getElementById('app');
if (root) render(<ObserverPage />, root);
void checkSignIn();
