/**
 * One player of the scoreboard. The roster gives the slot and the name; the game data, once it
 * arrives, the live values (health, armour, money, K/D/A, ADR, alive or dead) and the observed mark.
 * The row reads its own slot's signal only (live.ts).
 */

import { gameOn, isObserved, money, playerInSlot } from './live.ts';
import { Kda } from './player-boxes.tsx';

export function PlayerRow(props: { slot: number; name: string | null }) {
  const { slot, name } = props;
  // A roster-only frame (no map) carries names, not values: live values show with the live game.
  const live = gameOn.value ? playerInSlot(slot).value : null;
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
      <span class="prow__name" data-player-name>
        {name ?? live?.name ?? 'Open slot'}
      </span>
      {live ? (
        <>
          <span class="prow__hp" style={{ '--hp': `${live.health}%` }} data-health={live.health}>
            {String(live.health)}
          </span>
          <span class="prow__stat">
            <Kda player={live} />
          </span>
          <span class="prow__stat" data-adr={live.adr === null ? '' : Math.round(live.adr)}>
            {live.adr === null ? '–' : String(Math.round(live.adr))}
          </span>
          <span class="prow__money" data-money={live.money}>
            {money(live.money)}
          </span>
        </>
      ) : null}
    </li>
  );
}
