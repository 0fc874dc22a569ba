/**
 * Analytics metric maths — spec §2 /analytics (Latency, Slippage and Execution sub-tabs, Account
 * Summary), §9 (last 50 executions, fast < 100 ms, slow > 200 ms, slippage buckets with
 * min <= value < max, 10 summary rows). Pure functions over the contract's response shapes.
 */
import { type LatencyResponse, type PerformanceStat, SLIPPAGE_BUCKETS, type SlippageResponse, slippageBucket } from "#contract";

/** §9: the latency chart shows the last 50 executions. */
export const LATENCY_CHART_POINTS = 50;
/** §9: the Account Summary shows 10 rows. */
export const ACCOUNT_SUMMARY_ROWS = 10;

type LatencyRecord = LatencyResponse["data"][number];
type SlippageRecord = SlippageResponse["data"][number];
export type SlippageBucketName = (typeof SLIPPAGE_BUCKETS)[number]["name"];

/** `part` as a percentage of `total`; null when there is nothing to divide (total 0). */
export function share(part: number, total: number): number | null {
  if (!Number.isFinite(total) || total <= 0 || !Number.isFinite(part)) return null;
  return (part / total) * 100;
}

/**
 * The newest `count` latency records (the response is ordered oldest → newest), oldest first,
 * as chart points numbered from 1.
 */
export function latencyTrend(data: readonly LatencyRecord[], count = LATENCY_CHART_POINTS) {
  return data.slice(-count).map((record, index) => ({
    index: index + 1,
    latencyMs: record.latencyMs,
    createdAt: record.createdAt,
    slaveAccount: record.slaveAccount,
  }));
}

export interface BucketCount {
  name: SlippageBucketName;
  count: number;
}

/**
 * §9 slippage buckets (Negative, Low, Medium, High) counted with the contract's
 * slippageBucket(); values outside every bucket (below −2 points, unparseable) are counted in
 * `outside`. Buckets keep their §9 order and appear even when empty.
 */
export function slippageBucketCounts(data: readonly Pick<SlippageRecord, "slippagePts">[]): { buckets: BucketCount[]; outside: number } {
  const counts = new Map<SlippageBucketName, number>(SLIPPAGE_BUCKETS.map((b) => [b.name, 0]));
  let outside = 0;
  for (const record of data) {
    const value = Number(record.slippagePts);
    const bucket = record.slippagePts.trim() === "" || !Number.isFinite(value) ? null : slippageBucket(value);
    if (bucket === null) outside += 1;
    else counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return { buckets: SLIPPAGE_BUCKETS.map((b) => ({ name: b.name, count: counts.get(b.name) ?? 0 })), outside };
}

export interface ExecutionScores {
  /** Percent of executions faster than 100 ms; null without executions. */
  fastShare: number | null;
  /** Percent of executions with positive slippage; null without slippage records. */
  positiveShare: number | null;
  /** 100 − percent of executions slower than 200 ms; null without executions. */
  qualityScore: number | null;
}

/** §2 Execution sub-tab: the three percentages, from the range summaries. */
export function executionScores(latency: LatencyResponse["summary"] | undefined, slippage: SlippageResponse["summary"] | undefined): ExecutionScores {
  const fastShare = latency ? share(latency.fastExecutions, latency.totalExecutions) : null;
  const slowShare = latency ? share(latency.slowExecutions, latency.totalExecutions) : null;
  return {
    fastShare,
    positiveShare: slippage ? share(slippage.positiveSlippage, slippage.totalExecutions) : null,
    qualityScore: slowShare === null ? null : 100 - slowShare,
  };
}

/**
 * The latest stat row of each account (by asofDate; ties keep the later row), in the order the
 * accounts first appear.
 */
export function latestRowPerAccount(stats: readonly PerformanceStat[]): PerformanceStat[] {
  const latest = new Map<string, PerformanceStat>();
  for (const row of stats) {
    const current = latest.get(row.accountId);
    if (!current || Date.parse(row.asofDate) >= Date.parse(current.asofDate)) latest.set(row.accountId, row);
  }
  return [...latest.values()];
}

/** §2 Account Summary: the first 10 rows, one per account (its latest). */
export function accountSummaryRows(stats: readonly PerformanceStat[], limit = ACCOUNT_SUMMARY_ROWS): PerformanceStat[] {
  return latestRowPerAccount(stats).slice(0, limit);
}
