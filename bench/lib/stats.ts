/** Percentiles of samples (nearest rank): the value below which p% of the samples lie. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** p50, p99 and max of durations given in nanoseconds, in milliseconds. */
export function summarizeNs(samples: readonly bigint[]): Summary {
  const ms = samples.map((ns) => Number(ns) / 1e6).sort((a, b) => a - b);
  return { count: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.at(-1) ?? Number.NaN };
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export const ms = (value: number) => (value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(1)} ms`);
export const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
export const mib = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;
export const ratio = (value: number) => `${value.toFixed(2)}x`;
export const sleep = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds));
