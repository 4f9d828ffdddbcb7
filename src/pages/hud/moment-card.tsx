/**
 * The card of a moment of the map (issue 35), under the top bar's band: half-time, map point, match
 * point (the map decides the series), a tactical timeout (the team that called it, its timeouts
 * left) or a technical one. On air by the game state (machines/match-moments.ts decides which), unless
 * the operator switched that card off (branding.momentCards, the switches in the operator app).
 */
import { computed } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { Moment } from '../../../machines/match-moments.ts';
import { momentOf } from '../../../machines/match-moments.ts';
import type { MomentCard } from '../../protocol/index.ts';
import { ALL_MOMENT_CARDS } from '../../protocol/index.ts';
import { teams } from '../common/broadcast.ts';
import { gameLive } from '../common/game-store.ts';
import { branding, match } from '../common/store.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import { gameOn, liveScore, sideOfTeam, teamOfSide } from './live.ts';

const SWITCH: Record<Moment['kind'], MomentCard> = {
  halftime: 'halftime',
  'map-point': 'mapPoint',
  'match-point': 'matchPoint',
  timeout: 'timeout',
};

const BEST_OF = { bo1: 1, bo3: 3, bo5: 5 } as const;

/** The moment the game state is in, whether or not its card may go on air. */
export const moment = computed<Moment | null>(() => {
  const map = gameLive.value.map;
  if (!gameOn.value || !map) return null;
  const format = match.value?.boFormat;
  return momentOf({
    mapPhase: map.phase,
    roundPhase: gameLive.value.round?.phase ?? '',
    scoreA: liveScore.A.value,
    scoreB: liveScore.B.value,
    seriesA: teams.value.A.seriesScore,
    seriesB: teams.value.B.seriesScore,
    bestOf: format ? BEST_OF[format] : 1,
    ctTimeouts: map.ctTimeouts,
    tTimeouts: map.tTimeouts,
  });
});

/** The moment whose card is on air: its switch is on. Kept the same object while its words hold. */
const momentKey = computed(() => {
  const now = moment.value;
  if (!now) return '';
  const switches = branding.value.momentCards ?? ALL_MOMENT_CARDS;
  return switches[SWITCH[now.kind]] ? JSON.stringify(now) : '';
});
const onAir = computed<Moment | null>(() =>
  momentKey.value ? (JSON.parse(momentKey.value) as Moment) : null,
);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function Body({ shown }: { shown: Moment }) {
  if (shown.kind === 'halftime') {
    return (
      <div class="moment__words" data-moment-words>
        <span class="moment__title">Half-time</span>
        <span class="moment__sub" data-halftime-score>
          {teams.value.A.tag} {String(liveScore.A.value)} : {String(liveScore.B.value)} {teams.value.B.tag}
        </span>
      </div>
    );
  }
  if (shown.kind === 'timeout' && shown.type === 'technical') {
    return (
      <div class="moment__words" data-moment-words>
        <span class="moment__title">Technical timeout</span>
        <span class="moment__sub">Match paused</span>
      </div>
    );
  }
  const team = shown.kind === 'timeout' ? teamOfSide(shown.side) : shown.team;
  const view = team ? teams.value[team] : null;
  const title =
    shown.kind === 'timeout'
      ? 'Tactical timeout'
      : shown.kind === 'match-point'
        ? 'Match point'
        : 'Map point';
  return (
    <>
      {view && team ? <TeamLogo side={team} name={view.name} logo={view.logo} size="sm" /> : null}
      <div class="moment__words" data-moment-words>
        <span class="moment__title">{title}</span>
        <span class="moment__sub" data-team={team ?? undefined}>
          {view ? view.name : shown.kind === 'timeout' ? shown.side : ''}
        </span>
      </div>
      {shown.kind === 'timeout' && shown.left !== null ? (
        <span class="moment__left" data-timeouts-left={shown.left}>
          {plural(shown.left, 'timeout')} left
        </span>
      ) : null}
    </>
  );
}

export function MomentCardPanel() {
  const current = onAir.value;
  const last = useRef(current);
  if (current) last.current = current;
  const shown = current ?? last.current;
  const team =
    shown?.kind === 'map-point' || shown?.kind === 'match-point'
      ? shown.team
      : shown?.kind === 'timeout' && shown.type === 'tactical'
        ? teamOfSide(shown.side)
        : null;
  const side = team
    ? sideOfTeam(team)
    : shown?.kind === 'timeout' && shown.type === 'tactical'
      ? shown.side
      : null;
  return (
    <section
      class="panel moment"
      data-panel="moment"
      data-visible={String(current !== null)}
      data-moment={current?.kind}
      data-team={current ? (team ?? undefined) : undefined}
      data-side={side ?? undefined}
      data-timeout-type={current?.kind === 'timeout' ? current.type : undefined}
    >
      {shown ? <Body shown={shown} /> : null}
    </section>
  );
}
