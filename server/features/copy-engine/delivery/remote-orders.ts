/**
 * Orders committed by ANOTHER instance on the same PostgreSQL (realtime/cluster.ts hears of them
 * through a NOTIFY carrying their ids): this instance claims those of them whose slave has a poll
 * parked or a stream open here and hands each slave its orders (hand-out.ts claimListedOrders,
 * handClaimed: recorded before the EA gets them). Orders whose connection went away meanwhile are
 * released for the EA's next poll.
 */
import { inArray } from "drizzle-orm";
import { accounts } from "../../../db/schema.ts";
import type { AppContext } from "../../../http/context.ts";
import { claimListedOrders, handClaimed } from "./hand-out.ts";
import { claimDeliverable } from "./slave-delivery.ts";

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
