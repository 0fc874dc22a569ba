/** Percentiles and formatting for benchmark samples (milliseconds). */

/** Nearest-rank percentile of `samples` (0 < p ≤ 100); NaN for no samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export const ms = (v: number) => (Number.isNaN(v) ? "–" : v.toFixed(2));
