/**
 * Player stats (show_player_stats, toggle_stats): the player of a HUD slot with the provider's
 * stats. "live" comes from the game data; the two third-party providers show what their configured
 * source gives, and say plainly that none is configured.
 */
import type { EventData } from '../../protocol/index.ts';
import type { Side } from '../shared/broadcast.ts';
import { playerIn, slotsOf, teams } from '../shared/broadcast.ts';
import { statsPlayer } from '../shared/store.ts';
import { TeamLogo } from '../shared/team-logo.tsx';

type Provider = NonNullable<NonNullable<EventData<'stats.player'>['player']>['provider']>;

const PROVIDER_NAMES: Record<Provider, string> = {
  platform_a: 'Platform A',
  platform_b: 'Platform B',
  live: 'Live',
};

/** Live values of the player, once the game data feeds them (the next issue). */
export interface LiveStats {
  kills: number;
  deaths: number;
  assists: number;
  adr: number;
  hsPercent: number;
}

function StatGrid({ stats }: { stats: LiveStats }) {
  const cells = [
    ['K', stats.kills],
    ['D', stats.deaths],
    ['A', stats.assists],
    ['ADR', Math.round(stats.adr)],
    ['HS%', Math.round(stats.hsPercent)],
  ] as const;
  return (
    <dl class="stats__grid">
      {cells.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function StatsPanel(props: { visible: boolean; live?: (slot: number) => LiveStats | undefined }) {
  const player = statsPlayer.value.player;
  const slot = player?.slot ?? null;
  const side: Side | null = slot === null ? null : slotsOf('A').includes(slot) ? 'A' : 'B';
  const team = side ? teams.value[side] : null;
  const name = slot === null ? null : (playerIn(slot) ?? player?.name ?? `Player ${slot}`);
  const provider: Provider = player?.provider ?? 'live';
  const live = slot !== null && provider === 'live' ? props.live?.(slot) : undefined;
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
              <StatGrid stats={live} />
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
