/** The scoreboard (toggle_scoreboard, F9 in the game): both teams' players by HUD slot. */
import type { Side } from '../common/broadcast.ts';
import { playerIn, teams } from '../common/broadcast.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import { slotsOfTeam } from './live.ts';
import { PlayerRow } from './player-row.tsx';

function TeamColumn({ side }: { side: Side }) {
  const team = teams.value[side];
  return (
    <section class={`sb-team sb-team--${side}`}>
      <header class="sb-team__head">
        <TeamLogo side={side} name={team.name} logo={team.logo} size="sm" />
        <span class="sb-team__name" data-team={side}>
          {team.name}
        </span>
        <span class="sb-team__maps" data-series-score={side}>
          {String(team.seriesScore)}
        </span>
      </header>
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
