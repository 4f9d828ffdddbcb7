/** Match: teams (names, tags, logos), event name, formats, the series maps with their results, reset. */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { LogoStatus } from '../../../machines/team-logo.ts';
import { derivedTag, TAG_LENGTH } from '../../../machines/team-logo.ts';
import type { MapView, MatchSummary } from '../../protocol/index.ts';
import { BoFormatSchema, TeamFormatSchema } from '../../protocol/index.ts';
import { initialsOf } from '../common/broadcast.ts';
import { SafeImage } from '../common/safe-image.tsx';
import { match } from '../common/store.ts';
import { RecentChanges } from './recent-changes.tsx';
import { loadTeams, savedPlayers, savedTeams } from './teams-store.ts';
import {
  Card,
  ConfirmButton,
  chosen,
  ErrorText,
  Field,
  ImageInput,
  literals,
  useCommand,
  useDraft,
} from './ui.tsx';

const BO_FORMATS = literals(BoFormatSchema);
const TEAM_FORMATS = literals(TeamFormatSchema);

type Side = 'A' | 'B';
interface TeamDraft {
  name: string;
  tag: string;
  logo: string;
}

const draftOf = (team: MatchSummary['teamA']): TeamDraft => ({
  name: team?.name ?? '',
  tag: team?.tag ?? '',
  logo: team?.logo ?? '',
});

/** The Team a draft sends: blank tag and logo are left out. */
function teamPayload(draft: TeamDraft) {
  const tag = draft.tag.trim();
  const logo = draft.logo.trim();
  return { name: draft.name.trim(), ...(tag ? { tag } : {}), ...(logo ? { logo } : {}) };
}

/** What the server holds of the saved logo, in words for the operator (docs/operator-app.md). */
function logoWords(logo: string, status: LogoStatus | null): string {
  if (!status) return 'No logo: the HUD shows the initials.';
  if (status.state === 'fetching') return 'Fetching the logo… the HUD shows the initials until it is stored.';
  if (status.state === 'failed') {
    return `Not stored: ${status.reason ?? 'the logo could not be loaded'}. The HUD shows the initials; save the teams to try again.`;
  }
  if (logo.startsWith('/media/')) return 'Uploaded: the HUD shows it.';
  if (logo.startsWith('data:')) return 'Inline image (data URL): the HUD shows it.';
  return 'Stored on this server: the HUD shows this copy, also offline.';
}

/**
 * A team name as typed: when it is a saved team's name or tag (chosen from the list of saved teams,
 * docs/teams-and-players.md), the saved team's name, tag and logo; its lineup is the saved team's.
 */
function fromSavedTeam(typed: string): Partial<TeamDraft> {
  const key = typed.trim().toLowerCase();
  const saved = savedTeams.value.find(
    (team) => team.name.toLowerCase() === key || (team.tag !== null && team.tag.toLowerCase() === key),
  );
  if (!saved || key === '') return { name: typed };
  return { name: saved.name, tag: saved.tag ?? '', logo: saved.logo ?? '' };
}

/**
 * A team of the match that is not saved yet is saved with its name, tag and logo (an uploaded one, or
 * the server's copy of an http(s) logo), so the next match finds it (docs/teams-and-players.md).
 */
async function saveNewTeams(summary: MatchSummary, run: ReturnType<typeof useCommand>['run']): Promise<void> {
  await loadTeams();
  for (const side of ['A', 'B'] as const) {
    const team = side === 'A' ? summary.teamA : summary.teamB;
    if (!team || savedTeams.value.some((entry) => entry.name.toLowerCase() === team.name.toLowerCase()))
      continue;
    const logo = summary.logos[side];
    const stored = logo?.state === 'stored' && logo.src?.startsWith('/media/') ? logo.src : undefined;
    await run('save_team', {
      name: team.name,
      ...(team.tag ? { tag: team.tag } : {}),
      ...(stored ? { logo: stored } : {}),
    });
  }
  await loadTeams();
}

/** The saved lineup of a team of the match (by its name), as the versus scene shows it. */
function SavedLineup({ name }: { name: string }) {
  const team = savedTeams.value.find((entry) => entry.name.toLowerCase() === name.trim().toLowerCase());
  if (!team) return null;
  const nameOf = (id: string) => savedPlayers.value.find((player) => player.id === id)?.name ?? id;
  return (
    <p class="small muted" data-saved-lineup>
      Saved team · lineup: {team.lineup.map(nameOf).join(', ') || 'none yet'}
      {team.coach ? ` · coach ${nameOf(team.coach)}` : ''}
    </p>
  );
}

function TeamFields(props: {
  side: Side;
  draft: TeamDraft;
  saved: MatchSummary['teamA'];
  status: LogoStatus | null;
  set: (changes: Partial<TeamDraft>) => void;
  onUploadError: (message: string) => void;
}) {
  const { side, draft, saved, status, set } = props;
  const label = `Team ${side}`;
  const pending = draft.logo.trim() !== (saved?.logo ?? '');
  // The preview is what the HUD would load: the stored copy of the saved logo, or a fresh upload.
  const preview = pending
    ? draft.logo.startsWith('/media/')
      ? draft.logo
      : null
    : status?.state === 'stored'
      ? (status.src ?? null)
      : null;
  const initials = (
    <span class="thumb thumb--initials" aria-hidden="true">
      {initialsOf(draft.name || label)}
    </span>
  );
  return (
    <fieldset class="team" data-team={side}>
      <legend>{label}</legend>
      <div class="row">
        <Field label={`${label} name`} wide>
          <input
            value={draft.name}
            maxLength={64}
            required
            list="saved-teams"
            data-team-search={side}
            onInput={(e) => set(fromSavedTeam(e.currentTarget.value))}
          />
        </Field>
        <Field label={`${label} tag`}>
          <input
            class="tag"
            value={draft.tag}
            maxLength={TAG_LENGTH.max}
            placeholder={draft.name.trim() ? derivedTag(draft.name) : 'NAVI'}
            onInput={(e) => set({ tag: e.currentTarget.value })}
          />
        </Field>
      </div>
      <SavedLineup name={draft.name} />
      <Field label={`${label} logo URL`}>
        <input
          type="text"
          inputMode="url"
          placeholder="https://… or upload a file"
          value={draft.logo}
          onInput={(e) => set({ logo: e.currentTarget.value })}
        />
      </Field>
      <div class="team-logo" data-logo-status={pending ? 'unsaved' : (status?.state ?? 'none')}>
        {preview ? (
          <SafeImage class="thumb" src={preview} alt={`${label} logo`} fallback={initials} />
        ) : (
          initials
        )}
        <ImageInput
          label={`${label} logo file`}
          hook={`team-${side}-logo`}
          onUploaded={({ url }) => set({ logo: url })}
          onError={props.onUploadError}
        />
        <p
          class={
            status?.state === 'failed' && !pending
              ? 'small logo-status logo-status--failed'
              : 'small muted logo-status'
          }
        >
          {pending ? 'Save the teams to use this logo.' : logoWords(draft.logo, status)}
        </p>
      </div>
    </fieldset>
  );
}

function Teams({ summary }: { summary: MatchSummary }) {
  const draft = useDraft({
    A: draftOf(summary.teamA),
    B: draftOf(summary.teamB),
    bo: summary.boFormat ?? ('' as const),
  });
  const save = useCommand();
  const swap = useCommand();
  const upload = useSignal<string | null>(null);
  const d = draft.value;
  const setTeam = (side: Side) => (changes: Partial<TeamDraft>) => {
    upload.value = null;
    draft.value = { ...draft.value, [side]: { ...draft.value[side], ...changes } };
  };
  return (
    <Card title="Teams" hook="teams" wide>
      <datalist id="saved-teams">
        {savedTeams.value.map((team) => (
          <option key={team.id} value={team.name}>
            {team.tag ?? ''}
          </option>
        ))}
      </datalist>
      <form
        class="teams"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await save.run('set_teams', {
            teamA: teamPayload(d.A),
            teamB: teamPayload(d.B),
            ...(d.bo ? { boFormat: d.bo } : {}),
          });
          if (answer.ok) await saveNewTeams(answer.result, save.run);
        }}
      >
        <TeamFields
          side="A"
          draft={d.A}
          saved={summary.teamA}
          status={summary.logos.A}
          set={setTeam('A')}
          onUploadError={(message) => (upload.value = message)}
        />
        <div class="teams__swap">
          <ConfirmButton
            label="⇄ Swap"
            variant="plain"
            ariaLabel="Swap team A and team B"
            busy={swap.busy.value}
            disabled={!summary.teamA || !summary.teamB}
            hook={{ 'data-action': 'swap-teams' }}
            question="Swap team A and team B on air?"
            detail={`${summary.teamB?.name ?? 'Team B'} goes to the left and ${summary.teamA?.name ?? 'Team A'} to the right on every page now, with their tags, logos, picks and results. Undo takes it back.`}
            confirmLabel="Swap on air"
            onConfirm={() => {
              const { teamA, teamB } = summary;
              if (!teamA || !teamB) return;
              void swap.run('set_teams', {
                teamA: teamPayload(draftOf(teamB)),
                teamB: teamPayload(draftOf(teamA)),
                ...(summary.boFormat ? { boFormat: summary.boFormat } : {}),
              });
            }}
          />
        </div>
        <TeamFields
          side="B"
          draft={d.B}
          saved={summary.teamB}
          status={summary.logos.B}
          set={setTeam('B')}
          onUploadError={(message) => (upload.value = message)}
        />
        <div class="row row--end teams__foot">
          <Field label="Series format">
            <select
              value={d.bo}
              onChange={(e) => (draft.value = { ...d, bo: chosen(BO_FORMATS, e.currentTarget.value) ?? '' })}
            >
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
        <ErrorText message={save.error.value ?? swap.error.value ?? upload.value} />
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
          onChange={(e) => {
            const chosenFormat = chosen(TEAM_FORMATS, e.currentTarget.value);
            if (chosenFormat) void format.run('set_team_format', { format: chosenFormat });
          }}
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
  // The scores as typed: the server refuses one outside 0 to 99 in words, nothing is clamped here.
  const draft = useDraft({
    scoreA: String(entry.scoreA),
    scoreB: String(entry.scoreB),
    finished: entry.finished,
  });
  const save = useCommand();
  const d = draft.value;
  const dirty =
    d.scoreA !== String(entry.scoreA) || d.scoreB !== String(entry.scoreB) || d.finished !== entry.finished;
  const label = `Map ${entry.number}`;
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
            draft.value = { ...d, scoreA: e.currentTarget.value };
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
            draft.value = { ...d, scoreB: e.currentTarget.value };
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
          onClick={() =>
            void save.run('set_map_result', {
              map: entry.number,
              scoreA: d.scoreA.trim(),
              scoreB: d.scoreB.trim(),
              finished: d.finished,
            })
          }
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
  // The saved teams the team names offer (the Teams & players view keeps them).
  useEffect(() => {
    void loadTeams();
  }, []);
  if (!summary) return <p class="empty">Waiting for the server…</p>;
  return (
    <div class="grid">
      <Teams summary={summary} />
      <EventAndFormat summary={summary} />
      <Series summary={summary} />
      <RecentChanges />
    </div>
  );
}
