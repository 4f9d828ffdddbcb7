/**
 * The overlay's icons (shapes in icon-shapes.ts): weapons by the game's names, grenades, armour and
 * helmet, defuse kit, bomb, and the markers (dead, round-end reasons). Filled with currentColor, so
 * CSS colours them; an icon's height is set by CSS and its width follows its shape.
 */
import type { ShapeName } from './icon-shapes.ts';
import { SHAPES, shapeOfWeapon } from './icon-shapes.ts';
import { weaponLabel } from './live.ts';

type DataHooks = { [hook: `data-${string}`]: string };

export function Icon(props: { shape: ShapeName; class?: string; label?: string } & DataHooks) {
  const { shape: name, class: extra, label, ...hooks } = props;
  const shape = SHAPES[name];
  return (
    <svg
      {...hooks}
      class={`icon icon--${name}${extra ? ` ${extra}` : ''}`}
      viewBox={`0 0 ${shape.w} 24`}
      width={shape.w}
      height={24}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : 'true'}
    >
      {shape.parts.map((d) => (
        <path key={d} d={d} fill="currentColor" fill-rule="evenodd" />
      ))}
    </svg>
  );
}

/** A weapon or grenade by the game's name (`weapon_ak47`), with `data-active` when it is in hand. */
export function WeaponIcon(props: { name: string; type?: string; active: boolean; class?: string }) {
  return (
    <Icon
      shape={shapeOfWeapon(props.name, props.type ?? '')}
      class={props.class ? `icon--weapon ${props.class}` : 'icon--weapon'}
      label={weaponLabel(props.name)}
      data-weapon={props.name}
      data-active={String(props.active)}
    />
  );
}
