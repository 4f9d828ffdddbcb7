/**
 * The round-win banner (under the top bar): the team that won the round, with its logo and name, in
 * the colour of the side it won on, and how (enemy eliminated, bomb exploded, bomb defused, time ran
 * out). Shown while the round is over; it leaves when the next round starts.
 */
import { useRef } from 'preact/hooks';
import type { RoundEndReason } from '../../protocol/index.ts';
import { teams } from '../common/broadcast.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import type { ShapeName } from './icon-shapes.ts';
import { Icon } from './icons.tsx';
import { roundResult } from './live.ts';

const REASONS: Record<RoundEndReason, { words: string; icon: ShapeName }> = {
  elimination: { words: 'Enemy eliminated', icon: 'skull' },
  bomb: { words: 'Bomb exploded', icon: 'blast' },
  defuse: { words: 'Bomb defused', icon: 'kit' },
  time: { words: 'Time ran out', icon: 'clock' },
};

const SIDE_NAMES = { CT: 'Counter-Terrorists', T: 'Terrorists' } as const;

export function RoundBanner() {
  const result = roundResult.value;
  const last = useRef(result);
  if (result) last.current = result;
  const shown = result ?? last.current;
  const team = shown?.team ? teams.value[shown.team] : null;
  const reason = shown?.reason ? REASONS[shown.reason] : null;
  return (
    <section
      class="panel round-banner"
      data-panel="round-banner"
      data-visible={String(result !== null)}
      data-side={shown?.side}
      data-winner={result ? (result.team ?? '') : undefined}
      data-reason={result ? (result.reason ?? '') : undefined}
    >
      {shown ? (
        <>
          {team && shown.team ? (
            <TeamLogo side={shown.team} name={team.name} logo={team.logo} size="md" />
          ) : null}
          <div class="round-banner__who">
            <span class="round-banner__name">{team ? team.name : SIDE_NAMES[shown.side]}</span>
            <span class="round-banner__what">
              <span class="round-banner__side">{shown.side}</span> wins the round
            </span>
          </div>
          {reason ? (
            <div class="round-banner__reason">
              <Icon shape={reason.icon} />
              <span>{reason.words}</span>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
