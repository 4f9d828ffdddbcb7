/** Integrations > Local automation: the automation server switch, its addresses, LAN mode, the token, recent requests. */
import { useSignal } from '@preact/signals';
import type { RequestRecord } from '../../protocol/index.ts';
import type { PanelStatus } from '../common/store.ts';
import { panelStatus, requests } from '../common/store.ts';
import type { SettingsChange } from './api.ts';
import { api } from './api.ts';
import { Address, Card, ConfirmButton, CopyButton, ErrorText, Switch } from './ui.tsx';

/** Saves one settings change; the new state arrives as panel.status, so only the error is kept here. */
function useSettings() {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const save = async (change: SettingsChange) => {
    busy.value = true;
    error.value = null;
    const answer = await api.settings(change);
    busy.value = false;
    if (!answer.ok) error.value = answer.message;
  };
  return { save, busy, error };
}

function Server({ status }: { status: PanelStatus }) {
  const enable = useSettings();
  const lan = useSettings();
  const { automation, settings } = status;
  return (
    <Card title="Automation server" hook="automation-server" wide>
      <Switch
        label="Enable local automation server"
        checked={automation.enabled}
        disabled={enable.busy.value}
        onChange={(enabled) => void enable.save({ automation: { enabled } })}
        hook={{ 'data-setting': 'automation' }}
      />
      <p class="muted small" data-automation-listening={automation.listening ? 'yes' : 'no'}>
        {automation.listening
          ? `Listening on port ${automation.port ?? ''}. Stream Deck, Companion and scripts send commands to these addresses.`
          : automation.enabled
            ? 'Enabled but not listening: the port may be in use by another program.'
            : 'Off: the port is closed and programs cannot send commands.'}
      </p>
      <ErrorText message={enable.error.value} />
      {automation.listening ? (
        <div class="two-col">
          <div>
            <h3>HTTP</h3>
            <ul class="address-list">
              {automation.httpUrls.map((url) => (
                <Address url={url} what="HTTP address" hook={{ 'data-automation-url': 'http' }} />
              ))}
            </ul>
          </div>
          <div>
            <h3>WebSocket</h3>
            <ul class="address-list">
              {automation.wsUrls.map((url) => (
                <Address url={url} what="WebSocket address" hook={{ 'data-automation-url': 'ws' }} />
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      <hr />
      <Switch
        label="Allow connections from the local network"
        checked={settings.lanMode}
        disabled={lan.busy.value}
        onChange={(lanMode) => void lan.save({ lanMode })}
        hook={{ 'data-setting': 'lan' }}
      />
      <p class="muted small">
        {settings.lanMode
          ? 'Devices on this local network can connect with the access token. Traffic is not encrypted: trusted networks only.'
          : 'Only programs on this computer can connect.'}
      </p>
      <ErrorText message={lan.error.value} />
    </Card>
  );
}

function Token() {
  const token = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const load = async (regenerate: boolean) => {
    busy.value = true;
    error.value = null;
    const answer = regenerate ? await api.regenerateToken() : await api.token();
    busy.value = false;
    if (answer.ok) token.value = answer.token;
    else error.value = answer.message;
  };
  return (
    <Card title="Access token" hook="token" fill>
      <p class="muted small">Devices on the local network send it with every request. Keep it secret.</p>
      <div class="token" data-token={token.value ? 'revealed' : 'hidden'}>
        <span class="sr-only">Access token: </span>
        {token.value ? <code>{token.value}</code> : <code aria-hidden="true">••••••••••••••••••••••••</code>}
        {token.value ? null : <span class="sr-only">hidden</span>}
      </div>
      <div class="row">
        {token.value ? (
          <button type="button" class="btn btn--small" onClick={() => (token.value = null)}>
            Hide
          </button>
        ) : (
          <button
            type="button"
            class="btn btn--small"
            aria-busy={busy.value}
            onClick={() => void load(false)}
          >
            Reveal
          </button>
        )}
        {token.value ? <CopyButton text={token.value} label="Copy access token" /> : null}
        <ConfirmButton
          label="Regenerate"
          question="Regenerate the access token?"
          detail="Every device on the local network is disconnected at once and must use the new token. Programs on this computer are not affected."
          confirmLabel="Regenerate and disconnect"
          small
          hook={{ 'data-action': 'regenerate-token' }}
          onConfirm={() => void load(true)}
        />
      </div>
      <ErrorText message={error.value} />
    </Card>
  );
}

const timeOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString([], { hour12: false });
};

function Row({ record }: { record: RequestRecord }) {
  const ok = record.status < 400;
  return (
    <tr data-request-row data-status={record.status} data-transport={record.transport}>
      <td class="mono">
        <time dateTime={record.time}>{timeOf(record.time)}</time>
      </td>
      <td class="mono">{record.address}</td>
      <td>
        <span class="badge">{record.transport === 'app' ? 'App' : record.transport.toUpperCase()}</span>
      </td>
      <td class="mono" data-request={record.request}>
        {record.request}
      </td>
      <td>
        <span class={ok ? 'result result--ok' : 'result result--bad'}>
          {record.status}
          {record.error ? ` ${record.error}` : ''}
        </span>
      </td>
    </tr>
  );
}

function Requests() {
  const list = requests.value;
  return (
    <Card title="Recent requests" hook="requests" wide>
      {list.length === 0 ? (
        <p class="empty">
          No request yet. Commands from Stream Deck, Companion, scripts and this app appear here live.
        </p>
      ) : (
        <div class="table-wrap table-wrap--scroll">
          <table class="table table--dense" aria-label="Recent requests">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Sender</th>
                <th scope="col">Via</th>
                <th scope="col">Command or route</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {list.map((record) => (
                <Row record={record} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

export function AutomationView() {
  const status = panelStatus.value;
  if (!status) return <p class="empty">Waiting for the server…</p>;
  return (
    <div class="grid">
      <Server status={status} />
      <Token />
      <Requests />
    </div>
  );
}
