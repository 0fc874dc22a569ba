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

const isNumber = (value: number | null | undefined): value is number => value !== null && value !== undefined && Number.isFinite(value);

/**
 * Whole milliseconds with thousands separators: "1,204ms"; "—" for null (no sample: a missing
 * figure is not a zero one — issue 16 "Truthful metrics").
 */
export function formatMs(value: number | null | undefined): string {
  if (!isNumber(value)) return NO_VALUE;
  return `${Math.round(value).toLocaleString("en-US")}ms`;
}

/** A hop's latency: one decimal under 10 ms ("0.4ms", bridge hops are that fast), else as formatMs; "—" for null. */
export function formatHopMs(value: number | null | undefined): string {
  if (!isNumber(value)) return NO_VALUE;
  return Math.abs(value) < 10 ? `${(Math.round(value * 10) / 10).toString()}ms` : formatMs(value);
}

/** Dollars with 2 decimals ("$1,234.50", "-$9.00"); "—" for null (no closed trades). */
export function formatUsdOrDash(value: number | null | undefined): string {
  if (!isNumber(value)) return NO_VALUE;
  const abs = Math.abs(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${value < 0 ? "-" : ""}$${abs}`;
}

/**
 * Short latency for chart axes, at most 7 characters so the Y axis never cuts it: "850ms",
 * "12.3 s", "4.2 min".
 */
export function formatAxisMs(value: number): string {
  if (!Number.isFinite(value)) return "";
  const abs = Math.abs(value);
  if (abs < 1000) return `${Math.round(value)}ms`;
  if (abs < 60_000) return `${trim1(value / 1000)} s`;
  return `${trim1(value / 60_000)} min`;
}

/** One decimal, dropping ".0" ("12", "12.3"); 100 and beyond whole. */
function trim1(value: number): string {
  return Math.abs(value) >= 100 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}

/** Pixel width of a Y axis whose longest tick label is `labels`' longest (12 px font + tick gap). */
export function axisWidth(labels: readonly string[]): number {
  const longest = labels.reduce((max, label) => Math.max(max, label.length), 0);
  return Math.max(40, Math.ceil(longest * 7.5) + 14);
}

/**
 * What Avg P&L and Win Rate average over (issue 16): "across 3 slaves with trades in range",
 * or "No closed trades in range" when nothing traded.
 */
export function averagingNote(tradedAccounts: number): string {
  if (tradedAccounts <= 0) return "No closed trades in range";
  return `across ${tradedAccounts.toLocaleString("en-US")} ${tradedAccounts === 1 ? "slave" : "slaves"} with trades in range`;
}

/** Points with two decimals and a sign for gains: "+0.35 pts", "-1.20 pts", "0.00 pts"; "—" for null. */
export function formatPts(value: number | null | undefined): string {
  if (!isNumber(value)) return NO_VALUE;
  const n = value;
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
