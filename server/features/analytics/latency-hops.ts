/**
 * GET /api/analytics/latency/hops (issue 16 "Truthful metrics", docs/bridge-protocol.md "Latency
 * timestamps"): p50, p95 and max of each latency hop over the range, in ms, for the tenant's slave
 * orders reported successfully in it (optionally one slave's), overall and per slave. Percentiles
 * are computed in SQL (percentile_cont); a hop not measured (an EA sending no timestamps) is left
 * out of that hop's figures (null, count 0), never counted as 0. total = the sum of the three hops
 * of orders where all three were measured.
 */
import { and, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { LatencyHopName, LatencyHopStats, LatencyHopsResponse } from "#contract";
import { LATENCY_HOPS, SUCCESS_EXECUTION_STATUSES } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, executions } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { notFound } from "../../http/errors.ts";
import type { AnalyticsQuery } from "./queries.ts";
import { rangeStart } from "./ranges.ts";

const HOP_SQL: Record<LatencyHopName, SQL> = {
  terminal_to_bridge: sql`${executions.terminalToBridgeMs}`,
  bridge_to_slave: sql`${executions.bridgeToSlaveMs}`,
  slave_execution: sql`${executions.slaveExecutionMs}`,
  // null when any hop is null: a partial sum would understate the total.
  total: sql`(${executions.terminalToBridgeMs} + ${executions.bridgeToSlaveMs} + ${executions.slaveExecutionMs})`,
};

/** Aggregates of every hop: `<hop>_p50`, `<hop>_p95`, `<hop>_max`, `<hop>_n`. */
function hopAggregates(): Record<string, SQL<unknown>> {
  const out: Record<string, SQL<unknown>> = {};
  for (const hop of LATENCY_HOPS) {
    const v = HOP_SQL[hop];
    out[`${hop}_p50`] = sql`percentile_cont(0.5) within group (order by ${v})`;
    out[`${hop}_p95`] = sql`percentile_cont(0.95) within group (order by ${v})`;
    out[`${hop}_max`] = sql`max(${v})`;
    out[`${hop}_n`] = sql`count(${v})::int`;
  }
  return out;
}

const ms = (v: unknown): number | null => (v == null ? null : Math.round(Number(v) * 10) / 10);

function statsOf(row: Record<string, unknown>, hop: LatencyHopName): LatencyHopStats {
  return { p50: ms(row[`${hop}_p50`]), p95: ms(row[`${hop}_p95`]), max: ms(row[`${hop}_max`]), count: Number(row[`${hop}_n`] ?? 0) };
}

const hopsOf = (row: Record<string, unknown>) =>
  Object.fromEntries(LATENCY_HOPS.map((h) => [h, statsOf(row, h)])) as Record<LatencyHopName, LatencyHopStats>;

/** The hops' percentiles over the range. Errors: 404 when `accountId` is not one of the tenant's slaves. */
export async function latencyHops(db: Db, tenantId: string, q: AnalyticsQuery, now = new Date()): Promise<LatencyHopsResponse> {
  if (q.accountId) {
    const [own] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(ofTenant(accounts, tenantId, eq(accounts.role, "SLAVE"), eq(accounts.id, q.accountId)));
    if (!own) throw notFound("Slave account");
  }
  const where = ofTenant(
    executions,
    tenantId,
    gte(executions.reportedAt, rangeStart(q.range, now)),
    inArray(executions.status, [...SUCCESS_EXECUTION_STATUSES]),
    q.accountId ? eq(executions.slaveAccountId, q.accountId) : undefined,
  );
  const aggregates = hopAggregates();
  const [overall, perSlave] = await Promise.all([
    db.select(aggregates).from(executions).where(where) as Promise<Record<string, unknown>[]>,
    db
      .select({ slaveAccountId: executions.slaveAccountId, name: sql<string>`coalesce(${accounts.alias}, ${accounts.accountNumber})`, ...aggregates })
      .from(executions)
      .innerJoin(accounts, and(eq(accounts.id, executions.slaveAccountId), eq(accounts.tenantId, tenantId)))
      .where(where)
      .groupBy(executions.slaveAccountId, accounts.alias, accounts.accountNumber)
      .orderBy(sql`2`) as Promise<Record<string, unknown>[]>,
  ]);
  const all = overall[0] ?? {};
  return {
    hops: LATENCY_HOPS.map((hop) => ({ hop, ...statsOf(all, hop) })),
    perSlave: perSlave.map((r) => {
      const hops = hopsOf(r);
      return { slaveAccountId: String(r.slaveAccountId), slaveAccount: String(r.name), ...hops.total, hops };
    }),
  };
}
