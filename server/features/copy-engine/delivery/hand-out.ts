/**
 * Recording in-memory hand-outs (delivery.ts handOut) in the database: the delivery count, the
 * first delivery time and a lease. Kept apart from slave-delivery.ts so effects publishing can use
 * it without importing the poll (which publishes effects itself).
 */
import { inArray, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { executions } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import type { HandOutRecorder } from "./delivery.ts";

/** How long a handed-out order is not handed out again (unless the EA asks to redeliver), ms. */
export const DELIVERY_LEASE_MS = 10_000;

/**
 * Records, in one statement, the hand-out of orders offered in memory (delivery.ts handOut):
 * delivery count + 1, first delivery time, a lease. `relaxedDb`: a lost write only means the
 * order is handed out again, which the EA recognises by its orderId.
 */
export async function markOffered(relaxedDb: Db, tenantId: string, orderIds: string[], now = new Date()): Promise<void> {
  if (orderIds.length === 0) return;
  await relaxedDb
    .update(executions)
    .set({
      deliveryCount: sql`${executions.deliveryCount} + 1`,
      deliveredAt: sql`coalesce(${executions.deliveredAt}, ${now.toISOString()}::timestamptz)`,
      leaseUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
    })
    .where(ofTenant(executions, tenantId, inArray(executions.id, orderIds), eq(executions.status, "pending")));
}

/** The recorder handOut() uses for a tenant's orders. */
export const handOutRecorder =
  (relaxedDb: Db, tenantId: string): HandOutRecorder =>
  (ids) =>
    markOffered(relaxedDb, tenantId, ids);

