/** Veto: run a session turn by turn, set one by hand, import one, and reveal it on the HUD. */
import { signal, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { mapLabel } from '../../../machines/map-names.ts';
import type { VetoStatus } from '../../protocol/index.ts';
import { BoFormatSchema, StepTypeSchema } from '../../protocol/index.ts';
import { match, reveal, veto } from '../common/store.ts';
import { api } from './api.ts';
import {
  Card,
  CommandButton,
  ConfirmButton,
  ErrorText,
  Field,
  literals,
  Switch,
  useCommand,
  useDraft,
} from './ui.tsx';

const BO_FORMATS = literals(BoFormatSchema);
const STEP_TYPES = literals(StepTypeSchema);
type Side = 'A' | 'B';

/**
 * The default map pool, as the server's catalogue describes veto_start (its mapPool default). Null
 * while unknown: veto_start without a mapPool then uses the server's default anyway.
 */
const defaultPool = signal<string[] | null>(null);
let poolRequested = false;
function loadDefaultPool(): void {
  if (poolRequested) return;
  poolRequested = true;
  void api.actions().then((answer) => {
    if (!answer.ok) return;
    const start = answer.actions.find((action) => action.id === 'veto_start');
    const mapPool = (
      start?.payload as { properties?: Record<string, { default?: unknown; examples?: unknown }> }
    )?.properties?.mapPool;
    const listed = Array.isArray(mapPool?.default)
      ? mapPool.default
      : Array.isArray(mapPool?.examples) && Array.isArray(mapPool.examples[0])
        ? mapPool.examples[0]
        : null;
    if (listed?.every((map) => typeof map === 'string')) defaultPool.value = listed as string[];
  });
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
  const pool = defaultPool.value;
  const chosen = useSignal<string[] | null>(null);
  const start = useCommand();
  useEffect(loadDefaultPool, []);
  const selected = chosen.value ?? pool ?? [];
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
            ...(chosen.value ? { mapPool: chosen.value } : {}),
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
          <legend>Map pool</legend>
          {pool ? (
            pool.map((map) => (
              <label class="chip-check">
                <input
                  type="checkbox"
                  checked={selected.includes(map)}
                  data-pool-map={map}
                  onChange={(e) => {
                    const next = e.currentTarget.checked
                      ? pool.filter((m) => m === map || selected.includes(m))
                      : selected.filter((m) => m !== map);
                    chosen.value =
                      next.length === pool.length && next.every((m, i) => m === pool[i]) ? null : next;
                  }}
                />
                <span>{mapLabel(map)}</span>
              </label>
            ))
          ) : (
            <p class="muted">The server's default pool (Active Duty).</p>
          )}
        </fieldset>
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
  const pool = defaultPool.value ?? [];
  useEffect(loadDefaultPool, []);
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

function ImportVeto() {
  const url = useSignal('');
  const apply = useSignal(true);
  const show = useSignal(false);
  const run = useCommand();
  const done = useSignal<string | null>(null);
  const attempt = async () => {
    done.value = null;
    const result = await run.run('import_match_veto', {
      url: url.value.trim(),
      apply: apply.value,
      show: show.value,
    });
    if (result.ok) {
      const imported = result.result as { provider?: string; steps?: unknown[] };
      done.value = `Imported ${imported.steps?.length ?? 0} steps from ${imported.provider ?? 'the source'}.`;
    }
  };
  const failure = run.failure.value;
  const notYet = failure && !failure.ok && failure.status === 409;
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
            }}
          />
        </Field>
        <div class="row">
          <label class="check">
            <input
              type="checkbox"
              checked={apply.value}
              onChange={(e) => (apply.value = e.currentTarget.checked)}
            />
            <span>Apply to the match</span>
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked={show.value}
              onChange={(e) => (show.value = e.currentTarget.checked)}
            />
            <span>Open the veto panel</span>
          </label>
          <button
            type="submit"
            class="btn btn--primary push-right"
            aria-busy={run.busy.value}
            data-action="veto-import"
          >
            {run.busy.value ? 'Importing… (up to 20 s)' : 'Import'}
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
        {done.value ? (
          <p class="success" role="status" data-import-state="done">
            {done.value}
          </p>
        ) : null}
      </form>
    </Card>
  );
}

function Reveal() {
  const view = reveal.value;
  const instant = useCommand();
  return (
    <Card title="Reveal on the HUD" hook="veto-reveal">
      <p class="reveal-count" data-reveal={view ? `${view.revealed}/${view.total}` : ''} aria-live="polite">
        {view ? (
          <>
            <strong>{view.revealed}</strong> of {view.total} steps shown
          </>
        ) : (
          '…'
        )}
      </p>
      <div class="row">
        <CommandButton action="veto_reveal" payload={{ mode: 'prev' }} data-reveal-action="prev">
          ◀ Previous
        </CommandButton>
        <CommandButton
          action="veto_reveal"
          payload={{ mode: 'next' }}
          variant="primary"
          data-reveal-action="next"
        >
          Next ▶
        </CommandButton>
        <CommandButton action="veto_reveal" payload={{ mode: 'all' }} data-reveal-action="all">
          Show all
        </CommandButton>
        <CommandButton action="veto_reveal" payload={{ mode: 'reset' }} data-reveal-action="reset">
          Hide all
        </CommandButton>
      </div>
      <Switch
        label="Instant reveal (all steps at once)"
        checked={view?.instant}
        onChange={(next) => void instant.run('veto_reveal', { instant: next })}
        hook={{ 'data-reveal-instant': '' }}
      />
      <ErrorText message={instant.error.value} />
    </Card>
  );
}

export function VetoView() {
  const status = veto.value;
  return (
    <div class="grid">
      {status.active ? <Session status={status} /> : <StartSession />}
      <Reveal />
      <ImportVeto />
      <ManualVeto />
    </div>
  );
}
