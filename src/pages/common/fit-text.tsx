/**
 * Text that fits its box: a name is read whole on air ("NATUS VINCERE", not "NATUS VINCE…"). The
 * font shrinks from its CSS size until the text fits, down to `min` of that size and never below the
 * smallest type on air (the CSS property --type-min, docs/themes.md "Type sizes"). A text still too
 * long at that size gives way to its `short` form (a team's tag, the event's short name) when it has
 * one (`data-fit="short"`); only what is too long even then is cut, with the ellipsis its CSS asks
 * for (text-overflow). The box's width must not depend on the text (a flex item with a basis of 0, a
 * fixed width, a max-width the text reaches …), so fitting never moves anything else.
 */
import type { HTMLAttributes } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * Shrinks the element's font until its text fits its width (or reaches `min` of the CSS size, or the
 * smallest type on air); whether it fits then.
 */
function fitTo(element: HTMLElement, min: number): boolean {
  element.style.fontSize = '';
  const style = getComputedStyle(element);
  const base = Number.parseFloat(style.fontSize);
  const typeMin = Number.parseFloat(style.getPropertyValue('--type-min')) || 0;
  const floor = Math.min(base, Math.max(base * min, typeMin));
  let size = base;
  // Letter spacing in em scales with the font, so one proportional step nearly fits; a second
  // settles the rounding of glyph widths.
  for (let step = 0; step < 3 && element.scrollWidth > element.clientWidth && size > floor; step++) {
    size = Math.max(floor, Math.floor(size * (element.clientWidth / element.scrollWidth) * 2) / 2);
    element.style.fontSize = `${size}px`;
  }
  element.dataset.fit = size < base ? 'shrunk' : 'whole';
  return element.scrollWidth <= element.clientWidth;
}

export function FitText(
  props: { text: string; short?: string; min?: number } & Omit<HTMLAttributes<HTMLSpanElement>, 'children'>,
) {
  const { text, short, min = 0.6, ...rest } = props;
  const ref = useRef<HTMLSpanElement>(null);
  // The text whose short form is shown: a new text is tried whole first.
  const [shortFor, setShortFor] = useState<string | null>(null);
  const useShort = Boolean(short) && shortFor === text;
  const shown = useShort ? (short as string) : text;
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const fit = () => {
      const fits = fitTo(element, min);
      if (useShort) element.dataset.fit = 'short';
      else if (!fits && short && short !== text) setShortFor(text);
    };
    fit();
    let width = element.clientWidth;
    // Fits again when its box changes (a side chip appears) and once the fonts have loaded.
    // A wider box tries the whole text again (the clutch chip went, the side chip with it).
    const observer = new ResizeObserver(() => {
      const now = element.clientWidth;
      if (now === width) return;
      const grew = now > width;
      width = now;
      if (useShort && grew) setShortFor(null);
      else fit();
    });
    observer.observe(element);
    let live = true;
    void document.fonts.ready.then(() => {
      if (live) fit();
    });
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [shown, text, short, min, useShort]);
  return (
    <span ref={ref} {...rest}>
      {shown}
    </span>
  );
}
