/**
 * Player stats (show_player_stats, toggle_stats): the player of a HUD slot with the provider's
 * figures, on the side of the player's team. "live" are the game data's values; platform_a the
 * FACEIT figures the server looked up before it opened the panel. The panel is on air only with
 * figures to show: a provider with nothing, a slot with no player, the operator's note (`name`) and
 * any word meant for the operator stay off the HUD (the operator app says why).
 */
import { computed } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { PlatformFigures } from '../../protocol/index.ts';
import type { Side } from '../common/broadcast.ts';
import { playerIn, teams } from '../common/broadcast.ts';
import { Flag } from '../common/flag.tsx';
import { PlayerPhoto } from '../common/player-photo.tsx';
import { state, statsPlayer } from '../common/store.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import {
  hasLiveMap,
  mainWeapon,
  money,
  type PlayerStats,
  playerStatsInSlot,
  slotsOfTeam,
  weaponLabel,
} from './live.ts';

/** What the panel draws: the player, his team, and the figures of the provider. */
interface StatsContent {
  slot: number;
  name: string;
  team: Side;
  /** The game side the player plays (his colour), when the game data has him. */
  gameSide: 'CT' | 'T' | null;
  provider: 'live' | 'platform_a';
  /** Who the database says he is (the live player's; none without game data for the slot). */
  photo: string | null;
  country: string | null;
  realName: string;
  live: PlayerStats | null;
  platform: PlatformFigures | null;
}

/** The panel's content, or null when the request has nothing the viewers can be shown. */
export const statsContent = computed<StatsContent | null>(() => {
  const request = statsPlayer.value.player;
  if (!request) return null;
  const { slot } = request;
  const live = playerStatsInSlot(slot).value;
  const team: Side = slotsOfTeam.A.value.includes(slot) ? 'A' : 'B';
  const base = {
    slot,
    team,
    gameSide: live?.side ?? null,
    photo: live?.photo ?? null,
    country: live?.country ?? null,
    realName: live?.realName ?? '',
  };
  if (request.provider === 'platform_a') {
    const platform = request.platform ?? null;
    if (!platform) return null;
    const name = playerIn(slot) ?? live?.name ?? platform.nickname;
    return { ...base, name, provider: 'platform_a', live: null, platform };
  }
  if (request.provider === 'platform_b') return null;
  // Live values once game data with a map has arrived (a roster-only frame carries no values).
  if (!live || !hasLiveMap.value) return null;
  return { ...base, name: playerIn(slot) ?? live.name, provider: 'live', live, platform: null };
});

/** The team whose side the panel takes while it is on air (the corner panels there give way). */
export const statsOnAirTeam = computed<Side | null>(() =>
  state.value?.statsVisible === true ? (statsContent.value?.team ?? null) : null,
);

function LiveGrid({ player }: { player: PlayerStats }) {
  const adr = player.adr === null ? null : Math.round(player.adr);
  const cells = [
    ['K', 'kills', player.kills, String(player.kills)],
    ['D', 'deaths', player.deaths, String(player.deaths)],
    ['A', 'assists', player.assists, String(player.assists)],
    ['ADR', 'adr', adr ?? '', adr === null ? '–' : String(adr)],
    ['MVP', 'mvps', player.mvps, String(player.mvps)],
  ] as const;
  return (
    <div data-stats-source="live">
      <dl class="stats__grid stats__grid--5">
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
        <span class="stats__weapon">{weaponLabel(mainWeapon(player))}</span>
      </p>
    </div>
  );
}

const decimals = (value: number, digits: number) => value.toFixed(digits);
const whole = (value: number) => Math.round(value).toLocaleString('en-US');

/** FACEIT's figures: level and Elo, the four rates, matches and the last results. */
function PlatformGrid({ figures }: { figures: PlatformFigures }) {
  const cells = [
    ['K/D', 'kd', figures.kd, (v: number) => decimals(v, 2)],
    ['Win rate', 'win-rate', figures.winRate, (v: number) => `${whole(v)}%`],
    ['HS', 'headshots', figures.headshots, (v: number) => `${whole(v)}%`],
    ['ADR', 'adr', figures.adr, (v: number) => decimals(v, 1)],
  ] as const;
  const shown = cells.filter(([, , value]) => value !== null);
  return (
    <div data-stats-source="platform_a">
      <div class="stats__rank">
        {figures.level !== null ? (
          <span class="stats__level" data-level={figures.level} title="FACEIT skill level">
            {String(figures.level)}
          </span>
        ) : null}
        <div class="stats__elo">
          {figures.elo !== null ? (
            <>
              <span class="stats__elo-value" data-elo={figures.elo}>
                {whole(figures.elo)}
              </span>
              <span class="stats__unit">Elo</span>
            </>
          ) : null}
          {figures.matches !== null ? (
            <span class="stats__matches" data-matches={figures.matches}>
              {`${whole(figures.matches)} matches`}
            </span>
          ) : null}
        </div>
        {figures.recent.length > 0 ? (
          <ol class="stats__form" data-recent={figures.recent.map((won) => (won ? 'W' : 'L')).join('')}>
            {figures.recent.map((won, i) => (
              <li key={i} data-won={String(won)}>
                {won ? 'W' : 'L'}
              </li>
            ))}
          </ol>
        ) : null}
      </div>
      {shown.length > 0 ? (
        <dl class={`stats__grid stats__grid--${shown.length}`}>
          {shown.map(([label, hook, value, format]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd {...{ [`data-${hook}`]: value }}>{format(value as number)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

export function StatsPanel(props: { visible: boolean }) {
  const current = statsContent.value;
  // While the panel fades out it keeps what it showed: it never empties on air.
  const last = useRef<StatsContent | null>(null);
  if (current) last.current = current;
  const content = current ?? last.current;
  const onAir = props.visible && current !== null;
  const team = content ? teams.value[content.team] : null;
  return (
    <section
      class="panel stats"
      data-panel="stats"
      data-visible={String(onAir)}
      data-slot-shown={content?.slot}
      data-provider={content?.provider}
      data-stats-team={content?.team}
      data-side={content?.gameSide ?? undefined}
    >
      {content && team ? (
        <>
          <header class="stats__head">
            <PlayerPhoto photo={content.photo} name={content.name} class="stats__portrait" />
            <div class="stats__who">
              <span class="stats__name" data-stats-name>
                <Flag code={content.country} class="stats__flag" />
                {content.name}
              </span>
              {content.realName ? (
                <span class="stats__real-name" data-stats-real-name>
                  {content.realName}
                </span>
              ) : null}
              <span class="stats__team" data-team={content.team}>
                <TeamLogo side={content.team} name={team.name} logo={team.logo} size="sm" />
                <span class="stats__team-name">{team.name}</span>
              </span>
            </div>
            <span class="stats__provider">{content.provider === 'platform_a' ? 'FACEIT' : 'This map'}</span>
          </header>
          <div class="stats__body">
            {content.live ? <LiveGrid player={content.live} /> : null}
            {content.platform ? <PlatformGrid figures={content.platform} /> : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
