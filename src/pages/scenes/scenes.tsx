/**
 * The four scenes: versus, talents, sponsors, map recap. Each is a full 1920x1080 picture drawn from
 * the state (teams, formats, series maps) and the branding set in the operator app.
 */
import type { Static } from '@sinclair/typebox';
import type { SceneSchema as SceneSchemaType } from '../../protocol/index.ts';
import { mediaUrl } from '../../protocol/media.ts';
import type { Side } from '../common/broadcast.ts';
import { monogramOf, seriesMapHooks, teams } from '../common/broadcast.ts';
import { FitText } from '../common/fit-text.tsx';
import { Flag } from '../common/flag.tsx';
import { PlayerPhoto } from '../common/player-photo.tsx';
import { SafeImage } from '../common/safe-image.tsx';
import { branding, match } from '../common/store.ts';
import { TeamLogo } from '../common/team-logo.tsx';
import { SPONSOR_ROTATION_MS, useRotation } from '../hud/corner-panels.tsx';
import type { MapStatus } from '../hud/top-bar.tsx';
import { mapStatuses, mapsOnAir } from '../hud/top-bar.tsx';
import { LINEUPS } from './lineups.ts';

type Scene = Static<typeof SceneSchemaType>;

const FORMAT_WORDS = { bo1: 'Best of 1', bo3: 'Best of 3', bo5: 'Best of 5' } as const;

function EventLine() {
  const name = match.value?.eventName ?? '';
  const logo = branding.value.eventLogo;
  if (!name && !logo) return null;
  return (
    <header class="scene__event">
      {logo ? <SafeImage class="scene__event-logo" src={mediaUrl(logo)} alt="" /> : null}
      {name ? <span data-event-name>{name}</span> : null}
    </header>
  );
}

function VersusTeam({ side }: { side: Side }) {
  const team = teams.value[side];
  const lineup = LINEUPS[side].value;
  return (
    <div class={`vs-team vs-team--${side}${lineup.length > 0 ? ' vs-team--lineup' : ''}`}>
      <TeamLogo side={side} name={team.name} logo={team.logo} size="lg" />
      <FitText class="vs-team__name" data-team={side} text={team.name} min={0.5} />
      <span class="vs-team__score" data-series-score={side}>
        {String(team.seriesScore)}
      </span>
      {lineup.length > 0 ? (
        <ol class="vs-lineup" data-lineup={side}>
          {lineup.map((player) => (
            <li key={player.id} class="vs-player" data-lineup-player={player.id}>
              <PlayerPhoto photo={player.photo} name={player.name} class="vs-player__photo" />
              <span class="vs-player__name">
                <Flag code={player.country} class="vs-player__flag" />
                <FitText class="vs-player__nick" data-player-name text={player.name} min={0.6} />
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

export function Versus() {
  const format = match.value?.boFormat;
  return (
    <section class="scene scene--versus" data-scene="versus">
      <EventLine />
      <div class="vs">
        <VersusTeam side="A" />
        <div class="vs__middle">
          <span class="vs__word">VS</span>
          <span class="vs__format" data-bo-format={format ?? ''}>
            {format ? FORMAT_WORDS[format] : 'Series'}
          </span>
        </div>
        <VersusTeam side="B" />
      </div>
      <VersusMaps />
    </section>
  );
}

/** The series maps under the versus picture: the revealed ones only, as the veto reveal goes. */
function VersusMaps() {
  const maps = mapsOnAir.value;
  if (maps.length === 0) return null;
  const statuses = mapStatuses.value;
  return (
    <ol class="vs-maps">
      {maps.map((entry) => {
        const picked = entry.pickedSide;
        const status = statuses.get(entry.number) ?? 'upcoming';
        return (
          <li
            key={entry.number}
            class={`vs-map map-art map-art--${entry.map}`}
            {...seriesMapHooks(entry)}
            data-map-status={status}
          >
            <span class="vs-map__number">Map {entry.number}</span>
            <span class="vs-map__label">{entry.label}</span>
            <PickedBy picked={picked} />
            {entry.finished ? (
              <span class="vs-map__score">
                {String(entry.scoreA)}:{String(entry.scoreB)}
              </span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/** Who picked a map: the team's logo and name, or the decider. */
function PickedBy({ picked }: { picked: Side | 'decider' }) {
  if (picked === 'decider') return <span class="picked picked--decider">Decider</span>;
  const team = teams.value[picked];
  return (
    <span class="picked">
      <TeamLogo side={picked} name={team.name} logo={team.logo} size="sm" />
      <span class="picked__name">{team.name}</span> <span class="picked__word">pick</span>
    </span>
  );
}

const STATUS_WORDS: Record<MapStatus, string> = {
  final: 'Final',
  live: 'Live',
  next: 'Up next',
  upcoming: 'Upcoming',
};
/** A talent without a photo, or whose photo does not load: the initials in its place. */
const initials = (name: string) => (
  <span class="talent__photo talent__photo--initials" data-monogram>
    {monogramOf(name)}
  </span>
);

export function Talents() {
  const talents = branding.value.talents;
  return (
    <section class="scene scene--talents" data-scene="talents">
      <EventLine />
      <h1 class="scene__title">On the desk</h1>
      <ul class="talents" style={{ '--count': Math.max(1, talents.length) }}>
        {talents.map((talent, i) => (
          <li key={`${talent.name}-${i}`} class="talent" data-talent={i}>
            {talent.photo ? (
              <SafeImage
                class="talent__photo"
                src={mediaUrl(talent.photo)}
                alt=""
                fallback={initials(talent.name)}
              />
            ) : (
              initials(talent.name)
            )}
            <span class="talent__role">{talent.role}</span>
            <span class="talent__name" data-talent-name>
              {talent.name}
            </span>
            {talent.handle ? <span class="talent__handle">{talent.handle}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Sponsors() {
  const sponsors = branding.value.sponsors;
  const index = useRotation(sponsors.length, SPONSOR_ROTATION_MS);
  return (
    <section class="scene scene--sponsors" data-scene="sponsors">
      <EventLine />
      <h1 class="scene__title">Our partners</h1>
      <div class="sponsors__stage">
        {sponsors.map((sponsor, i) => (
          <SafeImage
            key={sponsor.image}
            class="sponsors__image"
            data-sponsor={i}
            data-current={String(i === index)}
            src={mediaUrl(sponsor.image)}
            alt={sponsor.name}
          />
        ))}
      </div>
      <ol class="sponsors__dots">
        {sponsors.map((sponsor, i) => (
          <li key={sponsor.image} data-current={String(i === index)} />
        ))}
      </ol>
    </section>
  );
}

export function MapRecap() {
  const maps = mapsOnAir.value;
  const statuses = mapStatuses.value;
  return (
    <section class="scene scene--recap" data-scene="mapRecap">
      <EventLine />
      <div class="recap__head">
        <FitText class="recap__team recap__team--A" data-team="A" text={teams.value.A.name} min={0.5} />
        <span class="recap__series">
          <b data-series-score="A">{String(teams.value.A.seriesScore)}</b>
          <i>–</i>
          <b data-series-score="B">{String(teams.value.B.seriesScore)}</b>
        </span>
        <FitText class="recap__team recap__team--B" data-team="B" text={teams.value.B.name} min={0.5} />
      </div>
      <ol class="recap" style={{ '--count': Math.max(1, maps.length) }}>
        {maps.map((entry) => {
          const winner = entry.winnerSide;
          const status = statuses.get(entry.number) ?? 'upcoming';
          return (
            <li
              key={entry.number}
              class={`recap__map map-art map-art--${entry.map}`}
              {...seriesMapHooks(entry)}
              data-map-status={status}
            >
              <span class="recap__number">Map {entry.number}</span>
              <span class="recap__label">{entry.label}</span>
              <PickedBy picked={entry.pickedSide} />
              {entry.finished || status === 'live' || entry.scoreA + entry.scoreB > 0 ? (
                <span class="recap__score">
                  <b class={winner === 'A' ? 'won' : ''}>{String(entry.scoreA)}</b>
                  <i>:</i>
                  <b class={winner === 'B' ? 'won' : ''}>{String(entry.scoreB)}</b>
                </span>
              ) : (
                <span class="recap__score recap__score--none">—</span>
              )}
              <span class="recap__status" data-recap-status>
                {winner
                  ? `${teams.value[winner].name} win`
                  : status === 'next' && entry.scoreA + entry.scoreB > 0
                    ? // Rounds played and no game data now: the map was left mid-way, not yet to come.
                      'In progress'
                    : STATUS_WORDS[status]}
              </span>
            </li>
          );
        })}
      </ol>
      {maps.length === 0 ? <p class="recap__empty">The series maps appear as the veto is revealed.</p> : null}
    </section>
  );
}

export const SCENE_VIEWS: Record<Scene, () => preact.JSX.Element> = {
  versus: Versus,
  talents: Talents,
  sponsors: Sponsors,
  mapRecap: MapRecap,
};
