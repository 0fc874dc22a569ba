/** Percentiles, ratios, verdicts and table formatting for benchmark samples (milliseconds unless said). */

/** Nearest-rank percentile of `samples` (0 < p ≤ 100); NaN for no samples. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Two decimals, "–" for NaN (no samples). */
export const ms = (v: number) => (Number.isNaN(v) ? "–" : v.toFixed(2));

/** `value ÷ base` as "1.23×"; "–" when either is missing or the base is not positive. */
export function ratio(value: number, base: number): string {
  if (!Number.isFinite(value) || !Number.isFinite(base) || base <= 0) return "–";
  const r = value / base;
  return `${r >= 100 ? r.toFixed(0) : r.toFixed(2)}×`;
}

/**
 * A goal's one-line verdict, "Goal N: met (…)" or "Goal N: NOT met by X (…)". `by` says how far
 * from the target (e.g. "0.31 ms (1.6× the target)"); it is only printed when not met.
 */
export function verdict(goal: string, met: boolean, detail: string, by = ""): string {
  return met ? `Goal ${goal}: met — ${detail}` : `Goal ${goal}: NOT met${by ? ` by ${by}` : ""} — ${detail}`;
}

/** How far `value` is over an upper bound `limit`, for a verdict: "12.30 (1.25× the target)". */
export function overBy(value: number, limit: number, unit = "ms"): string {
  return `${ms(value - limit)} ${unit} (${ratio(value, limit)} the target)`;
}

/** A markdown table: header cells, then rows of cells. */
export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** A rate per second of `count` events over `elapsedMs`, one decimal. */
export function perSecond(count: number, elapsedMs: number): string {
  return elapsedMs > 0 ? ((count * 1000) / elapsedMs).toFixed(1) : "–";
}
