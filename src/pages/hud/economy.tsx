/**
 * The teams' economy at freeze time (under the top bar): per team, in the colour of the side it
 * plays, the team's money, its equipment value and its loss bonus with the loss counter as pips.
 * Shown during freeze time only; the figures stay while it fades out.
 */
import { useRef } from 'preact/hooks';
import type { Side } from '../common/broadcast.ts';
import { teams } from '../common/broadcast.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import type { TeamEconomy } from './live.ts';
import { economy, money } from './live.ts';
import { LOSS_BONUS_MAX_STEPS } from './loss-bonus.ts';

function LossPips({ losses }: { losses: number }) {
  const lit = Math.min(losses, LOSS_BONUS_MAX_STEPS);
  return (
    <span class="eco__pips" aria-hidden="true">
      {Array.from({ length: LOSS_BONUS_MAX_STEPS }, (_, index) => (
        <i key={index} class={index < lit ? 'eco__pip eco__pip--lit' : 'eco__pip'} />
      ))}
    </span>
  );
}

function TeamBlock({ team, figures }: { team: Side; figures: TeamEconomy | null }) {
  if (!figures) return <div class={`eco eco--${team}`} data-economy={team} />;
  const view = teams.value[team];
  return (
    <div class={`eco eco--${team}`} data-economy={team} data-side={figures.side}>
      <TeamLogo side={team} name={view.name} logo={view.logo} size="sm" />
      <div class="eco__figure">
        <span class="eco__label">Team money</span>
        <b class="eco__value eco__value--money" data-team-money={figures.money}>
          {money(figures.money)}
        </b>
      </div>
      <div class="eco__figure">
        <span class="eco__label">Equipment</span>
        <b class="eco__value" data-equipment={figures.equipment}>
          {money(figures.equipment)}
        </b>
      </div>
      <div class="eco__figure eco__figure--loss">
        <span class="eco__label">
          Loss bonus <LossPips losses={figures.losses} />
        </span>
        <b class="eco__value" data-loss-bonus={figures.lossBonus} data-losses={figures.losses}>
          {money(figures.lossBonus)}
        </b>
      </div>
    </div>
  );
}

export function Economy() {
  const current = economy.value;
  const last = useRef(current);
  if (current) last.current = current;
  const shown = current ?? last.current;
  return (
    <section class="panel economy" data-panel="economy" data-visible={String(current !== null)}>
      <TeamBlock team="A" figures={shown?.A ?? null} />
      <TeamBlock team="B" figures={shown?.B ?? null} />
    </section>
  );
}
