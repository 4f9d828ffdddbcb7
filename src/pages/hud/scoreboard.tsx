/** The scoreboard (toggle_scoreboard, F9 in the game): both teams' players by HUD slot. */
import type { Side } from '../common/broadcast.ts';
import { playerIn, teams } from '../common/broadcast.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import { gameOn, liveScore, sideOfTeam, slotsOfTeam } from './live.ts';
import { PlayerRow, SCOREBOARD_COLUMNS } from './player-row.tsx';

/** The column headers over the live values, laid out as a player row is (aligned by construction). */
function ColumnHeads() {
  return (
    <div class="prow prow--head" data-columns>
      <span class="prow__slot" />
      <span class="prow__name">Player</span>
      {SCOREBOARD_COLUMNS.map(({ col, label }) => (
        <span key={col} class={`prow__cell prow__cell--${col}`} data-col-head={col}>
          {label}
        </span>
      ))}
    </div>
  );
}

function TeamColumn({ side }: { side: Side }) {
  const team = teams.value[side];
  return (
    <section
      class={`sb-team sb-team--${side}`}
      data-team-column={side}
      data-side={sideOfTeam(side) ?? undefined}
    >
      <header class="sb-team__head">
        <TeamLogo side={side} name={team.name} logo={team.logo} size="sm" />
        <span class="sb-team__name" data-team={side}>
          {team.name}
        </span>
        {gameOn.value ? (
          <>
            {/* While live the header's number is the map's round score; the maps won beside it, named. */}
            <span class="sb-team__series" data-series-score={side}>
              Maps {String(team.seriesScore)}
            </span>
            <span class="sb-team__maps" data-round-score={side}>
              {String(liveScore[side].value)}
            </span>
          </>
        ) : (
          <span class="sb-team__maps" data-series-score={side}>
            {String(team.seriesScore)}
          </span>
        )}
      </header>
      {gameOn.value ? <ColumnHeads /> : null}
      <ol class="sb-team__players">
        {slotsOfTeam[side].value.map((slot) => (
          <PlayerRow key={slot} slot={slot} name={playerIn(slot)} />
        ))}
      </ol>
    </section>
  );
}

export function Scoreboard(props: { visible: boolean }) {
  return (
    <section class="panel scoreboard" data-panel="scoreboard" data-visible={String(props.visible)}>
      <TeamColumn side="A" />
      <TeamColumn side="B" />
    </section>
  );
}
