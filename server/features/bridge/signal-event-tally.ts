/**
 * All-time count of a tenant's master events (signal_events) whose cost does not grow with
 * history: Bridge stats' totalSignals, polled every 2 s (issue 15).
 *
 * Why a tally in the process and not a counter row: a counter would need a write in the copy
 * engine's outbox statement on the hot path. Events are deleted only by retention (and with their
 * tenant), which adds what it deletes to `pruned_totals` in the same statement; a tenant's first
 * count in a process reads both in one statement (one snapshot), so the total stays all-time and
 * exact as long as each row is counted once.
 *
 * How: events received up to `settledUntil` are counted once (`settled`) and never again; a poll
 * counts, on the (tenant_id, received_at) index, only the rows after `settledUntil`, and moves that
 * point to `now - SETTLE_MS`. The margin exists because `received_at` is stamped by the receiving
 * instance's clock when the request arrives, before its transaction commits: a row may become
 * visible a little after its timestamp (a slow commit, or another instance's clock a little
 * behind). Ten minutes is far beyond either; a row committed later still than that would be
 * missed by this process's total (never double counted). The first poll of a tenant in a process
 * counts its history once (an index-only count); every later poll reads ~10 minutes of rows.
 * Several instances each keep their own tally over the same rows: they agree.
 */
import { gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { prunedTotals, signalEvents } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";

/** How far behind `now` the settled count stops (see above), ms. */
export const SETTLE_MS = 10 * 60_000;

interface Settled {
  /** Events with received_at <= this are in `count`. */
  until: Date;
  count: number;
}

export class SignalEventTally {
  private readonly byTenant = new Map<string, Settled>();

  /** The tenant's events received so far, all time. One query over the rows after the settled point. */
  async total(db: Db, tenantId: string, now = new Date()): Promise<number> {
    const prior = this.byTenant.get(tenantId);
    const until = new Date(now.getTime() - SETTLE_MS);
    const [row] = await db
      .select({
        settling: sql<number>`(count(*) filter (where ${signalEvents.receivedAt} <= ${until.toISOString()}::timestamptz))::int`,
        recent: sql<number>`(count(*) filter (where ${signalEvents.receivedAt} > ${until.toISOString()}::timestamptz))::int`,
        // Only on the first count: later deletions were already counted by this process.
        pruned: prior
          ? sql<number>`0`
          : sql<number>`coalesce((select ${prunedTotals.signalEvents} from ${prunedTotals} where ${prunedTotals.tenantId} = ${tenantId}), 0)::int8`,
      })
      .from(signalEvents)
      .where(ofTenant(signalEvents, tenantId, prior ? gt(signalEvents.receivedAt, prior.until) : undefined));
    const settled = (prior?.count ?? 0) + Number(row?.settling ?? 0) + Number(row?.pruned ?? 0);
    // Two polls of one tenant may overlap: only the one that read the state still stored advances
    // it, so no range is added twice (the other's total is still exact from what it read).
    if (this.byTenant.get(tenantId) === prior && (!prior || until > prior.until)) {
      this.byTenant.set(tenantId, { until, count: settled });
    }
    return settled + Number(row?.recent ?? 0);
  }
}
