/** Integrations > OBS: address, password (never shown back), enabled, connection and replay buffer. */
import { useSignal } from '@preact/signals';
import { panelStatus, state } from '../common/store.ts';
import { api } from './api.ts';
import { Card, ErrorText, Field, Switch, useDraft } from './ui.tsx';

export function ObsView() {
  const status = panelStatus.value;
  const hud = state.value;
  const obs = status?.settings.obs;
  const url = useDraft(obs?.url ?? '');
  const password = useSignal('');
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const saved = useSignal(false);
  if (!status || !obs || !hud) return <p class="empty">Waiting for the server…</p>;
  const save = async (change: { url?: string; password?: string; enabled?: boolean }) => {
    busy.value = true;
    error.value = null;
    saved.value = false;
    const answer = await api.settings({ obs: change });
    busy.value = false;
    if (answer.ok) {
      saved.value = true;
      if (change.password !== undefined) password.value = '';
    } else error.value = answer.message;
  };
  const reason = 'reason' in hud.obs && typeof hud.obs.reason === 'string' ? hud.obs.reason : null;
  return (
    <div class="grid">
      <Card title="OBS connection" hook="obs" wide>
        <div class="obs-state" data-obs-connection={hud.obs.connection}>
          {obs.enabled ? (
            <span class={`pill pill--${hud.obs.connection}`}>{hud.obs.connection}</span>
          ) : (
            <span class="pill">Off</span>
          )}
          {obs.enabled && hud.obs.connection !== 'connected' && reason ? (
            <span class="muted">{reason}</span>
          ) : null}
          {obs.enabled ? null : <span class="muted">Switch on “Connect to OBS” to save replays.</span>}
          <span
            class="muted push-right"
            data-replay-buffer={hud.obs.replayBufferActive ? 'active' : 'inactive'}
          >
            Replay buffer {hud.obs.replayBufferActive ? 'active' : 'not active'}
          </span>
        </div>
        <Switch
          label="Connect to OBS"
          checked={obs.enabled}
          disabled={busy.value}
          onChange={(enabled) => void save({ enabled })}
          hook={{ 'data-setting': 'obs' }}
        />
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void save({ url: url.value.trim(), ...(password.value ? { password: password.value } : {}) });
          }}
        >
          <div class="row">
            <Field label="OBS WebSocket address" wide>
              <input
                value={url.value}
                placeholder="ws://127.0.0.1:4455"
                onInput={(e) => {
                  url.value = e.currentTarget.value;
                }}
              />
            </Field>
            <Field label="OBS password">
              <input
                type="password"
                autoComplete="off"
                value={password.value}
                placeholder={obs.passwordSet ? 'set' : 'none'}
                onInput={(e) => {
                  password.value = e.currentTarget.value;
                }}
              />
            </Field>
          </div>
          <div class="row row--end">
            {saved.value ? (
              <span class="success" role="status">
                Saved
              </span>
            ) : null}
            <button type="submit" class="btn btn--primary" aria-busy={busy.value}>
              Save OBS settings
            </button>
          </div>
          <ErrorText message={error.value} />
        </form>
        <p class="muted small">
          The password is stored by hud-automation and never shown again. Leave the field empty to keep it.
        </p>
      </Card>
    </div>
  );
}
