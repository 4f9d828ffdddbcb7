/** The status bar: what a glance at the desk must tell, each item live from the WebSocket. */
import type { ComponentChildren } from 'preact';
import { connection, panelStatus, state } from '../common/store.ts';

type Tone = 'ok' | 'warn' | 'bad' | 'idle';

function Item(props: {
  hook: string;
  label: string;
  tone: Tone;
  children: ComponentChildren;
  title?: string;
}) {
  return (
    <li class="status" data-status={props.hook} data-tone={props.tone} title={props.title}>
      <span class="status__dot" aria-hidden="true" />
      <span class="status__label">{props.label}</span>
      <span class="status__value">{props.children}</span>
    </li>
  );
}

const hostOf = (url: string | undefined) => (url ? url.replace(/^[a-z]+:\/\//, '') : '');

export function StatusBar() {
  const link = connection.value;
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
        tone={link.status === 'open' ? 'ok' : link.status === 'closed' ? 'bad' : 'warn'}
      >
        {link.status === 'open'
          ? 'Live'
          : link.status === 'reconnecting'
            ? `Reconnecting${link.retryInMs ? ` in ${(link.retryInMs / 1000).toFixed(1)} s` : '…'}`
            : link.status === 'connecting'
              ? 'Connecting…'
              : 'Closed'}
      </Item>
      <Item
        hook="automation"
        label="Automation"
        tone={!automation ? 'idle' : automation.listening ? 'ok' : automation.enabled ? 'bad' : 'idle'}
      >
        {!automation
          ? '…'
          : automation.listening
            ? `On · ${hostOf(automation.httpUrls[0])}`
            : automation.enabled
              ? 'On, not listening'
              : 'Off'}
      </Item>
      <Item hook="lan" label="LAN" tone={panel?.settings.lanMode ? 'warn' : 'idle'}>
        {panel ? (panel.settings.lanMode ? 'On' : 'Off') : '…'}
      </Item>
      <Item
        hook="obs"
        label="OBS"
        tone={
          !obs || obsOff
            ? 'idle'
            : obs.connection === 'connected'
              ? 'ok'
              : obs.connection === 'connecting'
                ? 'warn'
                : 'bad'
        }
        title={obsReason ?? undefined}
      >
        {!obs
          ? '…'
          : obsOff
            ? 'Off'
            : obs.connection === 'connected'
              ? 'Connected'
              : obs.connection === 'connecting'
                ? 'Connecting…'
                : 'Not connected'}
        {obs && !obsOff && obs.connection !== 'connected' && obsReason ? (
          <span class="status__reason">: {obsReason}</span>
        ) : null}
      </Item>
      <Item hook="overlay" label="HUD overlay" tone={hud?.hudWindowOpen ? 'ok' : 'idle'}>
        {hud ? (hud.hudWindowOpen ? 'Open' : 'Closed') : '…'}
        {panel ? ` · ${panel.overlayPages} ${panel.overlayPages === 1 ? 'page' : 'pages'}` : ''}
      </Item>
      <Item hook="game" label="Game data" tone={hud?.gameReceiving ? 'ok' : 'idle'}>
        {hud ? (hud.gameReceiving ? 'Receiving' : 'Not receiving') : '…'}
      </Item>
      <Item hook="revision" label="Rev" tone="idle">
        <span data-revision>{link.revision}</span>
      </Item>
    </ul>
  );
}
