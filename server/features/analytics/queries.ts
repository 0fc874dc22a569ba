/**
 * Analytics reads (spec §3, §7 /api/analytics/*), tenant-scoped and aggregated in SQL on the
 * (tenant_id, ts) / (tenant_id, reported_at) indexes; metrics.ts does the running sums.
 * Accounts considered: the tenant's slave accounts (optionally one).
 */
import { desc, eq, gte, isNotNull, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { AnalyticsRange, LatencyResponse, PerformanceResponse, SlippageResponse } from "#contract";
import { FAST_LATENCY_MS, SLOW_LATENCY_MS } from "#contract";
import type { Db } from "../../db/client.ts";
import { accountSamples, accountSamples15m, accountSamplesHourly, accounts, executions } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { notFound } from "../../http/errors.ts";
import { buildPerformanceStats, summarizePerformance, type BucketSample, type BucketTrades } from "./metrics.ts";
import { RANGES, rangeStart } from "./ranges.ts";

export interface AnalyticsQuery {
  range: AnalyticsRange;
  accountId?: string | undefined;
}

const ORIGIN = sql.raw(`timestamptz '2000-01-01 00:00:00+00'`);
const DATA_LIMIT = 1000;

/** The tenant's slave ids (or the one asked for; 404 when it is not the tenant's slave). */
async function slaveIds(db: Db, tenantId: string, accountId?: string): Promise<string[]> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(ofTenant(accounts, tenantId, eq(accounts.role, "SLAVE"), accountId ? eq(accounts.id, accountId) : undefined));
  if (accountId && rows.length === 0) throw notFound("Slave account");
  return rows.map((r) => r.id);
}

/**
 * Chart buckets of the sample source (minute samples or hourly rollup) in the range. The largest
 * fall ending in each source row is the greater of the row's own drawdown (kept in heartbeat
 * order) and the fall of the row's low below the highest equity of all earlier rows (window
 * function); a bucket keeps its rows' maximum.
 */
async function bucketSamples(db: Db, tenantId: string, ids: string[], q: AnalyticsQuery, from: Date): Promise<BucketSample[]> {
  const spec = RANGES[q.range];
  const bucketInterval = sql.raw(`interval '${spec.bucket}'`);
  const accountFilter = q.accountId ? sql`and account_id = ${q.accountId}` : sql``;
  const source =
    spec.source === "minute"
      ? sql`select account_id, ts, coalesce(equity_high, equity) as hi, coalesce(equity_low, equity) as lo, equity, balance, coalesce(drawdown_pct, 0) as dd
            from ${accountSamples} where tenant_id = ${tenantId} and ts >= ${from.toISOString()}::timestamptz ${accountFilter}`
      : sql`select account_id, ts, equity_high as hi, equity_low as lo, equity, balance, coalesce(drawdown_pct, 0) as dd
            from ${spec.source === "15m" ? accountSamples15m : accountSamplesHourly} where tenant_id = ${tenantId} and ts >= ${from.toISOString()}::timestamptz ${accountFilter}`;
  // One pass in (account, ts) order: both windows share it, and "last row of its bucket" comes
  // from lead(ts), so the grouping needs no ordered aggregate (hash aggregate, no per-group sort).
  const bucketOf = (ts: SQL) => sql`date_bin(${bucketInterval}, ${ts}, ${ORIGIN})`;
  const lastOfBucket = sql`(next_ts is null or ${bucketOf(sql`next_ts`)} <> bucket)`;
  const result: unknown = await db.execute(sql`
    with src as (${source}),
    peaks as (
      select account_id, ${bucketOf(sql`ts`)} as bucket, lo, dd, equity, balance,
        max(hi) over (partition by account_id order by ts rows between unbounded preceding and 1 preceding) as peak_before,
        lead(ts) over (partition by account_id order by ts) as next_ts
      from src
    )
    select account_id, bucket,
      max(greatest(dd, case when peak_before > 0 then (peak_before - lo) / peak_before * 100 else 0 end))::text as drawdown,
      (max(equity) filter (where ${lastOfBucket}))::text as equity, (max(balance) filter (where ${lastOfBucket}))::text as balance
    from peaks group by 1, 2`);
  const rows = (result as { rows: { account_id: string; bucket: Date | string; drawdown: string; equity: string; balance: string }[] }).rows;
  const allowed = new Set(ids);
  return rows
    .filter((r) => allowed.has(r.account_id))
    .map((r) => ({ accountId: r.account_id, bucket: new Date(r.bucket), drawdown: r.drawdown, equity: r.equity, balance: r.balance }));
}

async function bucketTrades(db: Db, tenantId: string, q: AnalyticsQuery, from: Date): Promise<BucketTrades[]> {
  const bucketInterval = sql.raw(`interval '${RANGES[q.range].bucket}'`);
  const rows = await db
    .select({
      accountId: executions.slaveAccountId,
      bucket: sql<string>`date_bin(${bucketInterval}, ${executions.reportedAt}, ${ORIGIN})`,
      pnl: sql<string>`sum(${executions.profit})::text`,
      closed: sql<number>`count(*)::int`,
      wins: sql<number>`(count(*) filter (where ${executions.profit} > 0))::int`,
    })
    .from(executions)
    .where(
      ofTenant(
        executions,
        tenantId,
        gte(executions.reportedAt, from),
        eq(executions.status, "closed"),
        isNotNull(executions.profit),
        sql`${executions.action} in ('CLOSE', 'CLOSE_ALL')`,
        q.accountId ? eq(executions.slaveAccountId, q.accountId) : undefined,
      ),
    )
    .groupBy(sql`1`, sql`2`);
  return rows.map((r) => ({ accountId: r.accountId, bucket: new Date(r.bucket), pnl: r.pnl, closed: Number(r.closed), wins: Number(r.wins) }));
}

/** GET /api/analytics/performance. */
export async function performance(db: Db, tenantId: string, q: AnalyticsQuery, now = new Date()): Promise<PerformanceResponse> {
  const from = rangeStart(q.range, now);
  const ids = await slaveIds(db, tenantId, q.accountId);
  const [samples, trades] = await Promise.all([bucketSamples(db, tenantId, ids, q, from), bucketTrades(db, tenantId, q, from)]);
  const allowed = new Set(ids);
  const own = trades.filter((t) => allowed.has(t.accountId));
  return { stats: buildPerformanceStats(samples, own), summary: summarizePerformance(ids, own) };
}

const reportedIn = (tenantId: string, q: AnalyticsQuery, from: Date, more: SQL) =>
  ofTenant(executions, tenantId, gte(executions.reportedAt, from), q.accountId ? eq(executions.slaveAccountId, q.accountId) : undefined, more);

/**
 * The newest 1,000 values of `column` reported in the range (returned oldest first) and the
 * range's `summary` aggregates, in two indexed queries run together.
 */
async function newestWithSummary(db: Db, tenantId: string, q: AnalyticsQuery, from: Date, column: PgColumn, summary: Record<string, SQL<unknown>>) {
  const where = reportedIn(tenantId, q, from, isNotNull(column));
  const [rows, sums] = await Promise.all([
    db
      .select({ id: executions.id, slaveAccount: executions.slaveAccountId, value: column, reportedAt: executions.reportedAt })
      .from(executions)
      .where(where)
      .orderBy(desc(executions.reportedAt), desc(executions.id))
      .limit(DATA_LIMIT),
    db.select(summary).from(executions).where(where) as Promise<Record<string, unknown>[]>,
  ]);
  return { rows: rows.reverse(), sum: sums[0] ?? {} };
}

/** GET /api/analytics/latency: the newest 1,000 latencies (oldest first) and a summary of the range. */
export async function latency(db: Db, tenantId: string, q: AnalyticsQuery, now = new Date()): Promise<LatencyResponse> {
  if (q.accountId) await slaveIds(db, tenantId, q.accountId);
  const { rows, sum } = await newestWithSummary(db, tenantId, q, rangeStart(q.range, now), executions.latencyMs, {
    total: sql<number>`count(*)::int`,
    fast: sql<number>`(count(*) filter (where ${executions.latencyMs} < ${FAST_LATENCY_MS}))::int`,
    slow: sql<number>`(count(*) filter (where ${executions.latencyMs} > ${SLOW_LATENCY_MS}))::int`,
    avg: sql<string | null>`avg(${executions.latencyMs})`,
  });
  const n = (k: string) => Number(sum[k] ?? 0);
  return {
    data: rows.map((r) => ({ slaveAccount: r.slaveAccount, latencyMs: Number(r.value ?? 0), executionId: r.id, createdAt: (r.reportedAt ?? now).toISOString() })),
    summary: {
      totalExecutions: n("total"),
      fastExecutions: n("fast"),
      slowExecutions: n("slow"),
      avgLatency: Math.round(n("avg")),
    },
  };
}

/** GET /api/analytics/slippage: the newest 1,000 slippages (oldest first) and a summary of the range. */
export async function slippage(db: Db, tenantId: string, q: AnalyticsQuery, now = new Date()): Promise<SlippageResponse> {
  if (q.accountId) await slaveIds(db, tenantId, q.accountId);
  const { rows, sum } = await newestWithSummary(db, tenantId, q, rangeStart(q.range, now), executions.slippagePts, {
    total: sql<number>`count(*)::int`,
    positive: sql<number>`(count(*) filter (where ${executions.slippagePts} > 0))::int`,
    negative: sql<number>`(count(*) filter (where ${executions.slippagePts} < 0))::int`,
    avg: sql<string | null>`avg(${executions.slippagePts})`,
  });
  const n = (k: string) => Number(sum[k] ?? 0);
  return {
    data: rows.map((r) => ({ slaveAccount: r.slaveAccount, slippagePts: typeof r.value === "string" ? r.value : "0", executionId: r.id, createdAt: (r.reportedAt ?? now).toISOString() })),
    summary: {
      totalExecutions: n("total"),
      positiveSlippage: n("positive"),
      negativeSlippage: n("negative"),
      avgSlippage: Math.round(n("avg") * 100) / 100,
    },
  };
}
