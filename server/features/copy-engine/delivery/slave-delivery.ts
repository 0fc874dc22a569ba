/**
 * Order pickup for slave EAs (docs/bridge-protocol.md §6.2): claims deliverable orders in the
 * database (pending, lease expired or `redeliver`), or parks the poll until new orders are offered
 * in-process (delivery.ts), announced by another instance (remote-orders.ts) or found by a
 * periodic re-check (the safety net).
 * Delivery is at least once: an order stays pending until reported; a claim only sets a 10 s lease.
 */
import { and, asc, eq, inArray, isNull, lt, not, or, sql } from "drizzle-orm";
import type { SlaveOrder } from "#contract";
import type { Db } from "../../../db/client.ts";
import { executions } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import type { AppContext } from "../../../http/context.ts";
import { expireAndPublish } from "../effects.ts";
import type { OrderDelivery } from "./delivery.ts";
import { expiredUndelivered } from "./expiry.ts";
import { DELIVERY_LEASE_MS } from "./hand-out.ts";
import { toSlaveOrder } from "./order-mapper.ts";

/**
 * Claims up to `limit` deliverable orders (oldest first) and returns them with their new delivery
 * count. An order that expired before its first hand-out is never claimed (delivery/expiry.ts
 * rejects it). `relaxedDb`: see db/relaxed-commit.ts.
 */
export async function claimOrders(
  db: Db,
  tenantId: string,
  accountId: string,
  opts: { redeliver: boolean; limit: number },
  now = new Date(),
): Promise<SlaveOrder[]> {
  const due = opts.redeliver ? undefined : or(isNull(executions.leaseUntil), lt(executions.leaseUntil, now));
  const candidates = db
    .select({ id: executions.id })
    .from(executions)
    .where(ofTenant(executions, tenantId, and(eq(executions.slaveAccountId, accountId), eq(executions.status, "pending"), due, not(expiredUndelivered(now) ?? sql`false`))))
    .orderBy(asc(executions.createdAt), asc(executions.id))
    .limit(opts.limit)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(executions)
    .set({
      deliveryCount: sql`${executions.deliveryCount} + 1`,
      deliveredAt: sql`coalesce(${executions.deliveredAt}, ${now.toISOString()}::timestamptz)`,
      leaseUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
    })
    .where(inArray(executions.id, candidates))
    .returning();
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id)).map(toSlaveOrder);
}

/**
 * Gives back leases taken by a claim whose poll had already been answered: the orders become
 * claimable at once (the EA's next poll) instead of after the 10 s lease.
 */
export async function releaseOrders(relaxedDb: Db, tenantId: string, orderIds: string[]): Promise<void> {
  if (orderIds.length === 0) return;
  await relaxedDb
    .update(executions)
    .set({ deliveryCount: sql`greatest(${executions.deliveryCount} - 1, 0)`, leaseUntil: null })
    .where(ofTenant(executions, tenantId, inArray(executions.id, orderIds), eq(executions.status, "pending")));
}

/** Where a poll claims orders from, and gives back leases it could not hand out. */
export interface OrderSource {
  claim(): Promise<SlaveOrder[]>;
  release(orderIds: string[]): Promise<void>;
}

/**
 * Claims the deliverable orders of a slave and, alongside, rejects and publishes its orders that
 * expired before their first hand-out (effects.ts expireAndPublish, which waits for the account's
 * in-memory hand-out records first; the claim never hands expired orders out anyway). Resolves
 * once both are done. Used by the poll's first claim and by the stream.
 */
export async function claimDeliverable(ctx: AppContext, tenantId: string, accountId: string, opts: { redeliver: boolean; limit: number }): Promise<SlaveOrder[]> {
  // Side by side: the claim never takes an expired order, so it need not wait for the expiry; a
  // failed expiry only delays the rejection to the next poll.
  const [orders] = await Promise.all([
    claimOrders(ctx.relaxedDb, tenantId, accountId, opts),
    expireAndPublish(ctx, tenantId, accountId).catch((err: unknown) => console.warn("expiring undelivered orders failed:", err)),
  ]);
  return orders;
}

/**
 * The database source of one slave account; a claim first waits for that account's hand-out
 * records. The first claim also expires undelivered orders past their lifetime (claimDeliverable);
 * the periodic re-checks only claim (expired orders are never claimed).
 */
export const orderSource = (ctx: AppContext, tenantId: string, accountId: string, opts: { limit: number; redeliver: boolean }): OrderSource => {
  let first = true;
  return {
    claim: () => {
      const expire = first;
      first = false;
      return ctx.delivery.recorded(accountId).then(() => (expire ? claimDeliverable(ctx, tenantId, accountId, opts) : claimOrders(ctx.relaxedDb, tenantId, accountId, opts)));
    },
    release: (ids) => releaseOrders(ctx.relaxedDb, tenantId, ids),
  };
};

function mergeOrders(a: SlaveOrder[], b: SlaveOrder[]): SlaveOrder[] {
  const seen = new Set(a.map((o) => o.orderId));
  return [...a, ...b.filter((o) => !seen.has(o.orderId))].sort((x, y) => x.createdAtMs - y.createdAtMs);
}

/**
 * Long-poll: orders at once when any are deliverable, otherwise the first orders offered within
 * `waitMs` (or [] on timeout or when `aborted` fires). Orders taken from memory are recorded as
 * handed out by delivery.ts handOut; orders another instance announced are claimed for this poll
 * by remote-orders.ts. While waiting, the source is claimed again every `recheckMs` (default: the
 * delivery's current interval — 1 s, or the slow safety net while notifications flow) and at once
 * when the delivery wakes the poll (a lost or re-established LISTEN connection); orders pushed
 * while such a claim is in flight are answered at once, and whatever that claim leases
 * afterwards is released for the next poll rather than holding this answer back.
 */
export async function pollOrders(
  delivery: OrderDelivery,
  accountId: string,
  source: OrderSource,
  opts: { waitMs: number },
  aborted: AbortSignal,
  recheckMs?: number,
): Promise<SlaveOrder[]> {
  // A wake during the first claim (whose snapshot may predate the commit it announces) is kept
  // and honoured right after it.
  let wokenEarly = false;
  let onWake = () => {
    wokenEarly = true;
  };
  // Park before looking, so an order committed between the query and the wait is not missed.
  const parked = delivery.park(accountId, () => onWake());
  const claimed = await source.claim();
  if (claimed.length > 0 || opts.waitMs === 0) {
    parked.cancel();
    const pushed = await parked.orders;
    return mergeOrders(claimed, pushed);
  }
  const abort = () => parked.cancel();
  aborted.addEventListener("abort", abort, { once: true });
  // Aborted while the first claim ran (the listener was not there yet): answer at once.
  if (aborted.aborted) parked.cancel();
  const timer = setTimeout(() => parked.cancel(), opts.waitMs);
  let found: SlaveOrder[] = [];
  let answered = false;
  let stopped = false;
  let again = false;
  let checking: Promise<void> | null = null;
  let recheck: NodeJS.Timeout | undefined;
  const check = (): void => {
    if (stopped) return;
    // A wake while a claim runs: that claim may have looked before the commit; claim once more after it.
    if (checking) {
      again = true;
      return;
    }
    clearTimeout(recheck);
    checking = source
      .claim()
      .then(async (o) => {
        if (o.length === 0) return;
        if (answered) return source.release(o.map((x) => x.orderId));
        found = mergeOrders(found, o);
        parked.cancel();
      })
      .catch(() => undefined)
      .finally(() => {
        checking = null;
        if (stopped) return;
        if (again) {
          again = false;
          check();
        } else recheck = setTimeout(check, recheckMs ?? delivery.recheckMs);
      });
  };
  recheck = setTimeout(check, recheckMs ?? delivery.recheckMs);
  onWake = check;
  if (wokenEarly) check();
  const pushed = await parked.orders;
  stopped = true;
  clearTimeout(timer);
  clearTimeout(recheck);
  aborted.removeEventListener("abort", abort);
  // Nothing pushed (timeout, abort, or a recheck found orders): a claim in flight may have leased
  // orders, which go out with this answer. (TypeScript cannot see the callbacks assign `checking`.)
  const inFlight = checking as Promise<void> | null;
  if (pushed.length === 0 && inFlight) await inFlight;
  answered = true;
  return mergeOrders(found, pushed);
}
