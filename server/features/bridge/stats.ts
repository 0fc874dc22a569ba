/**
 * GET /api/bridge/stats — spec §3 Bridge stats, polled every 2 s by /bridge. totalSignals: master
 * events received (all time); activeConnections: terminals heard from in the last 60 s;
 * avgLatencyMs and successRate (percent, 1 decimal) over executions reported in the last 24 h
 * (skipped copies, never attempted, are neither successes nor failures).
 *
 * Cost (issue 15: the poll counted every signal event ever recorded): totalSignals keeps its
 * all-time meaning through a per-tenant tally held in this process (`SignalEventTally`): the events
 * older than a settling margin are counted once and then only advanced, so a poll reads the
 * (tenant_id, received_at) index over the last minutes only. The other fields were already over
 * bounded windows (accounts; the (tenant_id, reported_at) index over 24 h).
 */
import { and, avg, count, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { BridgeStats } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, executions } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { SignalEventTally } from "./signal-event-tally.ts";

const tallies = new WeakMap<Db, SignalEventTally>();

/** The tally of `db` (one per database handle: tests open several in one process). */
function tallyOf(db: Db): SignalEventTally {
  let tally = tallies.get(db);
  if (!tally) {
    tally = new SignalEventTally();
    tallies.set(db, tally);
  }
  return tally;
}

export async function bridgeStats(db: Db, tenantId: string, now = new Date()): Promise<BridgeStats> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const minuteAgo = new Date(now.getTime() - 60_000);
  const [totalSignals, [connRow], [execRow]] = await Promise.all([
    tallyOf(db).total(db, tenantId, now),
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
    totalSignals,
    activeConnections: connRow?.n ?? 0,
    avgLatencyMs: execRow?.avgLatency ? Math.round(Number(execRow.avgLatency)) : 0,
    successRate: reported > 0 ? Math.round((Number(execRow?.ok ?? 0) / reported) * 1000) / 10 : 0,
  };
}
