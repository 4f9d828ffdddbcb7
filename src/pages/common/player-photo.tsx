/**
 * A player's photo from the database (`photo` of a live player: /media/<id> on the application
 * server), or its designed fallback: the player's initials over a head-and-shoulders outline, in his
 * side's colour. The same fallback when the photo fails to load.
 */
import { SafeImage } from './safe-image.tsx';

/** A nickname's first two letters or digits (s1mple: S1): a player's name is one word more often than not. */
const lettersOf = (name: string) =>
  Array.from(name.replace(/[^\p{L}\p{N}]+/gu, ' ').trim())
    .slice(0, 2)
    .join('')
    .toUpperCase() || '?';

function Fallback({ name, class: className }: { name: string; class: string }) {
  return (
    <span class={`${className} photo--none`} data-photo="none" aria-label={name}>
      <svg class="photo__outline" viewBox="0 0 100 120" aria-hidden="true">
        <circle cx="50" cy="42" r="24" />
        <path d="M8 120c2-26 20-40 42-40s40 14 42 40z" />
      </svg>
      <span class="photo__initials">{lettersOf(name)}</span>
    </span>
  );
}

export function PlayerPhoto({
  photo,
  name,
  class: className,
}: {
  photo: string | null;
  name: string;
  class: string;
}) {
  const fallback = <Fallback name={name} class={className} />;
  if (!photo) return fallback;
  return (
    <SafeImage src={photo} alt={name} class={`${className} photo`} data-photo={photo} fallback={fallback} />
  );
}
