/**
 * Every image of the pages: one that never shows the browser's broken-image frame. When it fails to
 * load, or loads as nothing, its fallback takes its place (nothing unless one is given: a team logo
 * gives its initials tile). Its hooks and class are the image's own.
 */
import type { ComponentChildren, CSSProperties } from 'preact';
import { useState } from 'preact/hooks';

export interface SafeImageProps {
  src: string;
  alt: string;
  class?: string;
  style?: string | CSSProperties;
  /** What shows instead when the image cannot be shown; nothing by default. */
  fallback?: ComponentChildren;
  [hook: `data-${string}`]: string | number | boolean | undefined;
}

export function SafeImage({ src, alt, fallback = null, ...image }: SafeImageProps) {
  // The address that failed: a new address is tried afresh.
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === src) return <>{fallback}</>;
  return (
    <img
      {...image}
      src={src}
      alt={alt}
      onError={() => setFailed(src)}
      onLoad={(event) => {
        if (event.currentTarget.naturalWidth === 0) setFailed(src);
      }}
    />
  );
}
