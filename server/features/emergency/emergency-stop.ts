/**
 * Emergency controls — spec §2 sidebar PANIC STOP and /risk Emergency Controls, §7, §8:
 * - pause-all: pause the tenant's copying and every active slave (→ `paused`, paused by the
 *   organisation), and cancel every opening order not yet handed out (domain/pause.ts);
 * - panic-stop: the same, plus a CLOSE_ALL order to every slave (copy-engine/close-all.ts);
 * - close-all ("Close All Positions"): only the CLOSE_ALL orders; copying continues.
 * Each runs in one transaction with its audit entry; orders, cancels, account and tenant changes
 * are announced after commit. Resuming is POST /api/emergency/resume (resume-copying.ts); a
 * slave's own Enable changes that slave only.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Account } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, tenants } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { lockTenantSignals } from "../../db/tenant-signal-lock.ts";
import type { AppContext } from "../../http/context.ts";
import { toAccount } from "../accounts/mappers.ts";
import { writeAuditLog, type AuditEntry } from "../audit/write-audit-log.ts";
import { queueCloseAll } from "../copy-engine/close-all.ts";
import { emptyEffects, publishEffects } from "../copy-engine/effects.ts";
import { cancelQueuedOpens } from "../copy-engine/store/pause-store.ts";

export type EmergencyAction = "pause-all" | "panic-stop" | "close-all";

export interface EmergencyResult {
  pausedAccounts: number;
  closeOrders: number;
  /** Queued orders never handed out that the pause cancelled. */
  cancelledOrders: number;
}

const PLAN: Record<EmergencyAction, { pause: boolean; closeAll: boolean; level: AuditEntry["level"]; category: AuditEntry["category"] }> = {
  "pause-all": { pause: true, closeAll: false, level: "warning", category: "system" },
  "panic-stop": { pause: true, closeAll: true, level: "error", category: "system" },
  "close-all": { pause: false, closeAll: true, level: "warning", category: "trade" },
};

/** Inside a transaction: pauses the tenant and its active live slaves (paused by `tenant`); returns the slaves it paused. */
async function pauseTenantCopying(db: Db, tenantId: string, now: Date): Promise<Account[]> {
  await db.update(tenants).set({ copyPaused: true }).where(eq(tenants.id, tenantId));
  const rows = await db
    .update(accounts)
    .set({ status: "paused", pausedBy: "tenant", updatedAt: now })
    .where(ofTenant(accounts, tenantId, and(eq(accounts.role, "SLAVE"), eq(accounts.status, "active"), isNull(accounts.deletedAt))))
    .returning();
  return rows.map(toAccount);
}

function describe(action: EmergencyAction, actor: string, paused: number, orders: number, cancelled: number): string {
  const cancels = `${cancelled} queued order(s) cancelled`;
  switch (action) {
    case "pause-all":
      return `All copying paused by ${actor} (${paused} slave account(s) paused, ${cancels})`;
    case "panic-stop":
      return `PANIC STOP executed by ${actor}: copying paused (${paused} slave account(s), ${cancels}), close-all sent to ${orders} slave(s)`;
    case "close-all":
      return `Close all positions requested by ${actor}: close-all sent to ${orders} slave(s)`;
  }
}

/**
 * Runs one emergency action for the tenant (`actor`: the user's email or "API" for the audit
 * text). An order is recorded as handed out before any EA gets it, on every instance
 * (copy-engine/delivery/delivery.ts), and the pause reads the delivery counts under the tenant's
 * signal lock: an order an EA holds is never cancelled under it, and an order it cancels never
 * reaches an EA.
 */
export async function emergencyStop(ctx: AppContext, tenantId: string, actor: string, action: EmergencyAction): Promise<EmergencyResult> {
  const plan = PLAN[action];
  const { paused, orders, cancelled, closedSignalIds } = await runEmergency(ctx, tenantId, actor, action);
  for (const a of paused) ctx.hub.publish(tenantId, { type: "account_updated", data: a });
  if (plan.pause) ctx.hub.publish(tenantId, { type: "tenant_updated", data: { copyPaused: true } });
  publishEffects(ctx, tenantId, { ...emptyEffects(), orders, executions: [...cancelled, ...orders], closedSignalIds });
  return { pausedAccounts: paused.length, closeOrders: orders.length, cancelledOrders: cancelled.length };
}

/** emergencyStop's transaction. */
async function runEmergency(ctx: AppContext, tenantId: string, actor: string, action: EmergencyAction) {
  const plan = PLAN[action];
  const now = new Date();
  return ctx.db.transaction(async (tx) => {
    if (plan.pause) await lockTenantSignals(tx, tenantId);
    const paused = plan.pause ? await pauseTenantCopying(tx, tenantId, now) : [];
    const { cancelled, closedSignalIds } = plan.pause ? await cancelQueuedOpens(tx, tenantId, now) : { cancelled: [], closedSignalIds: [] };
    const orders = plan.closeAll ? await queueCloseAll(tx, tenantId, now) : [];
    await writeAuditLog(tx, {
      tenantId,
      level: plan.level,
      category: plan.category,
      source: "emergency",
      message: describe(action, actor, paused.length, orders.length, cancelled.length),
      metadata: { pausedAccountIds: paused.map((a) => a.id), closeOrderIds: orders.map((o) => o.id), cancelledOrderIds: cancelled.map((o) => o.id) },
    });
    return { paused, orders, cancelled, closedSignalIds };
  });
}
