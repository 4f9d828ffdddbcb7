/**
 * The killfeed (top right, the game's own place): the round's deaths, the newest at the bottom, as
 * the server infers them from consecutive frames (src/game/killfeed.ts). Each entry: the killer in
 * his side's colour (and the assister), the weapon's icon, a headshot mark, a wallbang mark where it
 * is known, the victim in his side's colour; a death without a killer shows a skull. The operator
 * can keep it off air (branding.killfeedOnAir), for a broadcast that keeps the game's.
 */
import { computed } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { GameKill, GameKillPlayer } from '../../protocol/index.ts';
import { gameLive } from '../common/game-store.ts';
import { branding } from '../common/store.ts';
import { Icon, WeaponIcon } from './icons.tsx';
import { gameOn } from './live.ts';

const entries = computed<readonly GameKill[]>(() =>
  gameOn.value && branding.value.killfeedOnAir !== false ? gameLive.value.killfeed : [],
);

function Who({ player, role }: { player: GameKillPlayer; role: 'killer' | 'assister' | 'victim' }) {
  return (
    <span class={`kf__who kf__who--${role}`} data-side={player.side} {...{ [`data-${role}`]: player.name }}>
      {player.name}
    </span>
  );
}

function Entry({ entry }: { entry: GameKill }) {
  return (
    <li
      class="kf__entry"
      data-kill={entry.id}
      data-headshot={String(entry.headshot)}
      data-wallbang={entry.wallbang === null ? undefined : String(entry.wallbang)}
      data-teamkill={String(entry.teamkill)}
    >
      {entry.killer ? <Who player={entry.killer} role="killer" /> : null}
      {entry.assister ? (
        <>
          <span class="kf__plus">+</span>
          <Who player={entry.assister} role="assister" />
        </>
      ) : null}
      {entry.weapon ? (
        <WeaponIcon name={entry.weapon} active={false} class="kf__weapon" />
      ) : (
        <Icon shape="skull" class="kf__weapon" label="Died" />
      )}
      {entry.wallbang ? <Icon shape="wallbang" class="kf__mark" label="Wallbang" /> : null}
      {entry.headshot ? <Icon shape="headshot" class="kf__mark" label="Headshot" /> : null}
      <Who player={entry.victim} role="victim" />
    </li>
  );
}

export function KillfeedPanel() {
  const list = entries.value;
  const last = useRef(list);
  if (list.length > 0) last.current = list;
  const shown = list.length > 0 ? list : last.current;
  return (
    <section class="panel killfeed" data-panel="killfeed" data-visible={String(list.length > 0)}>
      <ol class="kf">
        {shown.map((entry) => (
          <Entry key={entry.id} entry={entry} />
        ))}
      </ol>
    </section>
  );
}
