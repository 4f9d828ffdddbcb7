/** The operator app: sign-in, or the status bar, the tabs and the chosen view. */
import { signal } from '@preact/signals';
import type { ComponentType } from 'preact';
import { useEffect } from 'preact/hooks';
import { connection, match, panelStatus } from '../common/store.ts';
import { MachinesView } from '../machines/machines-view.tsx';
import { AutomationView } from './automation-view.tsx';
import { GameView } from './game-view.tsx';
import { lastHotkey, onHotkey } from './hotkeys.ts';
import { HudView } from './hud-view.tsx';
import { LiveView } from './live-view.tsx';
import { MatchView } from './match-view.tsx';
import { ObsView } from './obs-view.tsx';
import { ObserverView } from './observer-view.tsx';
import { ChangeToast } from './recent-changes.tsx';
import { auth, signOut } from './session.ts';
import { SignIn } from './sign-in.tsx';
import { StatusBar } from './status-bar.tsx';
import { TeamsView } from './teams-view.tsx';
import { VetoView } from './veto-view.tsx';

interface View {
  id: string;
  label: string;
  group?: string;
  component: ComponentType;
}

const VIEWS: View[] = [
  // The show's own page comes first: it is what the operator sees after signing in.
  { id: 'live', label: 'Live', component: LiveView },
  { id: 'match', label: 'Match', component: MatchView },
  { id: 'veto', label: 'Veto', component: VetoView },
  { id: 'teams', label: 'Teams & players', component: TeamsView },
  { id: 'hud', label: 'HUD', component: HudView },
  { id: 'machines', label: 'Machines', component: MachinesView },
  { id: 'automation', label: 'Local automation', group: 'Integrations', component: AutomationView },
  { id: 'obs', label: 'OBS', group: 'Integrations', component: ObsView },
  { id: 'game', label: 'Game', group: 'Integrations', component: GameView },
  { id: 'observer', label: 'Observer', group: 'Integrations', component: ObserverView },
];

/** The views in runs of the same group, in order: how the tab bar lays them out. */
const SECTIONS = VIEWS.reduce<Array<{ group?: string; views: View[] }>>((sections, view) => {
  const last = sections.at(-1);
  if (last && last.group === view.group) last.views.push(view);
  else sections.push({ group: view.group, views: [view] });
  return sections;
}, []);

const viewFromHash = () => {
  const id = window.location.hash.replace(/^#/, '');
  return VIEWS.some((view) => view.id === id) ? id : 'live';
};
const current = signal(viewFromHash());
window.addEventListener('hashchange', () => {
  current.value = viewFromHash();
});

function choose(id: string, focus = false) {
  current.value = id;
  history.replaceState(null, '', `#${id}`);
  if (focus) document.getElementById(`tab-${id}`)?.focus();
}

function Tabs() {
  return (
    <nav class="tabs" aria-label="Views">
      <div
        role="tablist"
        aria-orientation="horizontal"
        class="tabs__list"
        onKeyDown={(event) => {
          const index = VIEWS.findIndex((view) => view.id === current.value);
          const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
          if (event.key === 'Home') choose(VIEWS[0]?.id ?? 'live', true);
          else if (event.key === 'End') choose(VIEWS.at(-1)?.id ?? 'live', true);
          else if (step) choose(VIEWS[(index + step + VIEWS.length) % VIEWS.length]?.id ?? 'live', true);
          else return;
          event.preventDefault();
        }}
      >
        {SECTIONS.map(({ group, views }) => (
          // A section (the show's views, then each group) wraps as one piece: in a narrow window
          // the Integrations take a row of their own, label and all, and no tab is out of sight.
          <div class="tabs__section" role="none" key={group ?? 'show'}>
            {group ? (
              <span class="tabs__group" aria-hidden="true">
                {group}
              </span>
            ) : null}
            {views.map((view) => (
              <button
                type="button"
                role="tab"
                key={view.id}
                id={`tab-${view.id}`}
                class="tab"
                aria-selected={current.value === view.id}
                aria-controls={`view-${view.id}`}
                tabIndex={current.value === view.id ? 0 : -1}
                data-tab={view.id}
                onClick={() => choose(view.id)}
              >
                {view.group ? <span class="sr-only">{view.group}: </span> : null}
                {view.label}
              </button>
            ))}
          </div>
        ))}
      </div>
    </nav>
  );
}

function Header() {
  const summary = match.value;
  // The whole line, for the tooltip: where the header is narrow the line is cut with an ellipsis.
  const title =
    summary?.teamA && summary.teamB
      ? `${summary.teamA.name} ${summary.seriesScore.a} – ${summary.seriesScore.b} ${summary.teamB.name}${summary.eventName ? ` · ${summary.eventName}` : ''}`
      : undefined;
  return (
    <header class="top">
      <div class="top__brand">
        <span class="brand">hud-automation</span>
        <span class="top__match" data-match-title title={title}>
          {summary?.teamA && summary.teamB ? (
            <>
              <strong>{summary.teamA.name}</strong>
              <span class="top__score">
                {summary.seriesScore.a} – {summary.seriesScore.b}
              </span>
              <strong>{summary.teamB.name}</strong>
            </>
          ) : (
            <span class="muted">No teams set</span>
          )}
          {summary?.eventName ? <span class="muted"> · {summary.eventName}</span> : null}
        </span>
      </div>
      <StatusBar />
      <button
        type="button"
        class="btn btn--small btn--plain"
        onClick={() => void signOut()}
        data-action="sign-out"
      >
        Sign out
      </button>
    </header>
  );
}

/** What the last hotkey did, for a few seconds, wherever the operator is in the app. */
function HotkeyFeedback() {
  const last = lastHotkey.value;
  useEffect(() => {
    if (!last) return;
    const timer = setTimeout(() => {
      if (lastHotkey.value === last) lastHotkey.value = null;
    }, 4_000);
    return () => clearTimeout(timer);
  }, [last]);
  return (
    <div class="hotkey-feedback" role="status">
      {last ? (
        <p
          class={last.ok ? 'hotkey-feedback__note' : 'hotkey-feedback__note hotkey-feedback__note--bad'}
          data-hotkey-feedback={last.key}
          data-hotkey-ok={last.ok ? 'yes' : 'no'}
          role={last.ok ? undefined : 'alert'}
        >
          <kbd class="hotkey">{last.key}</kbd> {last.text}
        </p>
      ) : null}
    </div>
  );
}

/**
 * While programs are connected to the automation server (a Stream Deck through Companion), this
 * page is their main window: closing it makes their veto, match and observer commands answer 503.
 * The browser asks first (its own words: a page cannot set the text of that question).
 */
function askBeforeClosing(event: BeforeUnloadEvent): void {
  if ((panelStatus.value?.automation.clients ?? 0) === 0) return;
  event.preventDefault();
  // Older engines ask only when returnValue is set.
  event.returnValue = '';
}

function Shell() {
  const view = VIEWS.find((candidate) => candidate.id === current.value) ?? VIEWS[0];
  const link = connection.value;
  useEffect(() => {
    window.addEventListener('keydown', onHotkey);
    window.addEventListener('beforeunload', askBeforeClosing);
    return () => {
      window.removeEventListener('keydown', onHotkey);
      window.removeEventListener('beforeunload', askBeforeClosing);
    };
  }, []);
  if (!view) return null;
  const Component = view.component;
  return (
    <div class="shell" data-connection={link.status}>
      <a class="skip" href={`#view-${view.id}`}>
        Skip to content
      </a>
      <Header />
      <Tabs />
      {link.status === 'reconnecting' ? (
        <div class="banner" role="status" data-banner="reconnecting">
          Connection lost: reconnecting. What you see is the last known state; commands wait until the link is
          back.
        </div>
      ) : null}
      <main class="view">
        <div
          id={`view-${view.id}`}
          role="tabpanel"
          aria-labelledby={`tab-${view.id}`}
          data-view={view.id}
          tabIndex={-1}
        >
          <h1 class="sr-only">{view.group ? `${view.group}: ${view.label}` : view.label}</h1>
          <Component />
        </div>
      </main>
      <HotkeyFeedback />
      <ChangeToast />
    </div>
  );
}

export function App() {
  useEffect(() => {
    document.title = auth.value === 'signed-out' ? 'Sign in · hud-automation' : 'Operator · hud-automation';
  }, [auth.value]);
  return (
    <div class="app" data-auth={auth.value}>
      {auth.value === 'checking' ? (
        <p class="splash" role="status">
          Connecting to hud-automation…
        </p>
      ) : auth.value === 'signed-out' ? (
        <SignIn />
      ) : (
        <Shell />
      )}
    </div>
  );
}
