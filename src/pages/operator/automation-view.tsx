/** Integrations > Local automation: the automation server switch, its addresses, LAN mode, the token, recent requests. */
import { signal, useSignal } from '@preact/signals';
import type { RequestRecord } from '../../protocol/index.ts';
import type { PanelStatus } from '../common/store.ts';
import { panelStatus, requests } from '../common/store.ts';
import type { SettingsChange } from './api.ts';
import { api } from './api.ts';
import { Address, Card, ConfirmButton, CopyButton, ErrorText, Field, Switch } from './ui.tsx';

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

/** The three kinds of answer the list tells apart: done, refused (the sender's to fix), an error of ours. */
const RESULTS = {
  ok: { label: 'OK', matches: (status: number) => status < 400 },
  refused: { label: 'Refused', matches: (status: number) => status >= 400 && status < 500 },
  error: { label: 'Errors', matches: (status: number) => status >= 500 },
} as const;
type ResultClass = keyof typeof RESULTS;
const RESULT_CLASSES = Object.keys(RESULTS) as ResultClass[];
const resultOf = (status: number): ResultClass =>
  RESULT_CLASSES.find((kind) => RESULTS[kind].matches(status)) ?? 'error';

/** The command a request ran (`POST /api/actions/veto_select` and `trigger veto_select` alike), else the request. */
const commandOf = (request: string) =>
  /^POST \/api\/actions\/([^/?]+)$/.exec(request)?.[1] ?? /^trigger (\S+)$/.exec(request)?.[1] ?? request;

// Kept for the session, not per visit: an operator watching one command keeps the filter across views.
const commandFilter = signal('');
const resultFilter = signal<ResultClass | 'all'>('all');

function Row({ record }: { record: RequestRecord }) {
  const result = resultOf(record.status);
  return (
    <tr
      data-request-row
      data-request-id={record.id}
      data-status={record.status}
      data-transport={record.transport}
      data-result-class={result}
    >
      <td class="mono nowrap">
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
        <span class={result === 'ok' ? 'result result--ok' : 'result result--bad'}>
          {record.status}
          {record.error ? ` ${record.error}` : ''}
        </span>
        {record.count ? (
          <span class="badge" data-request-count={record.count} title="The same refusal, in a row">
            ×{record.count}
          </span>
        ) : null}
        <span class="request-message" data-request-message={record.message ?? ''}>
          {record.message ?? ''}
        </span>
      </td>
    </tr>
  );
}

/** The filters; each result shows how many of the chosen command's requests it would list. */
function Filters({ list, ofCommand }: { list: RequestRecord[]; ofCommand: RequestRecord[] }) {
  const commands = [...new Set(list.map((record) => commandOf(record.request)))].sort();
  const chosen = commandFilter.value;
  // A command chosen earlier stays offered while its entries have left the list.
  if (chosen && !commands.includes(chosen)) commands.unshift(chosen);
  const counts = { all: ofCommand.length, ok: 0, refused: 0, error: 0 };
  for (const record of ofCommand) counts[resultOf(record.status)] += record.count ?? 1;
  return (
    <div class="request-filters">
      <Field label="Command or route">
        <select
          value={chosen}
          onChange={(event) => (commandFilter.value = event.currentTarget.value)}
          data-request-filter="command"
        >
          <option value="">All commands</option>
          {commands.map((command) => (
            <option value={command}>{command}</option>
          ))}
        </select>
      </Field>
      <fieldset class="segmented segmented--small" data-request-filter="result">
        <legend>Result</legend>
        {(['all', ...RESULT_CLASSES] as const).map((kind) => (
          <label class="segmented__option">
            <input
              type="radio"
              name="request-result"
              value={kind}
              checked={resultFilter.value === kind}
              onChange={() => (resultFilter.value = kind)}
            />
            <span>
              {kind === 'all' ? 'All' : RESULTS[kind].label} <span class="muted">{counts[kind]}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}

function Requests() {
  const list = requests.value;
  const command = commandFilter.value;
  const result = resultFilter.value;
  const ofCommand = command ? list.filter((record) => commandOf(record.request) === command) : list;
  const shown =
    result === 'all' ? ofCommand : ofCommand.filter((record) => resultOf(record.status) === result);
  const filtered = shown.length !== list.length;
  return (
    <Card title="Recent requests" hook="requests" wide>
      {list.length === 0 ? (
        <p class="empty">
          No request yet. Commands from Stream Deck, Companion, scripts and this app appear here live.
        </p>
      ) : (
        <>
          <Filters list={list} ofCommand={ofCommand} />
          <p class="muted small" data-requests-shown={shown.length}>
            {filtered
              ? `${shown.length} of the last ${list.length} requests`
              : `The last ${list.length} requests`}
          </p>
          {shown.length === 0 ? (
            <p class="empty">No recent request matches the filter.</p>
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
                  {shown.map((record) => (
                    <Row record={record} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
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
