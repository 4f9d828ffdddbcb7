/**
 * The bomb, under the top bar while it is planted: its bar with the time left to the explosion, and
 * while a defuse runs a second bar beside it with the defuser's name, the kit when he has one, and
 * the defuse's time (10 s, 5 s with a kit); red when the defuse cannot end before the bomb. The
 * bomb's time goes on through the defuse (the server carries it: src/game/bomb-clock.ts). Defused
 * and exploded stay on the panel until the round banner, which says how the round ended, takes the
 * band (hud.css, the zones).
 */
import { computed } from '@preact/signals';
import { useRef } from 'preact/hooks';
import { gameLive } from '../common/game-store.ts';
import { Icon } from './icons.tsx';
import { BOMB_SECONDS, gameOn, playerInSlot } from './live.ts';

const ON_AIR = new Set(['planted', 'defusing', 'defused', 'exploded']);

export interface BombView {
  state: 'planted' | 'defusing' | 'defused' | 'exploded';
  explodesIn: number | null;
  defuseIn: number | null;
  defuseSeconds: number | null;
  defuserSlot: number | null;
}

const bombView = computed<BombView | null>(() => {
  const bomb = gameLive.value.bomb;
  if (!gameOn.value || !bomb || !ON_AIR.has(bomb.state)) return null;
  return {
    state: bomb.state as BombView['state'],
    explodesIn: bomb.explodesIn,
    defuseIn: bomb.state === 'defusing' ? bomb.defuseIn : null,
    defuseSeconds: bomb.state === 'defusing' ? bomb.defuseSeconds : null,
    defuserSlot: bomb.state === 'defusing' ? bomb.playerSlot : null,
  };
});

/** Seconds as the clock shows them near the end: tenths. */
const tenths = (seconds: number | null) => (seconds === null ? '' : seconds.toFixed(1));
const fill = (left: number | null, whole: number) =>
  left === null ? 0 : Math.max(0, Math.min(1, left / whole));

const WORDS: Record<BombView['state'], string> = {
  planted: 'Bomb planted',
  defusing: 'Bomb planted',
  defused: 'Bomb defused',
  exploded: 'Bomb exploded',
};

function Defuse({ view }: { view: BombView }) {
  const defuser = view.defuserSlot === null ? null : playerInSlot(view.defuserSlot).value;
  const kit = view.defuseSeconds !== null && view.defuseSeconds < 10;
  // A defuse that would end after the explosion cannot save the round: the bar says so.
  const inTime = view.defuseIn === null || view.explodesIn === null ? true : view.defuseIn <= view.explodesIn;
  return (
    <div class="bomb__bar bomb__bar--defuse" data-side="CT" data-defuse-in-time={String(inTime)}>
      <div class="bomb__line">
        {kit ? <Icon shape="kit" class="bomb__icon" label="Defuse kit" /> : null}
        <span class="bomb__who" data-defuser={defuser?.name ?? ''}>
          {defuser?.name ?? ''}
        </span>
        <span class="bomb__words bomb__words--defuse">Defusing</span>
        <span class="bomb__time" data-defuse-time>
          {tenths(view.defuseIn)}
        </span>
      </div>
      <span class="bomb__track" aria-hidden="true">
        <span
          class="bomb__fill"
          style={{ transform: `scaleX(${fill(view.defuseIn, view.defuseSeconds ?? 10)})` }}
        />
      </span>
    </div>
  );
}

export function BombPanel() {
  const current = bombView.value;
  const last = useRef(current);
  if (current) last.current = current;
  const view = current ?? last.current;
  return (
    <section
      class="panel bomb"
      data-panel="bomb"
      data-visible={String(current !== null)}
      data-bomb-state={view?.state}
      data-explodes-in={view?.explodesIn ?? undefined}
      data-defuse-in={view?.defuseIn ?? undefined}
      data-defuse-seconds={view?.defuseSeconds ?? undefined}
      data-defuser-slot={view?.defuserSlot ?? undefined}
    >
      {view ? (
        <>
          <div class="bomb__bar bomb__bar--bomb" data-side={view.state === 'defused' ? 'CT' : 'T'}>
            <div class="bomb__line">
              <Icon shape={view.state === 'exploded' ? 'blast' : 'c4'} class="bomb__icon" label="Bomb" />
              <span class="bomb__words">{WORDS[view.state]}</span>
              <span class="bomb__time" data-bomb-time>
                {view.state === 'exploded' ? '' : tenths(view.explodesIn)}
              </span>
            </div>
            <span class="bomb__track" aria-hidden="true">
              <span
                class="bomb__fill"
                style={{ transform: `scaleX(${fill(view.explodesIn, BOMB_SECONDS)})` }}
              />
            </span>
          </div>
          {view.state === 'defusing' ? <Defuse view={view} /> : null}
        </>
      ) : null}
    </section>
  );
}
