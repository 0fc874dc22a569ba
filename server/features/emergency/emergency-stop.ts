/**
 * Emergency controls — spec §2 sidebar PANIC STOP and /risk Emergency Controls, §7, §8:
 * - pause-all: pause the tenant's copying and every active slave (→ `paused`);
 * - panic-stop: the same, plus a CLOSE_ALL order to every slave (copy-engine/close-all.ts);
 * - close-all ("Close All Positions"): only the CLOSE_ALL orders; copying continues.
 * Each runs in one transaction with its audit entry; orders and account changes are announced
 * after commit. Resuming is a slave's Enable (accounts/service.ts clears the tenant's pause).
 */
import { and, eq } from "drizzle-orm";
import type { Account } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, tenants } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { toAccount } from "../accounts/mappers.ts";
import { writeAuditLog, type AuditEntry } from "../audit/write-audit-log.ts";
import { queueCloseAll } from "../copy-engine/close-all.ts";
import { emptyEffects, publishEffects } from "../copy-engine/effects.ts";

export type EmergencyAction = "pause-all" | "panic-stop" | "close-all";

export interface EmergencyResult {
  pausedAccounts: number;
  closeOrders: number;
}

const PLAN: Record<EmergencyAction, { pause: boolean; closeAll: boolean; level: AuditEntry["level"]; category: AuditEntry["category"] }> = {
  "pause-all": { pause: true, closeAll: false, level: "warning", category: "system" },
  "panic-stop": { pause: true, closeAll: true, level: "error", category: "system" },
  "close-all": { pause: false, closeAll: true, level: "warning", category: "trade" },
};

/** Inside a transaction: pauses the tenant and its active slaves; returns the slaves it paused. */
async function pauseTenantCopying(db: Db, tenantId: string): Promise<Account[]> {
  await db.update(tenants).set({ copyPaused: true }).where(eq(tenants.id, tenantId));
  const rows = await db
    .update(accounts)
    .set({ status: "paused", updatedAt: new Date() })
    .where(ofTenant(accounts, tenantId, and(eq(accounts.role, "SLAVE"), eq(accounts.status, "active"))))
    .returning();
  return rows.map(toAccount);
}

function describe(action: EmergencyAction, actor: string, paused: number, orders: number): string {
  switch (action) {
    case "pause-all":
      return `All copying paused by ${actor} (${paused} slave account(s) paused)`;
    case "panic-stop":
      return `PANIC STOP executed by ${actor}: copying paused (${paused} slave account(s)), close-all sent to ${orders} slave(s)`;
    case "close-all":
      return `Close all positions requested by ${actor}: close-all sent to ${orders} slave(s)`;
  }
}

export async function emergencyStop(ctx: AppContext, tenantId: string, actor: string, action: EmergencyAction): Promise<EmergencyResult> {
  const plan = PLAN[action];
  const { paused, orders } = await ctx.db.transaction(async (tx) => {
    const paused = plan.pause ? await pauseTenantCopying(tx, tenantId) : [];
    const orders = plan.closeAll ? await queueCloseAll(tx, tenantId) : [];
    await writeAuditLog(tx, {
      tenantId,
      level: plan.level,
      category: plan.category,
      source: "emergency",
      message: describe(action, actor, paused.length, orders.length),
      metadata: { pausedAccountIds: paused.map((a) => a.id), closeOrderIds: orders.map((o) => o.id) },
    });
    return { paused, orders };
  });
  for (const a of paused) ctx.hub.publish(tenantId, { type: "account_updated", data: a });
  publishEffects(ctx, tenantId, { ...emptyEffects(), orders, executions: orders });
  return { pausedAccounts: paused.length, closeOrders: orders.length };
}
