/**
 * Display of analytics numbers — spec §2 /analytics (Avg P&L in dollars, Avg Latency in ms, Win
 * Rate in percent, average slippage in pts) and chart axis labels per §9 range.
 */
import type { AnalyticsRange } from "#contract";

/** Placeholder for a share that cannot be computed (no executions). */
export const NO_VALUE = "—";

/** "62.5%", or "—" for null / non-finite. */
export function formatPercent(value: number | null | undefined, decimals = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_VALUE;
  return `${value.toFixed(decimals)}%`;
}

/** Whole milliseconds with thousands separators: "1,204ms". */
export function formatMs(value: number | null | undefined): string {
  const n = value !== null && value !== undefined && Number.isFinite(value) ? value : 0;
  return `${Math.round(n).toLocaleString("en-US")}ms`;
}

/** Points with two decimals and a sign for gains: "+0.35 pts", "-1.20 pts", "0.00 pts". */
export function formatPts(value: number | null | undefined): string {
  const n = value !== null && value !== undefined && Number.isFinite(value) ? value : 0;
  const fixed = n.toFixed(2);
  const sign = n > 0 && fixed !== "0.00" ? "+" : "";
  return `${sign}${fixed === "-0.00" ? "0.00" : fixed} pts`;
}

/** Axis label of a chart time: time of day for 1h/24h, month/day for 7d/30d. */
export function axisTimeLabel(iso: string, range: AnalyticsRange): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  if (range === "1h" || range === "24h") return date.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", hour12: false });
  return date.toLocaleDateString("en-US", { month: "numeric", day: "numeric" });
}

/** Tooltip label of a chart time: date and time. */
export function tooltipTimeLabel(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}
