/**
 * Analytics ranges (spec §9: 1h, 24h, 7d, 30d) → time window, chart bucket and sample source.
 * 1h reads minute samples, 24h the 15-minute rollup, 7d and 30d the hourly rollup, so no query
 * reads more than 720 rows per account whatever the history size.
 */
import type { AnalyticsRange } from "#contract";

export interface RangeSpec {
  ms: number;
  /** PostgreSQL interval of one chart bucket. */
  bucket: string;
  source: "minute" | "15m" | "hourly";
}

export const RANGES: Record<AnalyticsRange, RangeSpec> = {
  "1h": { ms: 3_600_000, bucket: "1 minute", source: "minute" },
  "24h": { ms: 86_400_000, bucket: "15 minutes", source: "15m" },
  "7d": { ms: 7 * 86_400_000, bucket: "1 hour", source: "hourly" },
  "30d": { ms: 30 * 86_400_000, bucket: "6 hours", source: "hourly" },
};

export const rangeStart = (range: AnalyticsRange, now = new Date()) => new Date(now.getTime() - RANGES[range].ms);
