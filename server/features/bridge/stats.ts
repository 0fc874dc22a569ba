/**
 * GET /api/bridge/stats — spec §3 Bridge stats, polled every 2 s by /bridge. totalSignals: master
 * events received (all time); activeConnections: terminals heard from in the last 60 s;
 * avgLatencyMs and successRate (percent, 1 decimal) over executions reported in the last 24 h
 * (skipped copies, never attempted, are neither successes nor failures).
 */
import { and, avg, count, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { BridgeStats } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, executions, signalEvents } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";

export async function bridgeStats(db: Db, tenantId: string, now = new Date()): Promise<BridgeStats> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const minuteAgo = new Date(now.getTime() - 60_000);
  const [[signalsRow], [connRow], [execRow]] = await Promise.all([
    db.select({ n: count() }).from(signalEvents).where(ofTenant(signalEvents, tenantId)),
    db.select({ n: count() }).from(accounts).where(ofTenant(accounts, tenantId, gt(accounts.lastHeartbeat, minuteAgo), isNull(accounts.deletedAt))),
    db
      .select({
        avgLatency: avg(executions.latencyMs),
        reported: count(),
        ok: sql<number>`count(*) filter (where ${executions.status} in ('filled', 'placed', 'modified', 'closed', 'cancelled'))::int`,
      })
      .from(executions)
      .where(
        ofTenant(
          executions,
          tenantId,
          and(
            isNotNull(executions.reportedAt),
            gt(executions.reportedAt, dayAgo),
            sql`${executions.status} not in ('pending', 'skipped')`,
            // Opens cancelled by Pause All / PANIC STOP were never attempted either (issue 13).
            sql`(${executions.status} <> 'cancelled' or ${executions.reasonCode} is distinct from 'paused')`,
          ),
        ),
      ),
  ]);
  const reported = execRow?.reported ?? 0;
  return {
    totalSignals: signalsRow?.n ?? 0,
    activeConnections: connRow?.n ?? 0,
    avgLatencyMs: execRow?.avgLatency ? Math.round(Number(execRow.avgLatency)) : 0,
    successRate: reported > 0 ? Math.round((Number(execRow?.ok ?? 0) / reported) * 1000) / 10 : 0,
  };
}
