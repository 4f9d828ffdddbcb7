/**
 * Veto: the map pool, run a session turn by turn, set one by hand, import one, and reveal it on the
 * HUD. Every control that changes what is on air says so; switching the reveal's mode never does
 * without asking.
 */
import { computed, useSignal } from '@preact/signals';
import {
  ACTIVE_DUTY_AS_OF,
  ACTIVE_DUTY_POOL,
  mapLabel,
  normalizeMapName,
  RECENT_MAPS,
} from '../../../machines/map-names.ts';
import type { VetoStatus } from '../../protocol/index.ts';
import { BoFormatSchema, StepTypeSchema } from '../../protocol/index.ts';
import type { CommandAnswer } from '../common/client.ts';
import { match, panelStatus, reveal, veto } from '../common/store.ts';
import { api } from './api.ts';
import {
  Card,
  CommandButton,
  ConfirmButton,
  ErrorText,
  Field,
  literals,
  useCommand,
  useDraft,
} from './ui.tsx';

const BO_FORMATS = literals(BoFormatSchema);
const STEP_TYPES = literals(StepTypeSchema);
type Side = 'A' | 'B';

/** The map pool saved in the settings (veto_start's default), once the panel status has arrived. */
const savedPool = computed(() => panelStatus.value?.settings.veto.mapPool ?? null);

/** A map name as the operator typed it, as the full name, or the reason it is none. */
function mapFromInput(text: string): { map: string } | { error: string } {
  const map = normalizeMapName(text);
  return map ? { map } : { error: `"${text.trim()}" is not a map name (for example anubis or de_anubis)` };
}

/** A text field and a button that add one map (a name in any spelling). */
function AddMap(props: {
  label: string;
  hook: string;
  onAdd: (map: string) => Promise<string | null> | string | null;
}) {
  const text = useSignal('');
  const error = useSignal<string | null>(null);
  const add = async () => {
    if (!text.value.trim()) return;
    const parsed = mapFromInput(text.value);
    if ('error' in parsed) {
      error.value = parsed.error;
      return;
    }
    error.value = await props.onAdd(parsed.map);
    if (!error.value) text.value = '';
  };
  return (
    <div class="stack" data-add-map={props.hook}>
      <div class="row">
        <input
          aria-label={props.label}
          placeholder="Add a map: anubis, vertigo …"
          value={text.value}
          maxLength={64}
          list="pool-suggestions"
          onInput={(e) => {
            text.value = e.currentTarget.value;
            error.value = null;
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void add();
            }
          }}
        />
        <button type="button" class="btn btn--small" onClick={() => void add()}>
          Add
        </button>
      </div>
      <ErrorText message={error.value} />
    </div>
  );
}

/**
 * The map pool kept in the settings: what veto_start uses without a pool of its own, from here, a
 * Stream Deck or any program. Saved at once.
 */
function MapPool() {
  const pool = savedPool.value;
  const error = useSignal<string | null>(null);
  const save = async (mapPool: string[]) => {
    const answer = await api.settings({ veto: { mapPool } });
    error.value = answer.ok ? null : answer.message;
    return error.value;
  };
  const isDefault =
    pool !== null &&
    pool.length === ACTIVE_DUTY_POOL.length &&
    ACTIVE_DUTY_POOL.every((map, i) => pool[i] === map);
  return (
    <Card title="Map pool" hook="veto-pool">
      <p class="muted">
        Every new veto starts from this pool (veto_start without a mapPool, here, from Companion or any
        program). Saved at once.
      </p>
      {pool ? (
        <div class="pool" data-saved-pool>
          {pool.map((map) => (
            <span class="chip-check" data-saved-pool-map={map}>
              <span>{mapLabel(map)}</span>
              <button
                type="button"
                class="btn btn--small btn--plain"
                aria-label={`Remove ${mapLabel(map)} from the map pool`}
                disabled={pool.length <= 2}
                onClick={() => void save(pool.filter((m) => m !== map))}
              >
                ✕
              </button>
            </span>
          ))}
        </div>
      ) : (
        <p class="muted">…</p>
      )}
      {pool ? (
        <AddMap
          label="Add a map to the pool"
          hook="pool"
          onAdd={(map) =>
            pool.includes(map) ? `${mapLabel(map)} is already in the pool` : save([...pool, map])
          }
        />
      ) : null}
      {pool && !isDefault ? (
        <div class="row">
          <button
            type="button"
            class="btn btn--small btn--plain"
            data-action="pool-reset"
            onClick={() => void save([...ACTIVE_DUTY_POOL])}
          >
            Back to the Active Duty pool ({ACTIVE_DUTY_AS_OF})
          </button>
        </div>
      ) : null}
      <ErrorText message={error.value} />
    </Card>
  );
}

const teamLabel = (side: Side | null, status: Extract<VetoStatus, { active: true }>) =>
  side === null ? 'Decider' : `${side === 'A' ? status.teamA.name : status.teamB.name} (Team ${side})`;

function StartSession() {
  const summary = match.value;
  const draft = useDraft({
    bo: summary?.boFormat ?? 'bo3',
    teamA: summary?.teamA?.name ?? '',
    teamB: summary?.teamB?.name ?? '',
  });
  const firstBanner = useSignal<Side>('A');
  // The saved pool, plus the maps added for this veto only; unticked maps are left out of this veto.
  const added = useSignal<string[]>([]);
  const unticked = useSignal<string[]>([]);
  const pool = savedPool.value;
  const listed = pool ? [...pool, ...added.value.filter((map) => !pool.includes(map))] : null;
  const selected = (listed ?? []).filter((map) => !unticked.value.includes(map));
  const start = useCommand();
  const d = draft.value;
  const team = (name: string, side: Side) => {
    const current = side === 'A' ? summary?.teamA : summary?.teamB;
    return current && current.name === name.trim() ? current : { name: name.trim() };
  };
  return (
    <Card title="Start a veto" hook="veto-start">
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void start.run('veto_start', {
            boFormat: d.bo,
            teamA: team(d.teamA, 'A'),
            teamB: team(d.teamB, 'B'),
            firstBanner: firstBanner.value,
            // What is ticked is what runs; before the saved pool is known, the server's own.
            ...(listed ? { mapPool: selected } : {}),
          });
        }}
      >
        <div class="form-grid">
          <Field label="Format">
            <select
              value={d.bo}
              onChange={(e) => (draft.value = { ...d, bo: e.currentTarget.value as typeof d.bo })}
            >
              {BO_FORMATS.map((bo) => (
                <option value={bo}>{bo.toUpperCase()}</option>
              ))}
            </select>
          </Field>
          <Field label="Team A">
            <input
              required
              maxLength={64}
              value={d.teamA}
              onInput={(e) => (draft.value = { ...d, teamA: e.currentTarget.value })}
            />
          </Field>
          <Field label="Team B">
            <input
              required
              maxLength={64}
              value={d.teamB}
              onInput={(e) => (draft.value = { ...d, teamB: e.currentTarget.value })}
            />
          </Field>
        </div>
        <fieldset class="segmented">
          <legend>First ban</legend>
          {(['A', 'B'] as const).map((side) => (
            <label class="segmented__option">
              <input
                type="radio"
                name="first-banner"
                value={side}
                checked={firstBanner.value === side}
                onChange={() => {
                  firstBanner.value = side;
                }}
              />
              <span>{(side === 'A' ? d.teamA : d.teamB) || `Team ${side}`}</span>
            </label>
          ))}
        </fieldset>
        <fieldset class="pool" data-map-pool>
          <legend>
            Map pool of this veto ({String(selected.length)} maps; the saved pool is under Map pool)
          </legend>
          {listed ? (
            listed.map((map) => (
              <label class="chip-check">
                <input
                  type="checkbox"
                  checked={selected.includes(map)}
                  data-pool-map={map}
                  onChange={(e) => {
                    const tick = e.currentTarget.checked;
                    unticked.value = tick
                      ? unticked.value.filter((m) => m !== map)
                      : [...unticked.value, map];
                  }}
                />
                <span>{mapLabel(map)}</span>
              </label>
            ))
          ) : (
            <p class="muted">The saved map pool (loading …).</p>
          )}
        </fieldset>
        {listed ? (
          <AddMap
            label="Add a map to this veto"
            hook="veto-start"
            onAdd={(map) => {
              if (listed.includes(map)) {
                unticked.value = unticked.value.filter((m) => m !== map);
                return null;
              }
              added.value = [...added.value, map];
              return null;
            }}
          />
        ) : null}
        <div class="row row--end">
          <button
            type="submit"
            class="btn btn--primary"
            aria-busy={start.busy.value}
            data-action="veto-start"
          >
            Start veto
          </button>
        </div>
        <ErrorText message={start.error.value} />
      </form>
    </Card>
  );
}

function Session({ status }: { status: Extract<VetoStatus, { active: true }> }) {
  const select = useCommand();
  const cancel = useCommand();
  const next = status.nextStep;
  return (
    <Card
      title={`Veto session · ${status.boFormat.toUpperCase()}`}
      hook="veto-session"
      wide
      actions={
        <>
          <CommandButton action="veto_undo" disabled={status.steps.length === 0} data-action="veto-undo">
            Undo last step
          </CommandButton>
          <ConfirmButton
            label="Cancel session"
            question="Cancel the veto session?"
            detail="The session stops and the HUD shows the veto that was there before it."
            confirmLabel="Cancel session"
            hook={{ 'data-action': 'veto-cancel' }}
            onConfirm={() => void cancel.run('veto_cancel')}
          />
        </>
      }
    >
      <ErrorText message={cancel.error.value} />
      <div
        class="next-step"
        data-veto-next={next ? next.type : 'complete'}
        data-veto-team={next?.team ?? ''}
        aria-live="polite"
      >
        {next ? (
          <>
            <span class="next-step__label">Next</span>
            <span class={`next-step__type next-step__type--${next.type}`}>{next.type}</span>
            <span class="next-step__team">{teamLabel(next.team, status)}</span>
          </>
        ) : (
          <span class="next-step__done">Veto complete · the series maps are set</span>
        )}
      </div>
      {next ? (
        <fieldset class="map-grid">
          <legend class="sr-only">{`Maps: ${next.type} for ${teamLabel(next.team, status)}`}</legend>
          {status.remainingMaps.map((map) => (
            <button
              type="button"
              class={`map-btn map-btn--${next.type}`}
              data-veto-map={map}
              aria-busy={select.busy.value}
              onClick={() => void select.run('veto_select', { map })}
            >
              <span class="map-btn__name">{mapLabel(map)}</span>
              <span class="map-btn__action">{next.type}</span>
            </button>
          ))}
        </fieldset>
      ) : null}
      <ErrorText message={select.error.value} />
      <Steps steps={status.steps} teamA={status.teamA.name} teamB={status.teamB.name} />
    </Card>
  );
}

function Steps(props: {
  steps: Extract<VetoStatus, { active: true }>['steps'];
  teamA: string;
  teamB: string;
}) {
  if (props.steps.length === 0) return <p class="empty">No step played yet.</p>;
  return (
    <ol class="steps" aria-label="Steps played">
      {props.steps.map((step, index) => (
        <li class={`step step--${step.type}`} data-veto-step={index} data-step-type={step.type}>
          <span class="step__n">{index + 1}</span>
          <span class="step__type">{step.type}</span>
          <span class="step__map">{mapLabel(step.map)}</span>
          <span class="step__team">{step.team ? (step.team === 'A' ? props.teamA : props.teamB) : '—'}</span>
        </li>
      ))}
    </ol>
  );
}

interface StepDraft {
  type: (typeof STEP_TYPES)[number];
  team: Side;
  map: string;
}

function ManualVeto() {
  const summary = match.value;
  const fromMatch: StepDraft[] = (summary?.veto?.steps ?? []).map((step) => ({
    type: step.type,
    team: step.team ?? 'A',
    map: step.map,
  }));
  const steps = useDraft(fromMatch);
  const bo = useDraft(summary?.boFormat ?? 'bo3');
  const set = useCommand();
  // The editor suggests the saved pool's maps, then any other map of the veto on the HUD.
  const shown = (summary?.veto?.steps ?? []).map((step) => step.map);
  const pool = [...new Set([...(savedPool.value ?? []), ...shown])];
  const update = (index: number, changes: Partial<StepDraft>) => {
    steps.value = steps.value.map((step, i) => (i === index ? { ...step, ...changes } : step));
  };
  const ready = summary?.teamA && summary.teamB;
  return (
    <Card title="Set a veto by hand" hook="veto-set">
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (!summary?.teamA || !summary.teamB) return;
          void set.run('veto_set', {
            boFormat: bo.value,
            teamA: summary.teamA,
            teamB: summary.teamB,
            steps: steps.value.map((step) =>
              step.type === 'decider' ? { type: step.type, map: step.map } : step,
            ),
          });
        }}
      >
        {!ready ? <p class="muted">Set both teams in Match first.</p> : null}
        <Field label="Format">
          <select value={bo.value} onChange={(e) => (bo.value = e.currentTarget.value as typeof bo.value)}>
            {BO_FORMATS.map((format) => (
              <option value={format}>{format.toUpperCase()}</option>
            ))}
          </select>
        </Field>
        <datalist id="veto-maps">
          {pool.map((map) => (
            <option value={map}>{mapLabel(map)}</option>
          ))}
        </datalist>
        <ol class="step-editor">
          {steps.value.map((step, index) => (
            <li data-step-editor={index}>
              <span class="step__n">{index + 1}</span>
              <select
                aria-label={`Step ${index + 1} type`}
                value={step.type}
                onChange={(e) => update(index, { type: e.currentTarget.value as StepDraft['type'] })}
              >
                {STEP_TYPES.map((type) => (
                  <option value={type}>{type}</option>
                ))}
              </select>
              <select
                aria-label={`Step ${index + 1} team`}
                value={step.team}
                disabled={step.type === 'decider'}
                onChange={(e) => update(index, { team: e.currentTarget.value as Side })}
              >
                <option value="A">{summary?.teamA?.name ?? 'Team A'}</option>
                <option value="B">{summary?.teamB?.name ?? 'Team B'}</option>
              </select>
              <input
                aria-label={`Step ${index + 1} map`}
                list="veto-maps"
                required
                value={step.map}
                placeholder="mirage"
                onInput={(e) => update(index, { map: e.currentTarget.value })}
              />
              <button
                type="button"
                class="btn btn--small btn--plain"
                aria-label={`Remove step ${index + 1}`}
                onClick={() => {
                  steps.value = steps.value.filter((_, i) => i !== index);
                }}
              >
                ✕
              </button>
            </li>
          ))}
        </ol>
        <div class="row row--between">
          <button
            type="button"
            class="btn btn--plain"
            onClick={() => {
              const last = steps.value.at(-1);
              steps.value = [
                ...steps.value,
                { type: last?.type ?? 'ban', team: last?.team === 'A' ? 'B' : 'A', map: '' },
              ];
            }}
          >
            + Add step
          </button>
          <button
            type="submit"
            class="btn btn--primary"
            disabled={!ready || steps.value.length === 0}
            aria-busy={set.busy.value}
          >
            Set veto
          </button>
        </div>
        <ErrorText message={set.error.value} />
      </form>
    </Card>
  );
}

type ImportAnswer = Extract<CommandAnswer<'import_match_veto'>, { ok: true }>['result'];

const teamLine = (team: ImportAnswer['changes']['teamA']) =>
  `${team.name}${team.tag ? ` (${team.tag})` : ''}${team.logo ? ' · logo' : ' · no logo'}`;

/** What applying the import will change, from the server's own dry run (apply false): nothing is guessed here. */
function ImportPreview(props: { preview: ImportAnswer }) {
  const { changes, boFormat, provider } = props.preview;
  const current = match.value;
  const lost = changes.lostResults;
  return (
    <div class="preview" data-import-preview>
      <h3>What this import changes</h3>
      <dl>
        <dt>Team A (left)</dt>
        <dd data-preview-team="A">{teamLine(changes.teamA)}</dd>
        <dt>Team B (right)</dt>
        <dd data-preview-team="B">{teamLine(changes.teamB)}</dd>
        <dt>Teams</dt>
        <dd data-preview-teams={changes.teamsKept ? 'kept' : 'replaced'}>
          {changes.teamsKept
            ? `Your teams stay as set: order, names, tags and logos kept${changes.swapped ? `; ${provider.toUpperCase()} lists them the other way round, so its veto was turned to your order` : ''}.`
            : current?.teamA && current.teamB
              ? `New teams replace ${current.teamA.name} vs ${current.teamB.name}, in ${provider.toUpperCase()}'s order.`
              : `The teams are set as ${provider.toUpperCase()} lists them.`}
        </dd>
        <dt>Series</dt>
        <dd>
          {boFormat.toUpperCase()}:{' '}
          {changes.maps
            .map((entry) => `${entry.number}. ${entry.label}${entry.keepsResult ? ' (result kept)' : ''}`)
            .join(' · ')}
        </dd>
      </dl>
      {lost.length > 0 ? (
        <div class="warning" role="alert" data-preview-lost={lost.length}>
          <p>
            <strong>
              {lost.length} result{lost.length === 1 ? '' : 's'} will be replaced:
            </strong>{' '}
            {lost
              .map(
                (entry) =>
                  `map ${entry.number} ${entry.label} ${entry.scoreA}–${entry.scoreB}${entry.finished ? ' (finished)' : ''}`,
              )
              .join(', ')}
            .
          </p>
        </div>
      ) : (
        <p class="success" data-preview-lost="0">
          No result is lost.
        </p>
      )}
    </div>
  );
}

/**
 * Import a veto in two steps: the server reads it without applying (apply false) and says what it
 * would change; the operator applies on confirm, and confirms again when results would be lost.
 */
function ImportVeto() {
  const url = useSignal('');
  const show = useSignal(false);
  const run = useCommand();
  const done = useSignal<string | null>(null);
  const preview = useSignal<{ url: string; answer: ImportAnswer } | null>(null);
  const attempt = async () => {
    done.value = null;
    preview.value = null;
    const address = url.value.trim();
    const result = await run.run('import_match_veto', { url: address, apply: false, show: false });
    if (result.ok) preview.value = { url: address, answer: result.result };
  };
  const applyImport = async () => {
    const previewed = preview.value;
    if (!previewed) return;
    const result = await run.run('import_match_veto', { url: previewed.url, apply: true, show: show.value });
    if (result.ok) {
      const imported = result.result;
      const lost = imported.changes.lostResults.length;
      preview.value = null;
      done.value = `Imported ${imported.steps.length} steps from ${imported.provider}${lost ? `; ${lost} result${lost === 1 ? '' : 's'} replaced (Undo brings them back)` : ''}. The veto waits face down: reveal it in Reveal on the HUD.`;
    }
  };
  const failure = run.failure.value;
  const notYet = failure && !failure.ok && failure.status === 409;
  const lost = preview.value?.answer.changes.lostResults ?? [];
  return (
    <Card title="Import a veto" hook="veto-import">
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void attempt();
        }}
      >
        <Field label="FACEIT room or HLTV match URL" wide>
          <input
            type="url"
            required
            placeholder="https://www.faceit.com/en/cs2/room/…"
            value={url.value}
            onInput={(e) => {
              url.value = e.currentTarget.value;
              preview.value = null;
            }}
          />
        </Field>
        <div class="row">
          <label class="check">
            <input
              type="checkbox"
              checked={show.value}
              onChange={(e) => (show.value = e.currentTarget.checked)}
            />
            <span>Open the veto panel when applied</span>
          </label>
          <button
            type="submit"
            class="btn btn--primary push-right"
            aria-busy={run.busy.value}
            data-action="veto-import"
          >
            {run.busy.value && !preview.value ? 'Reading… (up to 20 s)' : 'Preview import'}
          </button>
        </div>
        {notYet ? (
          <div class="warning" role="alert" data-import-state="not-yet-available">
            <p>
              <strong>Not yet available.</strong> {failure.message}
            </p>
            <button
              type="button"
              class="btn btn--small"
              onClick={() => void attempt()}
              aria-busy={run.busy.value}
            >
              Retry
            </button>
          </div>
        ) : (
          <ErrorText message={run.error.value} />
        )}
        {preview.value ? (
          <>
            <ImportPreview preview={preview.value.answer} />
            <div class="row row--end">
              <button type="button" class="btn btn--plain" onClick={() => (preview.value = null)}>
                Cancel
              </button>
              {lost.length > 0 ? (
                <ConfirmButton
                  label="Apply import"
                  variant="primary"
                  busy={run.busy.value}
                  hook={{ 'data-action': 'veto-import-apply' }}
                  question={`Replace ${lost.length} result${lost.length === 1 ? '' : 's'} on air?`}
                  detail={`The import replaces ${lost
                    .map((entry) => `map ${entry.number} ${entry.label} ${entry.scoreA}–${entry.scoreB}`)
                    .join(', ')} and the series score with its own teams and maps. Undo brings them back.`}
                  confirmLabel="Apply and replace"
                  onConfirm={() => void applyImport()}
                />
              ) : (
                <button
                  type="button"
                  class="btn btn--primary"
                  aria-busy={run.busy.value}
                  data-action="veto-import-apply"
                  onClick={() => void applyImport()}
                >
                  Apply import
                </button>
              )}
            </div>
          </>
        ) : null}
        {done.value ? (
          <p class="success" role="status" data-import-state="done">
            {done.value}
          </p>
        ) : null}
      </form>
    </Card>
  );
}

/**
 * The reveal. Step by step, the buttons turn steps over on air one at a time; in instant mode every
 * step is on air as it is played, so the stepping buttons wait until step by step is chosen (a
 * `veto_reveal` step from a program switches by itself, as the spec says). Choosing step by step
 * keeps what is on air; choosing instant while steps are hidden puts them on air, and asks first.
 */
function Reveal() {
  const view = reveal.value;
  const mode = useCommand();
  const instant = view?.instant === true;
  const hidden = view ? view.total - view.revealed : 0;
  return (
    <Card title="Reveal on the HUD" hook="veto-reveal">
      <p
        class="reveal-count"
        data-reveal={view ? `${view.revealed}/${view.total}` : ''}
        data-reveal-mode={view ? (instant ? 'instant' : 'progressive') : ''}
        aria-live="polite"
      >
        {view ? (
          instant ? (
            <>
              <strong>Instant</strong>: every step is on air as it is played ({view.total} of {view.total})
            </>
          ) : (
            <>
              <strong>{view.revealed}</strong> of {view.total} steps on air
            </>
          )
        ) : (
          '…'
        )}
      </p>
      <fieldset class="row">
        <legend>Mode</legend>
        <button
          type="button"
          class={`btn btn--small${instant ? '' : ' btn--primary'}`}
          aria-pressed={!instant}
          data-reveal-choose="progressive"
          disabled={!view}
          onClick={() => {
            if (instant) void mode.run('veto_reveal', { instant: false });
          }}
        >
          Step by step (keeps what is on air)
        </button>
        {instant || hidden === 0 ? (
          <button
            type="button"
            class={`btn btn--small${instant ? ' btn--primary' : ''}`}
            aria-pressed={instant}
            data-reveal-choose="instant"
            disabled={!view}
            onClick={() => {
              if (!instant) void mode.run('veto_reveal', { instant: true });
            }}
          >
            Instant
          </button>
        ) : (
          <ConfirmButton
            label={`Instant (puts ${hidden} hidden ${hidden === 1 ? 'step' : 'steps'} on air)`}
            question="Show every step on air now?"
            detail={`Instant reveal shows all ${view?.total ?? 0} steps at once: the ${hidden} hidden ${hidden === 1 ? 'step turns' : 'steps turn'} over on air now.`}
            confirmLabel="Show all on air"
            variant="plain"
            small
            hook={{ 'data-reveal-choose': 'instant' }}
            onConfirm={() => void mode.run('veto_reveal', { instant: true })}
          />
        )}
      </fieldset>
      <ErrorText message={mode.error.value} />
      {instant ? (
        <p class="muted" data-reveal-hint>
          Choose step by step to turn the steps over one at a time.
        </p>
      ) : (
        <fieldset class="row">
          <legend>On air</legend>
          <CommandButton action="veto_reveal" payload={{ mode: 'prev' }} data-reveal-action="prev">
            ◀ Hide last
          </CommandButton>
          <CommandButton
            action="veto_reveal"
            payload={{ mode: 'next' }}
            variant="primary"
            data-reveal-action="next"
          >
            Reveal next ▶
          </CommandButton>
          <CommandButton action="veto_reveal" payload={{ mode: 'all' }} data-reveal-action="all">
            Reveal all
          </CommandButton>
          <CommandButton action="veto_reveal" payload={{ mode: 'reset' }} data-reveal-action="reset">
            Hide all
          </CommandButton>
        </fieldset>
      )}
    </Card>
  );
}

export function VetoView() {
  const status = veto.value;
  return (
    <div class="grid">
      <datalist id="pool-suggestions">
        {[...ACTIVE_DUTY_POOL, ...RECENT_MAPS].map((map) => (
          <option value={mapLabel(map)} />
        ))}
      </datalist>
      {status.active ? <Session status={status} /> : <StartSession />}
      <Reveal />
      <MapPool />
      <ImportVeto />
      <ManualVeto />
    </div>
  );
}
