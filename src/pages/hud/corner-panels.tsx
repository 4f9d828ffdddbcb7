/**
 * The sponsor overlay and the event badge (set_sponsor_overlay, set_event_badge) at their position.
 * Sponsor images rotate; the badge shows the event logo and name. Images are the ones uploaded in
 * the operator app, served by the application server. Each is on air only with something to show
 * (turned on without content, the server refuses it; content removed later takes it off the air),
 * and one placed at the bottom on the side where the player stats are on air gives way to them
 * while the game is live (they would overlap there).
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Position } from '../../../machines/vocabulary.ts';
import { mediaUrl } from '../../protocol/media.ts';
import { SafeImage } from '../common/safe-image.tsx';
import { branding, match, production } from '../common/store.ts';
import { gameOn } from './live.ts';
import { statsOnAirTeam } from './stats-panel.tsx';

/** How long each sponsor stays before the next one. */
export const SPONSOR_ROTATION_MS = 8_000;

/** Cycles 0..count-1 every `ms` while `count` is over 1. */
export function useRotation(count: number, ms: number): number {
  const index = useSignal(0);
  useEffect(() => {
    index.value = 0;
    if (count < 2) return;
    const timer = setInterval(() => {
      index.value = (index.value + 1) % count;
    }, ms);
    return () => clearInterval(timer);
  }, [count, ms, index]);
  return Math.min(index.value, Math.max(0, count - 1));
}

/** Whether a corner panel at `position` gives way to the player stats on air on its side. */
function yieldsToStats(position: Position): boolean {
  const team = statsOnAirTeam.value;
  if (!team || !gameOn.value) return false;
  return position === (team === 'A' ? 'bottom-left' : 'bottom-right');
}

export function SponsorPanel() {
  const setting = production.value?.sponsorOverlay;
  const sponsors = branding.value.sponsors;
  const index = useRotation(sponsors.length, SPONSOR_ROTATION_MS);
  const position = setting?.position ?? 'bottom-right';
  const yields = yieldsToStats(position);
  const visible = setting?.enabled === true && sponsors.length > 0 && !yields;
  return (
    <aside
      class="panel corner sponsor"
      data-panel="sponsor"
      data-visible={String(visible)}
      data-position={position}
      data-yield={yields ? 'stats' : undefined}
    >
      <span class="corner__kicker">Presented by</span>
      <div class="sponsor__frame">
        {sponsors.map((sponsor, i) => (
          <SafeImage
            key={sponsor.image}
            class="sponsor__image"
            data-sponsor={i}
            data-current={String(i === index)}
            src={mediaUrl(sponsor.image)}
            alt={sponsor.name}
          />
        ))}
      </div>
    </aside>
  );
}

export function BadgePanel() {
  const setting = production.value?.eventBadge;
  const logo = branding.value.eventLogo;
  const name = match.value?.eventName.trim() ?? '';
  const position = setting?.position ?? 'top-left';
  const yields = yieldsToStats(position);
  const visible = setting?.enabled === true && (logo !== null || name !== '') && !yields;
  return (
    <aside
      class="panel corner badge"
      data-panel="badge"
      data-visible={String(visible)}
      data-position={position}
      data-yield={yields ? 'stats' : undefined}
    >
      {logo ? <SafeImage class="badge__logo" src={mediaUrl(logo)} alt="" /> : null}
      {name ? <span class="badge__name">{name}</span> : null}
    </aside>
  );
}
