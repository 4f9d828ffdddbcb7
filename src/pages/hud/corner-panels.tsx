/**
 * The sponsor overlay and the event badge (set_sponsor_overlay, set_event_badge) at their position.
 * Sponsor images rotate; the badge shows the event logo and name. Images are the ones uploaded in
 * the operator app, served by the application server.
 */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { mediaUrl } from '../../protocol/media.ts';
import { SafeImage } from '../common/safe-image.tsx';
import { branding, match, production } from '../common/store.ts';

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

export function SponsorPanel() {
  const setting = production.value?.sponsorOverlay;
  const sponsors = branding.value.sponsors;
  const index = useRotation(sponsors.length, SPONSOR_ROTATION_MS);
  const visible = setting?.enabled === true;
  return (
    <aside
      class="panel corner sponsor"
      data-panel="sponsor"
      data-visible={String(visible)}
      data-position={setting?.position ?? 'bottom-right'}
    >
      <span class="corner__kicker">Presented by</span>
      <div class="sponsor__frame">
        {sponsors.length === 0 ? (
          <span class="sponsor__none">{match.value?.eventName || 'Our partners'}</span>
        ) : (
          sponsors.map((sponsor, i) => (
            <SafeImage
              key={sponsor.image}
              class="sponsor__image"
              data-sponsor={i}
              data-current={String(i === index)}
              src={mediaUrl(sponsor.image)}
              alt={sponsor.name}
            />
          ))
        )}
      </div>
    </aside>
  );
}

export function BadgePanel() {
  const setting = production.value?.eventBadge;
  const logo = branding.value.eventLogo;
  const name = match.value?.eventName ?? '';
  return (
    <aside
      class="panel corner badge"
      data-panel="badge"
      data-visible={String(setting?.enabled === true)}
      data-position={setting?.position ?? 'top-left'}
    >
      {logo ? <SafeImage class="badge__logo" src={mediaUrl(logo)} alt="" /> : null}
      {name ? <span class="badge__name">{name}</span> : null}
    </aside>
  );
}
