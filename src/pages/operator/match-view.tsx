/** Match: teams, event name, formats, the series maps with their results, reset. */
import type { MapView, MatchSummary } from '../../protocol/index.ts';
import { BoFormatSchema, TeamFormatSchema } from '../../protocol/index.ts';
import { match } from '../common/store.ts';
import { Card, ConfirmButton, ErrorText, Field, literals, useCommand, useDraft } from './ui.tsx';

const BO_FORMATS = literals(BoFormatSchema);
const TEAM_FORMATS = literals(TeamFormatSchema);

function teamPayload(name: string, logo: string) {
  return { name: name.trim(), ...(logo.trim() ? { logo: logo.trim() } : {}) };
}

function Teams({ summary }: { summary: MatchSummary }) {
  const draft = useDraft({
    aName: summary.teamA?.name ?? '',
    aLogo: summary.teamA?.logo ?? '',
    bName: summary.teamB?.name ?? '',
    bLogo: summary.teamB?.logo ?? '',
    bo: summary.boFormat ?? '',
  });
  const save = useCommand();
  const swap = useCommand();
  const d = draft.value;
  const set = (changes: Partial<typeof d>) => {
    draft.value = { ...draft.value, ...changes };
  };
  const send = (aName: string, aLogo: string, bName: string, bLogo: string) =>
    save.run('set_teams', {
      teamA: teamPayload(aName, aLogo),
      teamB: teamPayload(bName, bLogo),
      ...(d.bo ? { boFormat: d.bo } : {}),
    });
  return (
    <Card title="Teams" hook="teams" wide>
      <form
        class="teams"
        onSubmit={(event) => {
          event.preventDefault();
          void send(d.aName, d.aLogo, d.bName, d.bLogo);
        }}
      >
        <fieldset class="team" data-team="A">
          <legend>Team A</legend>
          <Field label="Team A name">
            <input
              value={d.aName}
              maxLength={64}
              required
              onInput={(e) => set({ aName: e.currentTarget.value })}
            />
          </Field>
          <Field label="Team A logo URL">
            <input type="url" value={d.aLogo} onInput={(e) => set({ aLogo: e.currentTarget.value })} />
          </Field>
        </fieldset>
        <div class="teams__swap">
          <button
            type="button"
            class="btn btn--plain"
            aria-label="Swap team A and team B"
            aria-busy={swap.busy.value}
            disabled={!summary.teamA || !summary.teamB}
            data-action="swap-teams"
            onClick={() => {
              const { teamA, teamB } = summary;
              if (!teamA || !teamB) return;
              void swap.run('set_teams', {
                teamA: teamB,
                teamB: teamA,
                ...(summary.boFormat ? { boFormat: summary.boFormat } : {}),
              });
            }}
          >
            ⇄ Swap
          </button>
        </div>
        <fieldset class="team" data-team="B">
          <legend>Team B</legend>
          <Field label="Team B name">
            <input
              value={d.bName}
              maxLength={64}
              required
              onInput={(e) => set({ bName: e.currentTarget.value })}
            />
          </Field>
          <Field label="Team B logo URL">
            <input type="url" value={d.bLogo} onInput={(e) => set({ bLogo: e.currentTarget.value })} />
          </Field>
        </fieldset>
        <div class="row row--end teams__foot">
          <Field label="Series format">
            <select value={d.bo} onChange={(e) => set({ bo: e.currentTarget.value })}>
              <option value="" disabled>
                Not set
              </option>
              {BO_FORMATS.map((bo) => (
                <option value={bo}>{bo.toUpperCase()}</option>
              ))}
            </select>
          </Field>
          <button type="submit" class="btn btn--primary" aria-busy={save.busy.value} data-action="save-teams">
            Save teams
          </button>
        </div>
        <ErrorText message={save.error.value ?? swap.error.value} />
      </form>
    </Card>
  );
}

function EventAndFormat({ summary }: { summary: MatchSummary }) {
  const name = useDraft(summary.eventName);
  const saveName = useCommand();
  const format = useCommand();
  return (
    <Card title="Event" hook="event">
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void saveName.run('set_event_name', { name: name.value });
        }}
      >
        <div class="row">
          <Field label="Event name" wide>
            <input
              value={name.value}
              maxLength={120}
              onInput={(e) => {
                name.value = e.currentTarget.value;
              }}
            />
          </Field>
          <button type="submit" class="btn btn--primary" aria-busy={saveName.busy.value}>
            Save
          </button>
        </div>
        <ErrorText message={saveName.error.value} />
      </form>
      <Field label="Team format">
        <select
          value={summary.teamFormat}
          aria-busy={format.busy.value}
          onChange={(e) => void format.run('set_team_format', { format: e.currentTarget.value })}
        >
          {TEAM_FORMATS.map((f) => (
            <option value={f}>{f === 'auto' ? 'Auto' : f}</option>
          ))}
        </select>
      </Field>
      <ErrorText message={format.error.value} />
    </Card>
  );
}

function MapRow({ entry, summary }: { entry: MapView; summary: MatchSummary }) {
  const draft = useDraft({ scoreA: entry.scoreA, scoreB: entry.scoreB, finished: entry.finished });
  const save = useCommand();
  const d = draft.value;
  const dirty = d.scoreA !== entry.scoreA || d.scoreB !== entry.scoreB || d.finished !== entry.finished;
  const label = `Map ${entry.number}`;
  const score = (value: string) => Math.max(0, Math.min(99, Number.parseInt(value, 10) || 0));
  return (
    <tr data-series-map={entry.number} data-finished={entry.finished} aria-label={`${label}: ${entry.label}`}>
      <th scope="row" class="num">
        {entry.number}
      </th>
      <td>
        <strong>{entry.label}</strong>
      </td>
      <td class="muted">{entry.pickedBy}</td>
      <td>
        <input
          class="score"
          type="number"
          min={0}
          max={99}
          aria-label={`${label} score ${summary.teamA?.name ?? 'Team A'}`}
          value={d.scoreA}
          onInput={(e) => {
            draft.value = { ...d, scoreA: score(e.currentTarget.value) };
          }}
        />
        <span class="score__sep" aria-hidden="true">
          :
        </span>
        <input
          class="score"
          type="number"
          min={0}
          max={99}
          aria-label={`${label} score ${summary.teamB?.name ?? 'Team B'}`}
          value={d.scoreB}
          onInput={(e) => {
            draft.value = { ...d, scoreB: score(e.currentTarget.value) };
          }}
        />
      </td>
      <td>
        <label class="check">
          <input
            type="checkbox"
            checked={d.finished}
            onChange={(e) => {
              draft.value = { ...d, finished: e.currentTarget.checked };
            }}
          />
          <span>
            Finished<span class="sr-only"> ({label})</span>
          </span>
        </label>
      </td>
      <td data-winner>{entry.winner ?? <span class="muted">—</span>}</td>
      <td>
        <button
          type="button"
          class={dirty ? 'btn btn--primary btn--small' : 'btn btn--small'}
          aria-label={`Save ${label} result`}
          aria-busy={save.busy.value}
          onClick={() => void save.run('set_map_result', { map: entry.number, ...d })}
        >
          Save
        </button>
        <ErrorText message={save.error.value} />
      </td>
    </tr>
  );
}

function Series({ summary }: { summary: MatchSummary }) {
  const reset = useCommand();
  const { seriesScore, teamA, teamB } = summary;
  return (
    <Card
      title="Series"
      hook="series"
      wide
      actions={
        <ConfirmButton
          label="Reset veto and maps"
          question="Reset the veto and the series maps?"
          detail="This clears the veto, every series map and its result, and stops a veto session. The HUD updates at once."
          confirmLabel="Reset"
          hook={{ 'data-action': 'reset-veto' }}
          onConfirm={() => void reset.run('reset_veto')}
        />
      }
    >
      <ErrorText message={reset.error.value} />
      <div class="scoreline" data-series-score>
        <span class="sr-only">Series score</span>
        <span class="scoreline__team">{teamA?.name ?? 'Team A'}</span>
        <span class="scoreline__score">
          <span data-score="A">{seriesScore.a}</span>
          <span aria-hidden="true">–</span>
          <span data-score="B">{seriesScore.b}</span>
        </span>
        <span class="scoreline__team scoreline__team--b">{teamB?.name ?? 'Team B'}</span>
        <span class="badge">{summary.boFormat ? summary.boFormat.toUpperCase() : 'Format not set'}</span>
      </div>
      {summary.maps.length === 0 ? (
        <p class="empty">No series maps yet: run or import a veto, or set one by hand in Veto.</p>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Map</th>
                <th scope="col">Picked by</th>
                <th scope="col">Score</th>
                <th scope="col">Played</th>
                <th scope="col">Winner</th>
                <th scope="col">
                  <span class="sr-only">Save</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.maps.map((entry) => (
                <MapRow key={entry.number} entry={entry} summary={summary} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

export function MatchView() {
  const summary = match.value;
  if (!summary) return <p class="empty">Waiting for the server…</p>;
  return (
    <div class="grid">
      <Teams summary={summary} />
      <EventAndFormat summary={summary} />
      <Series summary={summary} />
    </div>
  );
}
