/**
 * Orders committed by ANOTHER instance on the same PostgreSQL (realtime/cluster.ts hears of them
 * through a NOTIFY carrying their ids). This instance claims, in one statement, those of them
 * whose slave has a poll parked or a stream open here — tenant-scoped, pending, lease free, not
 * expired, rows locked with SKIP LOCKED exactly like a poll's own claim, so two instances never
 * lease one order twice — and hands each slave its orders (delivery.ts give). Orders whose
 * connection went away meanwhile are released for the EA's next poll.
 */
import { eq, inArray, isNull, lt, not, or, sql } from "drizzle-orm";
import type { SlaveOrder } from "#contract";
import type { Db } from "../../../db/client.ts";
import { accounts, executions } from "../../../db/schema.ts";
import type { AppContext } from "../../../http/context.ts";
import { ofTenant } from "../../../db/scope.ts";
import { expiredUndelivered } from "./expiry.ts";
import { DELIVERY_LEASE_MS } from "./hand-out.ts";
import { toSlaveOrder } from "./order-mapper.ts";
import { claimDeliverable, releaseOrders } from "./slave-delivery.ts";

/** Orders by slave account id, oldest first within each. */
export type OrdersBySlave = Map<string, SlaveOrder[]>;

/**
 * Claims the listed orders of the tenant that belong to `accountIds` and are deliverable now
 * (delivery count + 1, first delivery time, a 10 s lease), grouped by slave, oldest first.
 * `relaxedDb`: see db/relaxed-commit.ts (a lost claim only means a second hand-out, recognised
 * by orderId).
 */
export async function claimListedOrders(relaxedDb: Db, tenantId: string, accountIds: string[], orderIds: string[], now = new Date()): Promise<OrdersBySlave> {
  const bySlave: OrdersBySlave = new Map();
  if (accountIds.length === 0 || orderIds.length === 0) return bySlave;
  const candidates = relaxedDb
    .select({ id: executions.id })
    .from(executions)
    .where(
      ofTenant(
        executions,
        tenantId,
        inArray(executions.id, orderIds),
        inArray(executions.slaveAccountId, accountIds),
        eq(executions.status, "pending"),
        or(isNull(executions.leaseUntil), lt(executions.leaseUntil, now)),
        not(expiredUndelivered(now) ?? sql`false`),
      ),
    )
    .for("update", { skipLocked: true });
  const rows = await relaxedDb
    .update(executions)
    .set({
      deliveryCount: sql`${executions.deliveryCount} + 1`,
      deliveredAt: sql`coalesce(${executions.deliveredAt}, ${now.toISOString()}::timestamptz)`,
      leaseUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
    })
    .where(inArray(executions.id, candidates))
    .returning();
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  for (const r of rows) bySlave.set(r.slaveAccountId, [...(bySlave.get(r.slaveAccountId) ?? []), toSlaveOrder(r)]);
  return bySlave;
}

/** Hands claimed orders to this instance's connections; gives back the leases of those nobody took. */
async function handClaimed(ctx: AppContext, tenantId: string, orders: OrdersBySlave): Promise<void> {
  const untaken: string[] = [];
  for (const [accountId, list] of orders) if (list.length > 0 && !ctx.delivery.give(accountId, list)) untaken.push(...list.map((o) => o.orderId));
  await releaseOrders(ctx.relaxedDb, tenantId, untaken);
}

/**
 * Another instance committed the orders `orderIds` of `tenantId`: claims and hands out those whose
 * slave waits here, after dropping the idle marks of the tenant's accounts. No query at all when
 * nobody waits here.
 */
export async function deliverAnnouncedOrders(ctx: AppContext, tenantId: string, orderIds: string[]): Promise<void> {
  // Whoever they are for, that slave's next poll here must look in the database.
  ctx.delivery.dropTenantIdle(tenantId);
  const waiting = [...ctx.delivery.connectedAccounts()];
  if (waiting.length === 0) return;
  const orders = await claimListedOrders(ctx.relaxedDb, tenantId, waiting, orderIds);
  if (orders.size > 0) await handClaimed(ctx, tenantId, orders);
}

/**
 * Notifications were (or may have been) lost — the LISTEN connection dropped or came back: every
 * parked poll re-checks the database now, and every open stream gets what is deliverable for it.
 * Streams are registered by account id only, so their tenants are looked up here (ids this
 * instance authenticated itself).
 */
export async function recheckEverything(ctx: AppContext): Promise<void> {
  ctx.delivery.wakeAll();
  const streamAccounts = ctx.delivery.streamAccounts();
  if (streamAccounts.length === 0) return;
  const owners = await ctx.db.select({ id: accounts.id, tenantId: accounts.tenantId }).from(accounts).where(inArray(accounts.id, streamAccounts));
  await Promise.all(
    owners.map(async ({ id, tenantId }) => {
      const orders = await claimDeliverable(ctx, tenantId, id, { redeliver: false, limit: 500 });
      if (orders.length > 0) await handClaimed(ctx, tenantId, new Map([[id, orders]]));
    }),
  );
}
