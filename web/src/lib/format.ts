/**
 * Display formatting — spec §9 money and relative-time rules. Balances and equities arrive as
 * numeric strings (contract/common.ts) and become numbers only here, for display.
 */

const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Parses a numeric string or number; null for missing or non-numeric input. */
export function toNumber(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** §9 overview and slave cards: "$12,345.67"; '$0.00' when missing or not a number. */
export function formatUsd(value: string | number | null | undefined): string {
  return usd.format(toNumber(value) ?? 0);
}

/**
 * §9 master card: 2 decimals in the account currency, en-US ("€1,234.50", "$10,000.00").
 * An unknown currency code falls back to "1,234.50 XYZ"; a missing currency means USD.
 */
export function formatMoney(value: string | number | null | undefined, currency?: string | null): string {
  const amount = toNumber(value) ?? 0;
  const code = currency?.trim() || "USD";
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    const plain = amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return `${plain} ${code}`;
  }
}

/** en-US number with thousands separators and up to `maxDecimals` decimals. */
export function formatNumber(value: string | number | null | undefined, maxDecimals = 2): string {
  const n = toNumber(value);
  if (n === null) return "0";
  return n.toLocaleString("en-US", { maximumFractionDigits: maxDecimals });
}

/**
 * §9 elapsed time: 'Ns' under 60 seconds, then whole minutes 'Nm'; with `hours`, whole hours
 * 'Nh' from 60 minutes on. Negative spans (clock skew) count as 0 s.
 */
export function formatDuration(ms: number, { hours = false }: { hours?: boolean } = {}): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (!hours || minutes < 60) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h`;
}

/**
 * §9 relative time of a timestamp: 'Ns ago' / 'Nm ago' (and 'Nh ago' with `hours`, used by
 * slave cards); 'Never' when the timestamp is missing or invalid.
 */
export function formatRelativeTime(
  timestamp: string | number | Date | null | undefined,
  now: number = Date.now(),
  options: { hours?: boolean } = {},
): string {
  if (timestamp === null || timestamp === undefined || timestamp === "") return "Never";
  const time = timestamp instanceof Date ? timestamp.getTime() : new Date(timestamp).getTime();
  if (Number.isNaN(time)) return "Never";
  return `${formatDuration(now - time, options)} ago`;
}

/** Calendar date (en-US, e.g. "1/15/2025"), or 'Unknown' when missing or invalid (§2 /slaves). */
export function formatDate(timestamp: string | null | undefined): string {
  if (!timestamp) return "Unknown";
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? "Unknown" : date.toLocaleDateString("en-US");
}
