/**
 * Text that fits its box: a name is read whole on air ("NATUS VINCERE", not "NATUS VINCE…"). The
 * font shrinks from its CSS size until the text fits, down to `min` of that size; only a text still
 * too long at that size is cut, with the ellipsis its CSS asks for (text-overflow). The box's width
 * must not depend on the text (a flex item with a basis of 0, a fixed width …), so fitting never
 * moves anything else.
 */
import type { HTMLAttributes } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** Shrinks the element's font until its text fits its width (or reaches `min` of the CSS size). */
function fitTo(element: HTMLElement, min: number): void {
  element.style.fontSize = '';
  const base = Number.parseFloat(getComputedStyle(element).fontSize);
  const floor = base * min;
  let size = base;
  // Letter spacing in em scales with the font, so one proportional step nearly fits; a second
  // settles the rounding of glyph widths.
  for (let step = 0; step < 3 && element.scrollWidth > element.clientWidth && size > floor; step++) {
    size = Math.max(floor, Math.floor(size * (element.clientWidth / element.scrollWidth) * 2) / 2);
    element.style.fontSize = `${size}px`;
  }
  element.dataset.fit = size < base ? 'shrunk' : 'whole';
}

export function FitText(
  props: { text: string; min?: number } & Omit<HTMLAttributes<HTMLSpanElement>, 'children'>,
) {
  const { text, min = 0.6, ...rest } = props;
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    fitTo(element, min);
    let width = element.clientWidth;
    // Fits again when its box changes (a side chip appears) and once the fonts have loaded.
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      fitTo(element, min);
      width = element.clientWidth;
    });
    observer.observe(element);
    let live = true;
    void document.fonts.ready.then(() => {
      if (live) fitTo(element, min);
    });
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [text, min]);
  return (
    <span ref={ref} {...rest}>
      {text}
    </span>
  );
}
