import type { Side } from './broadcast.ts';
import { initialsOf } from './broadcast.ts';

/** A team's logo, or its initials on the team colour when it has none. */
export function TeamLogo(props: {
  side: Side;
  name: string;
  logo: string | null;
  size?: 'sm' | 'md' | 'lg';
}) {
  const size = props.size ?? 'md';
  if (props.logo) {
    return <img class={`logo logo--${size}`} src={props.logo} alt="" data-logo={props.side} />;
  }
  return (
    <span class={`logo logo--${size} logo--initials`} data-logo={props.side} aria-hidden="true">
      {initialsOf(props.name)}
    </span>
  );
}
