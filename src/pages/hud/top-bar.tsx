/** The top bar: teams, series score, the map being played and its score, the series maps, the event. */

import type { Side } from '../common/broadcast.ts';
import { currentMap, seriesMapHooks, teams } from '../common/broadcast.ts';
import { match } from '../common/store.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import { bombFill, clockText, gameOn, liveScore, phase, phaseText, roundNumber, sideOfTeam } from './live.ts';

function TeamBlock({ side }: { side: Side }) {
  const team = teams.value[side];
  const gameSide = sideOfTeam(side);
  return (
    <div class={`tb-team tb-team--${side}`} data-side={gameSide ?? undefined}>
      <TeamLogo side={side} name={team.name} logo={team.logo} />
      <span class="tb-team__name" data-team={side}>
        {team.name}
      </span>
      {gameSide ? (
        <span class="tb-team__side" data-side-marker={gameSide}>
          {gameSide}
        </span>
      ) : null}
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
        <span data-round={roundNumber.value ?? undefined}>Round {String(roundNumber.value ?? '')}</span>
        {words ? (
          <span class="tb-phase" data-phase-text>
            {words}
          </span>
        ) : null}
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
  const current = currentMap.value;
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
      <div class="tb-centre__meta">
        {current ? (
          <span>
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

/** The series maps, one chip each: picked by whom, finished with its score, the one being played. */
export function SeriesMaps(props: { variant: 'strip' | 'recap' }) {
  const summary = match.value;
  const current = currentMap.value;
  return (
    <ol class={`series series--${props.variant}`}>
      {(summary?.maps ?? []).map((entry) => {
        const winner = entry.winnerSide;
        return (
          <li
            key={entry.number}
            class="series__map"
            {...seriesMapHooks(entry)}
            data-current={String(current?.number === entry.number && !entry.finished)}
          >
            <span class="series__pick" />
            <span class="series__label">{entry.label}</span>
            <span class="series__score">
              {entry.finished || entry.scoreA + entry.scoreB > 0 ? (
                <>
                  <b class={winner === 'A' ? 'won' : ''}>{String(entry.scoreA)}</b>
                  <i>:</i>
                  <b class={winner === 'B' ? 'won' : ''}>{String(entry.scoreB)}</b>
                </>
              ) : current?.number === entry.number ? (
                'Live'
              ) : (
                '—'
              )}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

export function TopBar() {
  const event = match.value?.eventName ?? '';
  const hasMaps = (match.value?.maps.length ?? 0) > 0;
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
        <div class="topbar__sub">
          {event ? (
            <span class="topbar__event" data-event-name>
              {event}
            </span>
          ) : null}
          <SeriesMaps variant="strip" />
        </div>
      ) : null}
    </header>
  );
}
