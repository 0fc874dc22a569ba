/**
 * Close-all orders (PANIC STOP and Close All Positions, and protection's `closePositionsOnStop`):
 * one CLOSE_ALL order per slave, telling its EA to close every position and delete every pending
 * order it opened for CopyBridge.
 */
import { eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { accounts, executions } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { ExecutionRow } from "../signals/mappers.ts";

/**
 * Inside a transaction: queues CLOSE_ALL for every live slave of the tenant (a deleted slave has
 * no key left to fetch it); returns the orders.
 */
export async function queueCloseAll(tx: Db, tenantId: string, now = new Date()): Promise<ExecutionRow[]> {
  const slaves = await tx.select({ id: accounts.id }).from(accounts).where(ofTenant(accounts, tenantId, eq(accounts.role, "SLAVE"), isNull(accounts.deletedAt)));
  if (slaves.length === 0) return [];
  return tx
    .insert(executions)
    .values(slaves.map((s) => ({ tenantId, slaveAccountId: s.id, action: "CLOSE_ALL", status: "pending", createdAt: now })))
    .returning();
}

/**
 * Inside a transaction: queues CLOSE_ALL for the given slaves of the tenant only (protection's
 * `closePositionsOnStop`); ids that are not slaves of the tenant are ignored. Returns the orders
 * (to hand out with publishEffects after commit).
 */
export async function queueCloseAllFor(tx: Db, tenantId: string, slaveIds: string[], now = new Date()): Promise<ExecutionRow[]> {
  if (slaveIds.length === 0) return [];
  const slaves = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(ofTenant(accounts, tenantId, eq(accounts.role, "SLAVE"), inArray(accounts.id, slaveIds), isNull(accounts.deletedAt)));
  if (slaves.length === 0) return [];
  return tx
    .insert(executions)
    .values(slaves.map((s) => ({ tenantId, slaveAccountId: s.id, action: "CLOSE_ALL", status: "pending", createdAt: now })))
    .returning();
}
