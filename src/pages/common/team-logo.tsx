import type { Side } from './broadcast.ts';
import { initialsOf } from './broadcast.ts';
import { SafeImage } from './safe-image.tsx';

/**
 * A team's logo, or its initials tile when it has none, when the server could not store it, or when
 * it fails to load (`logo` is what the pages load: TeamView.logo, never a remote address).
 */
export function TeamLogo(props: {
  side: Side;
  name: string;
  logo: string | null;
  size?: 'sm' | 'md' | 'lg';
}) {
  const size = props.size ?? 'md';
  const initials = (
    <span class={`logo logo--${size} logo--initials`} data-logo={props.side} aria-hidden="true">
      {initialsOf(props.name)}
    </span>
  );
  if (!props.logo) return initials;
  return (
    <SafeImage
      class={`logo logo--${size}`}
      src={props.logo}
      alt=""
      data-logo={props.side}
      fallback={initials}
    />
  );
}
