/**
 * The killfeed (top right, the game's own place): the round's deaths, the newest at the bottom, as
 * the server infers them from consecutive frames (src/game/killfeed.ts) or takes them from HLAE's
 * game events. Each entry, in the game's order: a blind mark, the killer in his side's colour (and
 * the assister, with a flash mark when his flash blinded the victim), the weapon's icon, the no
 * scope, through smoke, wallbang and headshot marks, the victim in his side's colour; a death
 * without a killer shows a skull. The marks other than the headshot are known from HLAE only. The
 * operator can keep it off air (branding.killfeedOnAir), for a broadcast that keeps the game's.
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

function Who({ player, part }: { player: GameKillPlayer; part: 'killer' | 'assister' | 'victim' }) {
  return (
    <span class={`kf__who kf__who--${part}`} data-side={player.side} {...{ [`data-${part}`]: player.name }}>
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
      {entry.attackerBlind ? <Icon shape="blind" class="kf__mark" label="Blind" /> : null}
      {entry.killer ? <Who player={entry.killer} part="killer" /> : null}
      {entry.assister ? (
        <>
          <span class="kf__plus">+</span>
          {entry.flashAssist ? <Icon shape="flash" class="kf__mark" label="Flash assist" /> : null}
          <Who player={entry.assister} part="assister" />
        </>
      ) : null}
      {entry.weapon ? (
        <WeaponIcon name={entry.weapon} active={false} class="kf__weapon" />
      ) : (
        <Icon shape="skull" class="kf__weapon" label="Died" />
      )}
      {entry.noscope ? <Icon shape="noscope" class="kf__mark" label="No scope" /> : null}
      {entry.throughSmoke ? <Icon shape="thrusmoke" class="kf__mark" label="Through smoke" /> : null}
      {entry.wallbang ? <Icon shape="wallbang" class="kf__mark" label="Wallbang" /> : null}
      {entry.headshot ? <Icon shape="headshot" class="kf__mark" label="Headshot" /> : null}
      <Who player={entry.victim} part="victim" />
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
