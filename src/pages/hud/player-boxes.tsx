/**
 * The live player boxes: team A's five at the bottom left, team B's at the bottom right, by HUD
 * slot, with health, armour, money, the main weapon, K/D/A and ADR from the game data; the observed
 * player marked. Below the middle, the observed player's box. Shown while game data arrives.
 *
 * Each box reads only its own slot's signal (live.ts): a frame re-renders the boxes that changed.
 */
import type { GamePlayer } from '../../protocol/index.ts';
import type { Side } from '../common/broadcast.ts';
import { playerIn, teams } from '../common/broadcast.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import {
  activeWeapon,
  gameOn,
  isObserved,
  mainWeapon,
  money,
  observedPlayer,
  observedSlot,
  playerInSlot,
  sideOfTeam,
  slotsOfTeam,
  teamOfSide,
  weaponLabel,
} from './live.ts';

/** The armour as a badge: the number, and H with a helmet. */
function Armour({ player }: { player: GamePlayer }) {
  if (player.armor <= 0) return <span class="armour armour--none" data-armor="0" data-helmet="false" />;
  return (
    <span class="armour" data-armor={player.armor} data-helmet={String(player.helmet)}>
      <svg viewBox="0 0 16 18" aria-hidden="true">
        <path d="M8 0 16 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V3z" />
      </svg>
      {player.helmet ? <b>H</b> : null}
    </span>
  );
}

/** K / D / A with a hook each. */
export function Kda({ player }: { player: GamePlayer }) {
  return (
    <span class="kda">
      <b data-kills={player.kills}>{String(player.kills)}</b>
      <i>/</i>
      <b data-deaths={player.deaths}>{String(player.deaths)}</b>
      <i>/</i>
      <b data-assists={player.assists}>{String(player.assists)}</b>
    </span>
  );
}

const adrText = (adr: number | null) => (adr === null ? '–' : String(Math.round(adr)));

export function PlayerBox({ slot, team }: { slot: number; team: Side }) {
  const player = playerInSlot(slot).value;
  const observed = isObserved(slot);
  const name = player?.name || playerIn(slot) || 'Open slot';
  if (!player) {
    return (
      <li class="pbox pbox--empty" data-slot={slot} data-observed="false">
        <span class="pbox__slot">{String(slot)}</span>
        <span class="pbox__name">{name}</span>
      </li>
    );
  }
  const alive = player.health > 0;
  const weapon = mainWeapon(player);
  return (
    <li
      class={`pbox pbox--${team}`}
      data-slot={slot}
      data-side={player.side}
      data-alive={String(alive)}
      data-observed={String(observed)}
    >
      <span class="pbox__slot">{String(slot)}</span>
      <div class="pbox__main">
        <div class="pbox__top">
          <span class="pbox__hpbar" aria-hidden="true">
            <span class="pbox__hptrail" style={{ transform: `scaleX(${player.health / 100})` }} />
            <span class="pbox__hpfill" style={{ transform: `scaleX(${player.health / 100})` }} />
          </span>
          <span class="pbox__hp" data-health={player.health}>
            {alive ? String(player.health) : ''}
          </span>
          <span class="pbox__name" data-player-name>
            {name}
          </span>
          <span class="pbox__weapon" data-weapon={weapon ?? ''}>
            {weaponLabel(weapon)}
          </span>
        </div>
        <div class="pbox__bottom">
          <Armour player={player} />
          {player.defuseKit ? <span class="pbox__kit" data-defuse-kit="true" title="Defuse kit" /> : null}
          <span class="pbox__money" data-money={player.money}>
            {money(player.money)}
          </span>
          <span class="pbox__gap" />
          <Kda player={player} />
          <span class="pbox__adr" data-adr={player.adr === null ? '' : Math.round(player.adr)}>
            <small>ADR</small> {adrText(player.adr)}
          </span>
        </div>
      </div>
    </li>
  );
}

function TeamBoxes({ team }: { team: Side }) {
  return (
    <ol class={`pboxes pboxes--${team}`} data-team-boxes={team} data-side={sideOfTeam(team) ?? undefined}>
      {slotsOfTeam[team].value.map((slot) => (
        <PlayerBox key={slot} slot={slot} team={team} />
      ))}
    </ol>
  );
}

/** Both teams' boxes, shown while game data arrives. */
export function PlayerBoxes() {
  return (
    <section class="panel players" data-panel="players" data-visible={String(gameOn.value)}>
      <TeamBoxes team="A" />
      <TeamBoxes team="B" />
    </section>
  );
}

/** The observed player at the bottom centre: name, team, health, armour, weapon, K/D/A, ADR. */
export function ObservedBox() {
  const player = observedPlayer.value;
  const slot = observedSlot.value;
  const visible = gameOn.value && player !== null;
  const team = player ? teamOfSide(player.side) : null;
  const teamView = team ? teams.value[team] : null;
  const weapon = player ? activeWeapon(player) : null;
  return (
    <section
      class="panel observed"
      data-panel="observed"
      data-visible={String(visible)}
      data-observed-slot={slot ?? undefined}
      data-side={player?.side}
    >
      {player ? (
        <>
          <header class="observed__head">
            <span class="observed__slot">{String(player.slot)}</span>
            <span class="observed__name" data-observed-name>
              {player.name}
            </span>
            {teamView && team ? (
              <span class="observed__team">
                <TeamLogo side={team} name={teamView.name} logo={teamView.logo} size="sm" />
                {teamView.name}
              </span>
            ) : null}
          </header>
          <div class="observed__body">
            <div class="observed__vital">
              <span class="observed__hpnum" data-health={player.health}>
                {String(player.health)}
              </span>
              <span class="observed__hpbar" aria-hidden="true">
                <span class="observed__hpfill" style={{ transform: `scaleX(${player.health / 100})` }} />
              </span>
              <Armour player={player} />
              <span class="observed__armornum">{String(player.armor)}</span>
            </div>
            <div class="observed__weapon" data-weapon={weapon?.name ?? ''}>
              <span class="observed__weapon-name">{weaponLabel(weapon?.name ?? null)}</span>
              {weapon && weapon.ammoClip !== null ? (
                <span class="observed__ammo" data-ammo={weapon.ammoClip}>
                  <b>{String(weapon.ammoClip)}</b> / {String(weapon.ammoReserve ?? 0)}
                </span>
              ) : null}
            </div>
            <dl class="observed__stats">
              <div>
                <dt>K</dt>
                <dd data-kills={player.kills}>{String(player.kills)}</dd>
              </div>
              <div>
                <dt>D</dt>
                <dd data-deaths={player.deaths}>{String(player.deaths)}</dd>
              </div>
              <div>
                <dt>A</dt>
                <dd data-assists={player.assists}>{String(player.assists)}</dd>
              </div>
              <div>
                <dt>ADR</dt>
                <dd data-adr={player.adr === null ? '' : Math.round(player.adr)}>{adrText(player.adr)}</dd>
              </div>
              <div>
                <dt>$</dt>
                <dd data-money={player.money}>{money(player.money).slice(1)}</dd>
              </div>
            </dl>
          </div>
        </>
      ) : null}
    </section>
  );
}
