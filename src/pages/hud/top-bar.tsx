/**
 * The top bar: teams, series score, the map being played and its score, the series maps, the event.
 * Every box has a fixed width: a name fits its box (the font shrinks before anything is cut), the
 * round-end words fit the centre, and nothing on the bar moves when the text changes.
 */
import { computed } from '@preact/signals';
import type { MapView } from '../../protocol/index.ts';
import type { Side } from '../common/broadcast.ts';
import { seriesMapHooks, teams } from '../common/broadcast.ts';
import { FitText } from '../common/fit-text.tsx';
import { gameLive, gameStatus } from '../common/game-store.ts';
import { branding, match } from '../common/store.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import { Icon } from './icons.tsx';
import {
  aliveCount,
  bombFill,
  clockText,
  clutchAgainst,
  gameOn,
  liveScore,
  phase,
  phaseText,
  roundNumber,
  sideOfTeam,
} from './live.ts';

/**
 * The series maps the broadcast pages show: the server marks each map whose veto step is revealed
 * (all of them in instant reveal), so a progressive reveal spoils nothing.
 */
export const mapsOnAir = computed(() => (match.value?.maps ?? []).filter((entry) => entry.revealed));

/**
 * What a series map is on air: `final` once finished; `live` while the game data plays it (the game's
 * map is this series map and its phase is live or half time: not warm-up, not over); `next` for the
 * first unfinished map while none is live; `upcoming` for the rest.
 */
export type MapStatus = 'final' | 'live' | 'next' | 'upcoming';

/** The series number of the map the game plays live now, or null (no game data, warm-up, another map). */
const liveMapNumber = computed(() => {
  if (!gameOn.value) return null;
  const mapPhase = gameLive.value.map?.phase;
  if (mapPhase !== 'live' && mapPhase !== 'intermission') return null;
  return gameStatus.value?.seriesMap ?? null;
});

export const mapStatuses = computed(() => {
  const maps = mapsOnAir.value;
  const live = liveMapNumber.value;
  const isLive = (entry: MapView) => !entry.finished && entry.number === live;
  const next = maps.some(isLive) ? null : (maps.find((entry) => !entry.finished)?.number ?? null);
  return new Map<number, MapStatus>(
    maps.map((entry) => [
      entry.number,
      entry.finished ? 'final' : isLive(entry) ? 'live' : entry.number === next ? 'next' : 'upcoming',
    ]),
  );
});

/** The map the bar's centre names without game data: the one live or next, else the last finished. */
const mapInFocus = computed(() => {
  const maps = mapsOnAir.value;
  const statuses = mapStatuses.value;
  return (
    maps.find((entry) => statuses.get(entry.number) === 'live' || statuses.get(entry.number) === 'next') ??
    maps.at(-1) ??
    null
  );
});

/** MR12: 24 rounds of regulation, then overtimes of 6 rounds (MR3). Null in regulation. */
export const REGULATION_ROUNDS = 24;
export const OVERTIME_ROUNDS = 6;
export const overtimeOf = (round: number | null): number | null =>
  round === null || round <= REGULATION_ROUNDS
    ? null
    : Math.ceil((round - REGULATION_ROUNDS) / OVERTIME_ROUNDS);

/**
 * The team's players alive while live (a figure and the count); in a clutch the chip says 1vN in
 * the accent colour, and goes back to the count when the clutch ends.
 */
function Alive({ side }: { side: Side }) {
  const alive = aliveCount[side].value;
  if (alive === null) return null;
  const against = clutchAgainst[side].value;
  return (
    <span
      class="tb-team__alive"
      data-alive-count={alive}
      data-clutch={against ?? undefined}
      title={against ? `1 v ${against}` : `${alive} alive`}
    >
      {against ? (
        <b class="tb-team__clutch">1v{against}</b>
      ) : (
        <>
          <Icon shape="person" class="tb-team__alive-icon" label="Alive" />
          <b>{String(alive)}</b>
        </>
      )}
    </span>
  );
}

/**
 * A team's name shrinks to three quarters of its size at most (23 px on the stage, 15.5 px at
 * 1280x720) to fit its box; a name that does not fit even then gives way to the team's tag.
 */
const NAME_MIN = 0.75;

function TeamBlock({ side }: { side: Side }) {
  const team = teams.value[side];
  const gameSide = sideOfTeam(side);
  return (
    <div class={`tb-team tb-team--${side}`} data-side={gameSide ?? undefined}>
      <TeamLogo side={side} name={team.name} logo={team.logo} />
      <FitText
        class="tb-team__name"
        data-team={side}
        text={team.name}
        short={team.tag}
        min={NAME_MIN}
        title={team.name}
      />
      {gameSide ? (
        <span class="tb-team__side" data-side-marker={gameSide}>
          {gameSide}
        </span>
      ) : null}
      <Alive side={side} />
      <span class="tb-team__series" data-series-score={side}>
        {String(team.seriesScore)}
      </span>
    </div>
  );
}

/** The middle while game data arrives: the live round score, the clock, the round and its phase. */
function LiveCentre() {
  const fill = bombFill.value;
  const current = phase.value;
  const words = phaseText.value;
  const round = roundNumber.value;
  const overtime = overtimeOf(round);
  return (
    <div class="tb-centre tb-centre--live" data-phase={current}>
      <div class="tb-score" data-score-source="live">
        <span class="tb-score__n tb-score__n--A" data-score="A" data-side={sideOfTeam('A') ?? undefined}>
          {String(liveScore.A.value)}
        </span>
        <span class="tb-clock" data-clock>
          {clockText.value}
        </span>
        <span class="tb-score__n tb-score__n--B" data-score="B" data-side={sideOfTeam('B') ?? undefined}>
          {String(liveScore.B.value)}
        </span>
      </div>
      <div class="tb-centre__meta">
        {overtime ? (
          <span class="tb-ot" data-overtime={overtime}>
            OT{overtime}
          </span>
        ) : null}
        <span class="tb-round" data-round={round ?? undefined}>
          Round {String(round ?? '')}
        </span>
        {words ? <FitText class="tb-phase" data-phase-text text={words} title={words} min={0.7} /> : null}
      </div>
      <span class="tb-bomb" aria-hidden="true" data-bomb-timer={fill === null ? 'off' : 'on'}>
        <span class="tb-bomb__fill" style={{ transform: `scaleX(${fill ?? 0})` }} />
      </span>
    </div>
  );
}

/** The middle: the live game once game data arrives, the map score of the map being played otherwise. */
function Centre() {
  if (gameOn.value) return <LiveCentre />;
  return <MapCentre />;
}

function MapCentre() {
  const summary = match.value;
  const current = mapInFocus.value;
  const format = summary?.boFormat?.toUpperCase() ?? '';
  return (
    <div class="tb-centre" data-phase="none">
      <div class="tb-score" data-map-score data-score-source="map">
        <span class="tb-score__n tb-score__n--A" data-score="A">
          {String(current?.scoreA ?? 0)}
        </span>
        <span class="tb-score__sep" />
        <span class="tb-score__n tb-score__n--B" data-score="B">
          {String(current?.scoreB ?? 0)}
        </span>
      </div>
      <div class="tb-centre__meta" data-map-in-focus={current?.number ?? undefined}>
        {current ? (
          <span class="tb-centre__map">
            Map {current.number} · {current.label}
          </span>
        ) : (
          <span>{format || 'Match'}</span>
        )}
        {current && format ? <span class="tb-centre__format">{format}</span> : null}
      </div>
    </div>
  );
}

const STATUS_WORDS: Record<MapStatus, string> = { final: '', live: 'Live', next: 'Next', upcoming: '—' };

/**
 * The series maps shown (revealed), one chip each: who picked it (the team's logo; a diamond for the
 * decider), its status (`data-map-status`) and score.
 */
export function SeriesMaps() {
  const statuses = mapStatuses.value;
  return (
    <ol class="series series--strip">
      {mapsOnAir.value.map((entry) => {
        const winner = entry.winnerSide;
        const status = statuses.get(entry.number) ?? 'upcoming';
        const picker = entry.pickedSide === 'decider' ? null : teams.value[entry.pickedSide];
        const scored = entry.finished || entry.scoreA + entry.scoreB > 0;
        return (
          <li
            key={entry.number}
            class="series__map"
            {...seriesMapHooks(entry)}
            data-map-status={status}
            data-current={String(status === 'live' || status === 'next')}
          >
            {picker ? (
              <span class="series__pick">
                <TeamLogo side={picker.side} name={picker.name} logo={picker.logo} size="sm" />
              </span>
            ) : (
              <span class="series__pick series__pick--decider" />
            )}
            <span class="series__label">{entry.label}</span>
            {status === 'live' ? <span class="series__live">Live</span> : null}
            <span class="series__score">
              {scored ? (
                <>
                  <b class={winner === 'A' ? 'won' : ''}>{String(entry.scoreA)}</b>
                  <i>:</i>
                  <b class={winner === 'B' ? 'won' : ''}>{String(entry.scoreB)}</b>
                </>
              ) : status === 'live' ? null : (
                STATUS_WORDS[status]
              )}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * Whether the bar has anything true to say: the teams are set, or the game data plays. Before the
 * match is set up a browser source loaded early shows nothing on air, never "Team A / Team B / Match".
 */
export const topBarOnAir = computed(
  () => gameOn.value || (match.value?.teamA != null && match.value?.teamB != null),
);

export function TopBar() {
  const event = match.value?.eventName ?? '';
  const eventShort = branding.value.eventShortName?.trim() ?? '';
  const hasMaps = mapsOnAir.value.length > 0;
  if (!topBarOnAir.value) {
    return <header class="topbar" data-topbar data-panel="topbar" data-visible="false" hidden />;
  }
  return (
    <header
      class="topbar"
      data-topbar
      data-panel="topbar"
      data-visible="true"
      data-game={gameOn.value ? 'live' : 'off'}
    >
      <div class="topbar__main">
        <TeamBlock side="A" />
        <Centre />
        <TeamBlock side="B" />
      </div>
      {event || hasMaps ? (
        <div class="topbar__subframe">
          <div class="topbar__sub">
            {event ? (
              <FitText
                class="topbar__event"
                data-event-name
                text={event}
                short={eventShort || undefined}
                min={0.9}
                title={event}
              />
            ) : null}
            {hasMaps ? <SeriesMaps /> : null}
          </div>
        </div>
      ) : null}
    </header>
  );
}
