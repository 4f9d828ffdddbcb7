/**
 * Teams & players: the database of teams and players (docs/teams-and-players.md). The live players
 * the database does not know, each added in one click; the teams and the players, searched as one
 * types, edited in a form (photo and logo uploaded as any image).
 */
import type { Signal } from '@preact/signals';
import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { PlayerRecord, TeamView } from '../../protocol/index.ts';
import { Flag } from '../common/flag.tsx';
import { gameLive } from '../common/game-store.ts';
import { PlayerPhoto } from '../common/player-photo.tsx';
import { searchPlayers, searchTeams } from '../common/team-search.ts';
import { loadTeams, savedPlayers, savedTeams, teamsError } from './teams-store.ts';
import { Card, ErrorText, Field, ImageInput, useCommand } from './ui.tsx';

/** The live players the database does not know, by HUD slot: one click saves each under the game's name. */
function UnknownPlayers() {
  const command = useCommand();
  const unknown = Object.values(gameLive.value.players)
    .filter((player) => player.playerId === null)
    .sort((a, b) => ((a.slot + 9) % 10) - ((b.slot + 9) % 10));
  return (
    <Card title="Live players not saved" hook="unknown-players">
      {unknown.length === 0 ? (
        <p class="muted">Every player in the game data is saved (or no game data arrives).</p>
      ) : (
        <ul class="people">
          {unknown.map((player) => (
            <li key={player.steamid} data-unknown-player={player.steamid}>
              <span class="people__slot">{String(player.slot)}</span>
              <span class="people__name">{player.gameName}</span>
              <span class="small muted">{player.steamid}</span>
              <button
                type="button"
                class="btn btn--small push-right"
                disabled={command.busy.value}
                onClick={async () => {
                  const answer = await command.run('save_player', {
                    steamid: player.steamid,
                    name: player.gameName,
                  });
                  if (answer.ok) await loadTeams();
                }}
              >
                Add
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorText message={command.error.value} />
    </Card>
  );
}

interface PlayerDraft {
  id: string | null;
  name: string;
  realName: string;
  steamid: string;
  country: string;
  team: string;
  role: 'player' | 'coach';
  photo: string;
}

const EMPTY_PLAYER: PlayerDraft = {
  id: null,
  name: '',
  realName: '',
  steamid: '',
  country: '',
  team: '',
  role: 'player',
  photo: '',
};

const draftOfPlayer = (player: PlayerRecord): PlayerDraft => ({
  id: player.id,
  name: player.name,
  realName: player.realName,
  steamid: player.steamid ?? '',
  country: player.country ?? '',
  team: player.team ?? '',
  role: player.role,
  photo: player.photo ?? '',
});

function PlayerForm({ draft, onSaved }: { draft: PlayerDraft; onSaved: (player: PlayerRecord) => void }) {
  // Made from the draft when the form is made: the card remounts it (key) for another player.
  const form = useSignal(draft);
  const command = useCommand();
  const upload = useSignal<string | null>(null);
  const value = form.value;
  const set = (changes: Partial<PlayerDraft>) => {
    form.value = { ...form.value, ...changes };
  };
  return (
    <form
      class="person-form"
      data-form="player"
      onSubmit={async (event) => {
        event.preventDefault();
        const { id, ...fields } = form.value;
        const answer = await command.run('save_player', {
          ...(id ? { id } : {}),
          ...fields,
          name: fields.name.trim(),
        });
        if (answer.ok) {
          await loadTeams();
          onSaved(answer.result.player);
        }
      }}
    >
      <div class="person-form__photo">
        <PlayerPhoto photo={value.photo || null} name={value.name || '?'} class="person-photo" />
        <ImageInput
          label="Photo file"
          hook="player-photo"
          onUploaded={({ url }) => {
            upload.value = null;
            set({ photo: url });
          }}
          onError={(message) => (upload.value = message)}
        />
      </div>
      <div class="row">
        <Field label="On-air name" wide>
          <input
            value={value.name}
            maxLength={32}
            required
            onInput={(e) => set({ name: e.currentTarget.value })}
          />
        </Field>
        <Field label="Real name" wide>
          <input
            value={value.realName}
            maxLength={64}
            onInput={(e) => set({ realName: e.currentTarget.value })}
          />
        </Field>
      </div>
      <div class="row">
        <Field label="SteamID64">
          <input
            value={value.steamid}
            inputMode="numeric"
            maxLength={17}
            placeholder="7656119…"
            onInput={(e) => set({ steamid: e.currentTarget.value.trim() })}
          />
        </Field>
        <Field label="Country (ISO code)">
          <input
            class="tag"
            value={value.country}
            maxLength={2}
            placeholder="UA"
            onInput={(e) => set({ country: e.currentTarget.value.trim().toUpperCase() })}
          />
        </Field>
        <Field label="Team">
          <select value={value.team} onChange={(e) => set({ team: e.currentTarget.value })}>
            <option value="">No team</option>
            {savedTeams.value.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Role">
          <select
            value={value.role}
            onChange={(e) => set({ role: e.currentTarget.value === 'coach' ? 'coach' : 'player' })}
          >
            <option value="player">Player</option>
            <option value="coach">Coach (never shown as a player)</option>
          </select>
        </Field>
      </div>
      <div class="row">
        <button type="submit" class="btn btn--primary" disabled={command.busy.value}>
          {value.id ? 'Save player' : 'Add player'}
        </button>
        {value.photo ? (
          <button type="button" class="btn btn--small btn--plain" onClick={() => set({ photo: '' })}>
            Remove photo
          </button>
        ) : null}
      </div>
      <ErrorText message={command.error.value ?? upload.value} />
    </form>
  );
}

/** A card of saved records: New, a search field, then the list and the form (children). */
function RecordsCard(props: {
  title: 'Players' | 'Teams';
  hook: string;
  onNew: () => void;
  query: Signal<string>;
  placeholder: string;
  children: ComponentChildren;
}) {
  const { title, query } = props;
  const one = title === 'Players' ? 'player' : 'team';
  return (
    <Card
      title={title}
      hook={props.hook}
      wide
      actions={
        <button type="button" class="btn btn--small btn--plain" onClick={props.onNew}>
          New {one}
        </button>
      }
    >
      <Field label={`Search ${title.toLowerCase()}`}>
        <input
          type="search"
          value={query.value}
          placeholder={props.placeholder}
          onInput={(e) => (query.value = e.currentTarget.value)}
        />
      </Field>
      {props.children}
    </Card>
  );
}

function PlayersCard() {
  const query = useSignal('');
  const editing = useSignal<PlayerDraft>(EMPTY_PLAYER);
  const teamName = (id: string | null) => savedTeams.value.find((team) => team.id === id)?.name ?? '';
  const found = searchPlayers(savedPlayers.value, query.value, 50);
  return (
    <RecordsCard
      title="Players"
      hook="players"
      onNew={() => (editing.value = { ...EMPTY_PLAYER })}
      query={query}
      placeholder="Name, real name or SteamID64"
    >
      <ul class="people" data-list="players">
        {found.map((player) => (
          <li key={player.id} data-player={player.id} data-selected={String(editing.value.id === player.id)}>
            <PlayerPhoto photo={player.photo} name={player.name} class="people__photo" />
            <Flag code={player.country} class="people__flag" />
            <button
              type="button"
              class="btn btn--plain people__name"
              onClick={() => (editing.value = draftOfPlayer(player))}
            >
              {player.name}
            </button>
            <span class="small muted">{player.realName}</span>
            <span class="small">{teamName(player.team)}</span>
            {player.role === 'coach' ? <span class="small muted">coach</span> : null}
          </li>
        ))}
      </ul>
      <PlayerForm
        key={editing.value.id ?? 'new'}
        draft={editing.value}
        onSaved={(player) => (editing.value = draftOfPlayer(player))}
      />
    </RecordsCard>
  );
}

interface TeamDraft {
  id: string | null;
  name: string;
  tag: string;
  country: string;
  logo: string;
}

const EMPTY_TEAM: TeamDraft = { id: null, name: '', tag: '', country: '', logo: '' };
const draftOfTeam = (team: TeamView): TeamDraft => ({
  id: team.id,
  name: team.name,
  tag: team.tag ?? '',
  country: team.country ?? '',
  logo: team.logo ?? '',
});

function TeamsCard() {
  const query = useSignal('');
  const editing = useSignal<TeamDraft>(EMPTY_TEAM);
  const command = useCommand();
  const upload = useSignal<string | null>(null);
  const value = editing.value;
  const set = (changes: Partial<TeamDraft>) => {
    editing.value = { ...editing.value, ...changes };
  };
  const nameOf = (id: string) => savedPlayers.value.find((player) => player.id === id)?.name ?? id;
  return (
    <RecordsCard
      title="Teams"
      hook="teams"
      onNew={() => (editing.value = { ...EMPTY_TEAM })}
      query={query}
      placeholder="Name or tag"
    >
      <ul class="people" data-list="teams">
        {searchTeams(savedTeams.value, query.value, 64).map((team) => (
          <li key={team.id} data-team-id={team.id}>
            {team.logo ? <img class="people__photo" src={team.logo} alt="" /> : null}
            <Flag code={team.country} class="people__flag" />
            <button
              type="button"
              class="btn btn--plain people__name"
              onClick={() => (editing.value = draftOfTeam(team))}
            >
              {team.name}
            </button>
            <span class="small muted">{team.tag ?? ''}</span>
            <span class="small" data-lineup>
              {team.lineup.map(nameOf).join(', ')}
              {team.coach ? ` · coach ${nameOf(team.coach)}` : ''}
            </span>
          </li>
        ))}
      </ul>
      <form
        class="person-form"
        data-form="team"
        onSubmit={async (event) => {
          event.preventDefault();
          const { id, ...fields } = editing.value;
          const answer = await command.run('save_team', {
            ...(id ? { id } : {}),
            ...fields,
            name: fields.name.trim(),
          });
          if (answer.ok) {
            await loadTeams();
            editing.value = draftOfTeam(answer.result.team);
          }
        }}
      >
        <div class="row">
          <Field label="Team name" wide>
            <input
              value={value.name}
              maxLength={64}
              required
              onInput={(e) => set({ name: e.currentTarget.value })}
            />
          </Field>
          <Field label="Tag">
            <input
              class="tag"
              value={value.tag}
              maxLength={6}
              onInput={(e) => set({ tag: e.currentTarget.value })}
            />
          </Field>
          <Field label="Country (ISO code)">
            <input
              class="tag"
              value={value.country}
              maxLength={2}
              onInput={(e) => set({ country: e.currentTarget.value.trim().toUpperCase() })}
            />
          </Field>
        </div>
        <ImageInput
          label="Logo file"
          hook="saved-team-logo"
          onUploaded={({ url }) => set({ logo: url })}
          onError={(message) => (upload.value = message)}
        />
        <button type="submit" class="btn btn--primary" disabled={command.busy.value}>
          {value.id ? 'Save team' : 'Add team'}
        </button>
        <ErrorText message={command.error.value ?? upload.value} />
      </form>
    </RecordsCard>
  );
}

export function TeamsView() {
  useEffect(() => {
    void loadTeams();
  }, []);
  return (
    <div class="grid">
      <ErrorText message={teamsError.value} />
      <UnknownPlayers />
      <TeamsCard />
      <PlayersCard />
    </div>
  );
}
