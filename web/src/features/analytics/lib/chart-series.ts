/**
 * Equity-curve series — spec §2 /analytics Performance (one line per account, x-axis by date,
 * legend by alias), §9 (6-grey palette that cycles; missing alias → 'Account' + last 8 chars).
 */
import type { PerformanceStat } from "#contract";

/** §9: six grey shades per theme (light lines on dark, dark lines on light), cycled. */
export const EQUITY_PALETTES = {
  dark: ["#f5f5f5", "#d4d4d4", "#b3b3b3", "#969696", "#7d7d7d", "#666666"],
  light: ["#171717", "#3d3d3d", "#575757", "#6e6e6e", "#858585", "#9c9c9c"],
} as const;

/** Dash patterns that tell lines apart once the palette has gone round. */
const DASHES = ["", "6 3", "2 3", "10 4 2 4"] as const;

/** Stroke of the `index`-th line: palette colour index mod 6, a new dash per palette lap. */
export function seriesStroke(index: number, theme: "light" | "dark"): { color: string; dash: string } {
  const palette = EQUITY_PALETTES[theme];
  const i = Math.max(0, Math.trunc(index));
  return { color: palette[i % palette.length] ?? palette[0], dash: DASHES[Math.floor(i / palette.length) % DASHES.length] ?? "" };
}

/** §9 legend name: the alias, else 'Account' plus the last 8 characters of the id. */
export function accountLabel(accountId: string, alias?: string | null): string {
  const trimmed = alias?.trim();
  return trimmed ? trimmed : `Account ${accountId.slice(-8)}`;
}

export interface EquitySeries {
  /** One point per asofDate (ascending): `date` plus each account's equity under its id. */
  points: Record<string, number | string>[];
  /** Account ids in the order they first appear. */
  accountIds: string[];
}

/**
 * Pivots stat rows (one per account per bucket) into chart points keyed by account id. An
 * account without a row at a date has no value there (the line bridges the gap).
 */
export function equitySeries(stats: readonly PerformanceStat[]): EquitySeries {
  const byDate = new Map<string, Record<string, number | string>>();
  const accountIds: string[] = [];
  const seen = new Set<string>();
  for (const row of stats) {
    if (!seen.has(row.accountId)) {
      seen.add(row.accountId);
      accountIds.push(row.accountId);
    }
    const equity = Number(row.equity);
    if (!Number.isFinite(equity)) continue;
    const point = byDate.get(row.asofDate) ?? { date: row.asofDate };
    point[row.accountId] = equity;
    byDate.set(row.asofDate, point);
  }
  const points = [...byDate.values()].sort((a, b) => Date.parse(String(a.date)) - Date.parse(String(b.date)));
  return { points, accountIds };
}
