/**
 * One player of the scoreboard. The roster gives the slot and the name; the game data, once it
 * arrives, the live values (health, K, D, A, ADR, money, alive or dead) and the observed mark.
 * The row reads its own slot's signal only (live.ts).
 */

import { FitText } from '../common/fit-text.tsx';
import { Icon } from './icons.tsx';
import { gameOn, isObserved, money, type PlayerStats, playerStatsInSlot } from './live.ts';

/**
 * The scoreboard's live columns, in order: the header row (scoreboard.tsx) and every player row draw
 * from this one list, with the same cell widths, so a header always sits over its column.
 */
export const SCOREBOARD_COLUMNS = [
  { col: 'hp', label: 'HP' },
  { col: 'kills', label: 'K' },
  { col: 'deaths', label: 'D' },
  { col: 'assists', label: 'A' },
  { col: 'adr', label: 'ADR' },
  { col: 'money', label: 'Money' },
] as const;

type Column = (typeof SCOREBOARD_COLUMNS)[number]['col'];

function cell(col: Column, player: PlayerStats) {
  switch (col) {
    case 'hp':
      return {
        hooks: { 'data-health': player.health },
        content:
          player.health > 0 ? String(player.health) : <Icon shape="skull" class="dead-mark" label="Dead" />,
      };
    case 'kills':
      return { hooks: { 'data-kills': player.kills }, content: String(player.kills) };
    case 'deaths':
      return { hooks: { 'data-deaths': player.deaths }, content: String(player.deaths) };
    case 'assists':
      return { hooks: { 'data-assists': player.assists }, content: String(player.assists) };
    case 'adr': {
      const adr = player.adr === null ? null : Math.round(player.adr);
      return { hooks: { 'data-adr': adr ?? '' }, content: adr === null ? '–' : String(adr) };
    }
    case 'money':
      return { hooks: { 'data-money': player.money }, content: money(player.money) };
  }
}

export function PlayerRow(props: { slot: number; name: string | null }) {
  const { slot, name } = props;
  // A roster-only frame (no map) carries names, not values: live values show with the live game.
  const live = gameOn.value ? playerStatsInSlot(slot).value : null;
  const observed = isObserved(slot);
  const dead = live !== null && live.health <= 0;
  return (
    <li
      class={`prow${name ? '' : ' prow--empty'}${dead ? ' prow--dead' : ''}`}
      data-slot={slot}
      data-alive={live ? String(!dead) : undefined}
      data-observed={String(observed)}
    >
      <kbd class="prow__slot">{String(slot)}</kbd>
      {/* Read whole where it can be: a long name shrinks a little before its ellipsis. */}
      <FitText class="prow__name" data-player-name text={name ?? live?.name ?? 'Open slot'} min={0.8} />
      {live
        ? SCOREBOARD_COLUMNS.map(({ col }) => {
            const { hooks, content } = cell(col, live);
            return (
              <span key={col} class={`prow__cell prow__cell--${col}`} data-col={col} {...hooks}>
                {content}
              </span>
            );
          })
        : null}
    </li>
  );
}
