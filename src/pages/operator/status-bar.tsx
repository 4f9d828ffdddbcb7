/**
 * The status bar: what a glance at the desk must tell, each item live from the WebSocket. Each item
 * has a short value that always shows and a detail (an address, a reason, a count) that shows where
 * the header has room; the whole text is the item's tooltip, so the header stays one line on a
 * laptop. While the page's link to the server is down, every item but the link itself is the last
 * known value, not the present: it goes grey (tone `stale`) so no green says "fine" about a moment
 * nobody sees.
 */
import type { ComponentChildren } from 'preact';
import { connection, panelStatus, state } from '../common/store.ts';

type Tone = 'ok' | 'warn' | 'bad' | 'idle';

function Item(props: {
  hook: string;
  label: string;
  tone: Tone;
  value: ComponentChildren;
  /** What follows the value where there is room (and always in the tooltip). */
  detail?: string | null;
  /** The value as text, for the tooltip, where `value` is not plain text. */
  text?: string;
  /** More for the tooltip only. */
  more?: string;
  /** False while the link is down and the value is the last known one. */
  live: boolean;
  /** Shown only where the header has room (its value is in another item's tooltip too). */
  minor?: boolean;
}) {
  const stale = !props.live;
  const text = `${props.label}: ${props.text ?? String(props.value)}${props.detail ?? ''}${props.more ?? ''}`;
  return (
    <li
      class={props.minor ? 'status status--minor' : 'status'}
      data-status={props.hook}
      data-tone={stale ? 'stale' : props.tone}
      title={stale ? `${text} (last known: the link to the server is down)` : text}
    >
      <span class="status__dot" aria-hidden="true" />
      <span class="status__label">{props.label}</span>
      <span class="status__value">
        {props.value}
        {props.detail ? <span class="status__detail">{props.detail}</span> : null}
        {stale ? <span class="sr-only"> (last known)</span> : null}
      </span>
    </li>
  );
}

const hostOf = (url: string | undefined) => (url ? url.replace(/^[a-z]+:\/\//, '') : '');

export function StatusBar() {
  const link = connection.value;
  const live = link.status === 'open';
  const panel = panelStatus.value;
  const hud = state.value;
  const obs = hud?.obs;
  const obsReason = obs && 'reason' in obs && typeof obs.reason === 'string' ? obs.reason : null;
  const obsOff = panel ? !panel.settings.obs.enabled : false;
  const automation = panel?.automation;
  return (
    <ul class="status-bar" aria-label="Status">
      <Item
        hook="connection"
        label="Link"
        tone={live ? 'ok' : link.status === 'closed' ? 'bad' : 'warn'}
        value={
          live
            ? 'Live'
            : link.status === 'reconnecting'
              ? 'Reconnecting'
              : link.status === 'connecting'
                ? 'Connecting…'
                : 'Closed'
        }
        detail={
          link.status === 'reconnecting' && link.retryInMs
            ? ` in ${(link.retryInMs / 1000).toFixed(1)} s`
            : null
        }
        more={` (revision ${link.revision})`}
        live // the link tells the present even while it is down
      />
      <Item
        hook="automation"
        label="Automation"
        live={live}
        tone={!automation ? 'idle' : automation.listening ? 'ok' : automation.enabled ? 'bad' : 'idle'}
        value={
          !automation ? '…' : automation.listening ? 'On' : automation.enabled ? 'On, not listening' : 'Off'
        }
        detail={automation?.listening ? ` · ${hostOf(automation.httpUrls[0])}` : null}
      />
      <Item
        hook="lan"
        label="LAN"
        live={live}
        tone={panel?.settings.lanMode ? 'warn' : 'idle'}
        value={panel ? (panel.settings.lanMode ? 'On' : 'Off') : '…'}
      />
      <Item
        hook="obs"
        label="OBS"
        live={live}
        tone={
          !obs || obsOff
            ? 'idle'
            : obs.connection === 'connected'
              ? 'ok'
              : obs.connection === 'connecting'
                ? 'warn'
                : 'bad'
        }
        value={
          !obs
            ? '…'
            : obsOff
              ? 'Off'
              : obs.connection === 'connected'
                ? 'Connected'
                : obs.connection === 'connecting'
                  ? 'Connecting…'
                  : 'Not connected'
        }
        detail={obs && !obsOff && obs.connection !== 'connected' && obsReason ? `: ${obsReason}` : null}
      />
      <Item
        hook="overlay"
        label="HUD overlay"
        live={live}
        tone={hud?.hudWindowOpen ? 'ok' : 'idle'}
        value={hud ? (hud.hudWindowOpen ? 'Open' : 'Closed') : '…'}
        detail={panel ? ` · ${panel.overlayPages} ${panel.overlayPages === 1 ? 'page' : 'pages'}` : null}
      />
      <Item
        hook="game"
        label="Game data"
        live={live}
        tone={hud?.gameReceiving ? 'ok' : 'idle'}
        value={hud ? (hud.gameReceiving ? 'Receiving' : 'Not receiving') : '…'}
      />
      <Item
        hook="revision"
        label="Rev"
        minor
        live={live}
        tone="idle"
        value={<span data-revision>{link.revision}</span>}
        text={String(link.revision)}
      />
    </ul>
  );
}
