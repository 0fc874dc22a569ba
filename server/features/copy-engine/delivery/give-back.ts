/**
 * Giving back orders a connection did not take: a claim whose poll had been answered, a client
 * gone before its answer, an order recorded as handed out for a poll that left before the commit
 * (hand-out.ts). Each goes back to delivery count − 1 with no lease, claimable by the EA's next
 * poll at once instead of after the lease (10 s).
 *
 * Pause All keeps a queued open that was handed out (domain/pause.ts: the EA may be executing it)
 * and cancels the others. An open given back to delivery count 0 after a pause kept it was never
 * in an EA's hands: left pending it would reach the slave's next poll although copying is paused.
 * So when the organisation's copying is paused, a give-back that leaves an opening order at count 0
 * is followed by the pause's own cancellation (store/pause-store.ts), under the tenant's signal
 * lock like the pause itself, and published.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { rawStatement, runRaw } from "../../../db/raw.ts";
import { tenants } from "../../../db/schema.ts";
import { lockTenantSignals } from "../../../db/tenant-signal-lock.ts";
import type { AppContext } from "../../../http/context.ts";
import { writeAuditLog } from "../../audit/write-audit-log.ts";
import { OPENING_ACTIONS } from "../domain/pause.ts";
import { publishOutcomes } from "../publish-outcomes.ts";
import { cancelQueuedOpens } from "../store/pause-store.ts";

const releaseStatement = rawStatement(
  "delivery_release",
  `update executions set delivery_count = greatest(delivery_count - 1, 0), lease_until = null
   where tenant_id = $1 and id = any($2::uuid[]) and status = 'pending'
   returning id::text as id, action, delivery_count as "deliveryCount"`,
  (r) => ({ id: String(r.id), action: String(r.action), deliveryCount: Number(r.deliveryCount) }),
);
const copyPausedStatement = rawStatement("delivery_copy_paused", `select copy_paused as "copyPaused" from tenants where id = $1`, (r) => r.copyPaused === true, {
  prepared: true,
});

/**
 * Gives back the leases of `orderIds` (tenant-scoped, still pending): delivery count − 1 (never
 * below 0), no lease. `relaxedDb`: see db/relaxed-commit.ts. Returns the orders given back, with
 * their new delivery count.
 */
export async function releaseOrders(relaxedDb: Db, tenantId: string, orderIds: string[]): Promise<{ id: string; action: string; deliveryCount: number }[]> {
  if (orderIds.length === 0) return [];
  return runRaw(relaxedDb, releaseStatement, [tenantId, orderIds]);
}

/**
 * Gives back `orderIds` (releaseOrders) and, when that left an opening order never handed out
 * while the organisation's copying is paused, cancels what the pause cancels and publishes it.
 * Returns how many orders that cancelled. Errors: the database's.
 */
export async function giveBackOrders(ctx: AppContext, tenantId: string, orderIds: string[], now = new Date()): Promise<number> {
  const released = await releaseOrders(ctx.relaxedDb, tenantId, orderIds);
  if (!released.some((r) => r.deliveryCount === 0 && OPENING_ACTIONS.has(r.action))) return 0;
  // Read after the release has committed. A pause that committed before it is seen here. One
  // under way is not, and needs nothing: the release either committed before the pause read the
  // delivery counts (the pause then cancels the open itself) or waited for the pause's row lock
  // and so ran after its commit (read here). Only a paused tenant takes the pause's lock (a
  // give-back is common under load: a poll answered by an earlier signal before this one's commit).
  const [paused] = await runRaw(ctx.db, copyPausedStatement, [tenantId]);
  if (!paused) return 0;
  const done = await ctx.db.transaction(async (tx) => {
    // The pause's own lock: a pause under way commits first, and its flag is then read here.
    await lockTenantSignals(tx, tenantId);
    const [tenant] = await tx.select({ copyPaused: tenants.copyPaused }).from(tenants).where(eq(tenants.id, tenantId));
    if (!tenant?.copyPaused) return null;
    const cancelled = await cancelQueuedOpens(tx, tenantId, now);
    if (cancelled.cancelled.length === 0) return cancelled;
    await writeAuditLog(tx, {
      tenantId,
      level: "warning",
      category: "system",
      source: "emergency",
      message: `${cancelled.cancelled.length} queued order(s) cancelled: copying is paused and the connection they were handed to went away before taking them`,
      metadata: { cancelledOrderIds: cancelled.cancelled.map((o) => o.id) },
    });
    return cancelled;
  });
  if (!done || done.cancelled.length === 0) return 0;
  publishOutcomes(ctx, tenantId, { executions: done.cancelled, closedSignalIds: done.closedSignalIds });
  return done.cancelled.length;
}
