/**
 * Player stats (show_player_stats, toggle_stats): the player of a HUD slot with the provider's
 * stats. "live" comes from the game data; the two third-party providers show what their configured
 * source gives, and say plainly that none is configured.
 */
import type { EventData, GamePlayer } from '../../protocol/index.ts';
import type { Side } from '../common/broadcast.ts';
import { playerIn, teams } from '../common/broadcast.ts';
import { statsPlayer } from '../common/store.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import { hasLiveMap, mainWeapon, money, playerInSlot, slotsOfTeam, weaponLabel } from './live.ts';

type Provider = NonNullable<NonNullable<EventData<'stats.player'>['player']>['provider']>;

const PROVIDER_NAMES: Record<Provider, string> = {
  platform_a: 'Platform A',
  platform_b: 'Platform B',
  live: 'Live',
};

function StatGrid({ player }: { player: GamePlayer }) {
  const adr = player.adr === null ? null : Math.round(player.adr);
  const cells = [
    ['K', 'kills', player.kills, String(player.kills)],
    ['D', 'deaths', player.deaths, String(player.deaths)],
    ['A', 'assists', player.assists, String(player.assists)],
    ['ADR', 'adr', adr ?? '', adr === null ? '–' : String(adr)],
    ['MVP', 'mvps', player.mvps, String(player.mvps)],
  ] as const;
  return (
    <>
      <dl class="stats__grid" data-stats-source="live">
        {cells.map(([label, hook, value, text]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd {...{ [`data-${hook}`]: value }}>{text}</dd>
          </div>
        ))}
      </dl>
      <p class="stats__now">
        <span data-health={player.health}>{player.health > 0 ? `${player.health} HP` : 'Dead'}</span>
        <span data-money={player.money}>{money(player.money)}</span>
        <span>{weaponLabel(mainWeapon(player))}</span>
      </p>
    </>
  );
}

export function StatsPanel(props: { visible: boolean }) {
  const player = statsPlayer.value.player;
  const slot = player?.slot ?? null;
  const side: Side | null = slot === null ? null : slotsOfTeam.A.value.includes(slot) ? 'A' : 'B';
  const team = side ? teams.value[side] : null;
  const name = slot === null ? null : (playerIn(slot) ?? player?.name ?? `Player ${slot}`);
  const provider: Provider = player?.provider ?? 'live';
  // "live": the game's values of that player, once game data with a map has arrived.
  const live = slot !== null && provider === 'live' && hasLiveMap.value ? playerInSlot(slot).value : null;
  return (
    <section
      class="panel stats"
      data-panel="stats"
      data-visible={String(props.visible)}
      data-slot-shown={slot ?? undefined}
      data-provider={provider}
    >
      {slot === null || !team || !side ? (
        <p class="stats__note">No player chosen: show_player_stats picks one by HUD slot.</p>
      ) : (
        <>
          <header class={`stats__head stats__head--${side}`}>
            <kbd class="prow__slot">{String(slot)}</kbd>
            <div class="stats__who">
              <span class="stats__name" data-stats-name>
                {name}
              </span>
              <span class="stats__team">
                <TeamLogo side={side} name={team.name} logo={team.logo} size="sm" />
                {team.name}
              </span>
            </div>
          </header>
          <div class="stats__body">
            <span class="stats__provider">{PROVIDER_NAMES[provider]} stats</span>
            {live ? (
              <StatGrid player={live} />
            ) : (
              <p class="stats__note" data-stats-source="none">
                {provider === 'live'
                  ? 'Live stats appear once the game sends its data.'
                  : `No ${PROVIDER_NAMES[provider]} stats source is configured.`}
              </p>
            )}
          </div>
        </>
      )}
    </section>
  );
}
