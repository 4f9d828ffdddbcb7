/**
 * The 1920x1080 stage of the broadcast pages: laid out at that size and scaled to the size the
 * browser source gives (1280x720, 3840x2160 …), keeping its proportions, centred.
 */
import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

export const STAGE = { width: 1920, height: 1080 } as const;

interface Fit {
  scale: number;
  left: number;
  top: number;
}

function fitToWindow(): Fit {
  const scale = Math.min(window.innerWidth / STAGE.width, window.innerHeight / STAGE.height);
  return {
    scale,
    left: (window.innerWidth - STAGE.width * scale) / 2,
    top: (window.innerHeight - STAGE.height * scale) / 2,
  };
}

export function Stage(props: { children: ComponentChildren }) {
  const size = useSignal(fitToWindow());
  useEffect(() => {
    const resize = () => {
      size.value = fitToWindow();
    };
    window.addEventListener('resize', resize);
    return () => window.removeEventListener('resize', resize);
  }, [size]);
  const { scale, left, top } = size.value;
  return (
    <div
      class="stage"
      data-stage-scale={scale.toFixed(4)}
      style={{ transform: `translate(${left}px, ${top}px) scale(${scale})` }}
    >
      {props.children}
    </div>
  );
}
