/**
 * Analytics — spec §3 (performance stat row, latency record, slippage record), §9 (ranges,
 * thresholds, slippage buckets), §7 /api/analytics/*.
 */
import { z } from "zod";

export const analyticsRangeSchema = z.enum(["1h", "24h", "7d", "30d"]);
export type AnalyticsRange = z.infer<typeof analyticsRangeSchema>;

export const analyticsQuerySchema = z.object({
  range: analyticsRangeSchema.default("24h"),
  accountId: z.uuid().optional(),
});

/**
 * One account in one time bucket. equity/balance: last sample in the bucket (account currency,
 * numeric string). pnl: closed-trade profit in the range up to the bucket end (account currency).
 * winRate: percent of closed trades with profit > 0. maxDrawdown: largest peak-to-trough equity
 * fall over the range up to the bucket end, percent.
 */
export const performanceStatSchema = z.object({
  accountId: z.string(),
  asofDate: z.string(),
  equity: z.string(),
  balance: z.string(),
  pnl: z.number(),
  winRate: z.number(),
  maxDrawdown: z.number(),
});
export type PerformanceStat = z.infer<typeof performanceStatSchema>;

export const performanceResponseSchema = z.object({
  stats: z.array(performanceStatSchema),
  /**
   * totalAccounts: accounts considered. Avg P&L and Win Rate average over the SAME accounts: those
   * with at least one closed trade in the range (tradedAccounts of them); both null when none.
   */
  summary: z.object({
    totalAccounts: z.number().int(),
    tradedAccounts: z.number().int(),
    avgPnl: z.number().nullable(),
    avgWinRate: z.number().nullable(),
  }),
});
export type PerformanceResponse = z.infer<typeof performanceResponseSchema>;

export const latencyRecordSchema = z.object({
  /** Slave account id. */
  slaveAccount: z.string(),
  latencyMs: z.number(),
  executionId: z.string(),
  createdAt: z.string(),
});
export const latencyResponseSchema = z.object({
  data: z.array(latencyRecordSchema),
  summary: z.object({
    totalExecutions: z.number().int(),
    fastExecutions: z.number().int(),
    slowExecutions: z.number().int(),
    avgLatency: z.number(),
  }),
});
export type LatencyResponse = z.infer<typeof latencyResponseSchema>;

export const slippageRecordSchema = z.object({
  slaveAccount: z.string(),
  /** Points, numeric string; positive = better for the trader. */
  slippagePts: z.string(),
  executionId: z.string(),
  createdAt: z.string(),
});
export const slippageResponseSchema = z.object({
  data: z.array(slippageRecordSchema),
  summary: z.object({
    totalExecutions: z.number().int(),
    positiveSlippage: z.number().int(),
    negativeSlippage: z.number().int(),
    avgSlippage: z.number(),
  }),
});
export type SlippageResponse = z.infer<typeof slippageResponseSchema>;

/** §9 latency thresholds, ms. */
export const FAST_LATENCY_MS = 100;
export const SLOW_LATENCY_MS = 200;

/** §9 slippage buckets in points; a value counts when min <= value < max. */
export const SLIPPAGE_BUCKETS = [
  { name: "Negative", min: -2, max: 0 },
  { name: "Low", min: 0, max: 1 },
  { name: "Medium", min: 1, max: 3 },
  { name: "High", min: 3, max: 999 },
] as const;

/** Bucket name for a slippage value (points), or null when outside every bucket. */
export function slippageBucket(value: number): (typeof SLIPPAGE_BUCKETS)[number]["name"] | null {
  for (const b of SLIPPAGE_BUCKETS) if (b.min <= value && value < b.max) return b.name;
  return null;
}

/**
 * Latency hops (issue 16 "Truthful metrics", docs/bridge-protocol.md "Latency timestamps").
 * terminal_to_bridge: master terminal's event time → bridge received the signal;
 * bridge_to_slave: bridge received → order handed to the slave;
 * slave_execution: handed → slave's fill time (a pending order: the time it was placed, never
 * when it triggered); total: the sum of the three. Terminal times are corrected by the
 * terminal's estimated clock offset and each hop is clamped at 0.
 */
export const latencyHopNameSchema = z.enum(["terminal_to_bridge", "bridge_to_slave", "slave_execution", "total"]);
export type LatencyHopName = z.infer<typeof latencyHopNameSchema>;
export const LATENCY_HOPS = latencyHopNameSchema.options;

/** Percentiles of one hop over the range, ms (null when no sample); count = samples. */
export const latencyHopStatsSchema = z.object({
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  max: z.number().nullable(),
  count: z.number().int(),
});
export type LatencyHopStats = z.infer<typeof latencyHopStatsSchema>;

export const latencyHopRowSchema = latencyHopStatsSchema.extend({ hop: latencyHopNameSchema });
export type LatencyHopRow = z.infer<typeof latencyHopRowSchema>;

/** One slave: its total's percentiles plus each hop's. slaveAccount = the account's name. */
export const latencyHopsPerSlaveSchema = latencyHopStatsSchema.extend({
  slaveAccountId: z.string(),
  slaveAccount: z.string(),
  hops: z.object({
    terminal_to_bridge: latencyHopStatsSchema,
    bridge_to_slave: latencyHopStatsSchema,
    slave_execution: latencyHopStatsSchema,
    total: latencyHopStatsSchema,
  }),
});
export type LatencyHopsPerSlave = z.infer<typeof latencyHopsPerSlaveSchema>;

/** GET /api/analytics/latency/hops?range=&accountId= (same filters as /api/analytics/latency). */
export const latencyHopsResponseSchema = z.object({
  hops: z.array(latencyHopRowSchema),
  perSlave: z.array(latencyHopsPerSlaveSchema),
});
export type LatencyHopsResponse = z.infer<typeof latencyHopsResponseSchema>;
