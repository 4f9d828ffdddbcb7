/**
 * The live player boxes: team A's five at the bottom left, team B's at the bottom right, by HUD
 * slot, with health, name, the guns (the one in hand lit), armour and helmet, defuse kit or bomb,
 * money, grenades, K/D/A and ADR from the game data; a dead player marked; the observed player
 * outlined. Below the middle, the observed player's box. Shown while game data arrives.
 *
 * Each box reads only its own slot's signal (live.ts): a frame re-renders the boxes that changed.
 */

import type { Side } from '../common/broadcast.ts';
import { playerIn, teams } from '../common/broadcast.ts';
import { Flag } from '../common/flag.tsx';
import { PlayerPhoto } from '../common/player-photo.tsx';
import { TeamLogo } from '../common/team-logo.tsx';
import { Icon, WeaponIcon } from './icons.tsx';
import {
  activeWeapon,
  carriesBomb,
  gameOn,
  isObserved,
  money,
  observedPlayerStats,
  observedSlot,
  type PlayerStats,
  playerStatsInSlot,
  sideOfTeam,
  slotsOfTeam,
  teamOfSide,
  weaponLabel,
} from './live.ts';
import type { Loadout } from './loadout.ts';
import { loadoutOf } from './loadout.ts';

/** Vest, and the helmet beside it; nothing but a placeholder without armour (keeps the row aligned). */
export function ArmourIcons({ player }: { player: PlayerStats }) {
  if (player.armor <= 0) return <span class="armour armour--none" />;
  return (
    <span class="armour">
      <Icon shape="armor" label={`Armour ${player.armor}`} />
      {player.helmet ? <Icon shape="helmet" label="Helmet" /> : null}
    </span>
  );
}

/**
 * What a box says about the player's equipment, as hooks on the box itself (docs/themes.md): theme
 * authors style a bomb carrier's box by `[data-bomb="true"]`, and tests read them against the frames.
 */
export function equipmentHooks(player: PlayerStats, loadout: Loadout, bomb: boolean) {
  return {
    'data-primary': loadout.primary?.name ?? '',
    'data-secondary': loadout.secondary?.name ?? '',
    'data-active-weapon': loadout.active ?? '',
    'data-grenades': loadout.grenades.map((grenade) => grenade.name).join(' '),
    'data-armor': player.armor,
    'data-helmet': String(player.helmet),
    'data-kit': String(player.defuseKit),
    'data-bomb': String(bomb),
  };
}

/** The bomb (T) or the defuse kit (CT), in the side colour. */
function KitOrBomb({ kit, bomb }: { kit: boolean; bomb: boolean }) {
  if (bomb) return <Icon shape="c4" class="carry carry--bomb" label="Bomb" />;
  if (kit) return <Icon shape="kit" class="carry carry--kit" label="Defuse kit" />;
  return null;
}

/** The guns of a box: the secondary, then the primary (the knife when there is neither). */
function Guns({ loadout }: { loadout: Loadout }) {
  const { primary, secondary, knife, taser } = loadout;
  const shown = [taser, secondary, primary ?? (secondary ? null : knife)];
  return (
    <span class="pbox__guns">
      {shown.map((gun) =>
        gun ? <WeaponIcon key={gun.name} name={gun.name} type={gun.type} active={gun.active} /> : null,
      )}
    </span>
  );
}

function Grenades({ loadout, class: extra }: { loadout: Loadout; class: string }) {
  return (
    <span class={extra}>
      {loadout.grenades.map((grenade, index) => (
        <WeaponIcon
          key={`${grenade.name}-${index}`}
          name={grenade.name}
          type={grenade.type}
          active={grenade.active}
          class="icon--grenade"
        />
      ))}
    </span>
  );
}

/** K / D / A with a hook each. */
export function Kda({ player }: { player: PlayerStats }) {
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
  const player = playerStatsInSlot(slot).value;
  const observed = isObserved(slot);
  const carrier = carriesBomb(slot);
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
  const loadout = loadoutOf(player);
  const bomb = loadout.bomb || carrier;
  return (
    <li
      class={`pbox pbox--${team}`}
      data-slot={slot}
      data-side={player.side}
      data-alive={String(alive)}
      data-observed={String(observed)}
      {...equipmentHooks(player, loadout, bomb)}
    >
      <span class="pbox__slot">{String(slot)}</span>
      <div class="pbox__main">
        <div class="pbox__top">
          <span class="pbox__hpbar" aria-hidden="true">
            <span class="pbox__hptrail" style={{ transform: `scaleX(${player.health / 100})` }} />
            <span class="pbox__hpfill" style={{ transform: `scaleX(${player.health / 100})` }} />
          </span>
          <span class="pbox__hp" data-health={player.health}>
            {alive ? String(player.health) : <Icon shape="skull" class="dead-mark" label="Dead" />}
          </span>
          <span class="pbox__name" data-player-name>
            {name}
          </span>
          <Guns loadout={loadout} />
        </div>
        <div class="pbox__bottom">
          <ArmourIcons player={player} />
          <KitOrBomb kit={player.defuseKit} bomb={bomb} />
          <span class="pbox__money" data-money={player.money}>
            {money(player.money)}
          </span>
          <Grenades loadout={loadout} class="pbox__nades" />
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

/** Everything the observed player carries, in the order of the game's weapon slots; the one in hand lit. */
function Inventory({ loadout }: { loadout: Loadout }) {
  const { primary, secondary, knife, taser } = loadout;
  return (
    <div class="observed__inventory">
      {[primary, secondary, taser, knife].map((gun) =>
        gun ? <WeaponIcon key={gun.name} name={gun.name} type={gun.type} active={gun.active} /> : null,
      )}
      <Grenades loadout={loadout} class="observed__nades" />
    </div>
  );
}

/**
 * The observed player at the bottom centre: name, team, health, armour, the weapon in hand with its
 * ammunition, K/D/A, ADR and money; under them everything the player carries.
 */
export function ObservedBox() {
  const player = observedPlayerStats.value;
  const slot = observedSlot.value;
  const visible = gameOn.value && player !== null;
  const team = player ? teamOfSide(player.side) : null;
  const teamView = team ? teams.value[team] : null;
  const weapon = player ? activeWeapon(player) : null;
  const loadout = player ? loadoutOf(player) : null;
  const bomb = player !== null && loadout !== null && (loadout.bomb || carriesBomb(player.slot));
  return (
    <section
      class="panel observed"
      data-panel="observed"
      data-visible={String(visible)}
      data-observed-slot={slot ?? undefined}
      data-side={player?.side}
      {...(player && loadout ? equipmentHooks(player, loadout, bomb) : {})}
    >
      {player && loadout ? (
        <>
          <PlayerPhoto photo={player.photo} name={player.name} class="observed__portrait" />
          <header class="observed__head">
            <span class="observed__slot">{String(player.slot)}</span>
            <Flag code={player.country} class="observed__flag" />
            <span class="observed__name" data-observed-name>
              {player.name}
            </span>
            <KitOrBomb kit={player.defuseKit} bomb={bomb} />
            {teamView && team ? (
              <span class="observed__team">
                <TeamLogo side={team} name={teamView.name} logo={teamView.logo} size="sm" />
                <span class="observed__team-name">{teamView.name}</span>
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
              <ArmourIcons player={player} />
              <span class="observed__armornum">{String(player.armor)}</span>
            </div>
            <div class="observed__weapon">
              {weapon ? (
                <WeaponIcon name={weapon.name} type={weapon.type} active={true} class="observed__gun" />
              ) : null}
              <span class="observed__weapon-name">
                {weaponLabel(weapon?.name ?? null)}
                {weapon && weapon.ammoClip !== null ? (
                  <span class="observed__ammo" data-ammo={weapon.ammoClip}>
                    <b>{String(weapon.ammoClip)}</b> / {String(weapon.ammoReserve ?? 0)}
                  </span>
                ) : null}
              </span>
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
          <Inventory loadout={loadout} />
        </>
      ) : null}
    </section>
  );
}
