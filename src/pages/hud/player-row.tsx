/**
 * One player of the scoreboard. The roster gives the slot and the name; live values (health,
 * armour, money, kills, deaths, ADR) are optional and show once the game data feeds them.
 */
export interface LivePlayer {
  health?: number;
  armor?: number;
  money?: number;
  kills?: number;
  deaths?: number;
  adr?: number;
  alive?: boolean;
}

export function PlayerRow(props: { slot: number; name: string | null; live?: LivePlayer }) {
  const { slot, name, live } = props;
  const dead = live?.alive === false;
  return (
    <li class={`prow${name ? '' : ' prow--empty'}${dead ? ' prow--dead' : ''}`} data-slot={slot}>
      <kbd class="prow__slot">{String(slot)}</kbd>
      <span class="prow__name" data-player-name>
        {name ?? 'Open slot'}
      </span>
      {live?.health !== undefined ? (
        <span class="prow__hp" style={{ '--hp': `${live.health}%` }} data-live="health">
          {live.health}
        </span>
      ) : null}
      {live?.kills !== undefined ? (
        <span class="prow__stat" data-live="kd">
          {live.kills}/{live.deaths ?? 0}
        </span>
      ) : null}
      {live?.adr !== undefined ? (
        <span class="prow__stat" data-live="adr">
          {Math.round(live.adr)}
        </span>
      ) : null}
      {live?.money !== undefined ? (
        <span class="prow__money" data-live="money">
          ${live.money}
        </span>
      ) : null}
    </li>
  );
}
