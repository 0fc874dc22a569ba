/**
 * The pause's cancellation of queued orders (Pause All / PANIC STOP, and an order given back to
 * delivery count 0 while the organisation's copying is paused: delivery/give-back.ts). Which orders
 * go is domain/pause.ts's decision; this writes it.
 */
import { inArray, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { executions } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import type { ExecutionRow } from "../../signals/mappers.ts";
import { PAUSE_CANCEL_CODE, PAUSE_CANCEL_MESSAGE, pauseCancelIds } from "../domain/pause.ts";
import { completeSignalsIfDone } from "./completion-store.ts";

/**
 * Inside a transaction: cancels the tenant's queued orders that domain/pause.ts says to cancel
 * (opens never handed out, and their copies' undelivered follow-ups), with reason `paused`, and
 * ends the signals left with nothing to do. Rows are locked (FOR UPDATE) so a concurrent claim
 * either hands an order out before (its delivery count is then > 0 and it is kept) or after (it is
 * no longer pending). Returns the cancelled executions and the signals it ended.
 */
export async function cancelQueuedOpens(db: Db, tenantId: string, now: Date): Promise<{ cancelled: ExecutionRow[]; closedSignalIds: string[] }> {
  const queued = await db
    .select({ id: executions.id, action: executions.action, status: executions.status, deliveryCount: executions.deliveryCount, slaveAccountId: executions.slaveAccountId, signalId: executions.signalId })
    .from(executions)
    .where(ofTenant(executions, tenantId, eq(executions.status, "pending")))
    .for("update");
  const ids = pauseCancelIds(queued);
  if (ids.length === 0) return { cancelled: [], closedSignalIds: [] };
  const cancelled = await db
    .update(executions)
    .set({ status: "cancelled", reasonCode: PAUSE_CANCEL_CODE, errorMessage: PAUSE_CANCEL_MESSAGE, reportedAt: now, leaseUntil: null })
    .where(ofTenant(executions, tenantId, inArray(executions.id, ids), eq(executions.status, "pending"), eq(executions.deliveryCount, 0)))
    .returning();
  const closedSignalIds = await completeSignalsIfDone(
    db,
    tenantId,
    cancelled.map((x) => x.signalId),
    now,
  );
  return { cancelled, closedSignalIds };
}
