/**
 * Recording a hand-out before the EA has the order, and handing new orders out (delivery.ts).
 * A slave whose poll is parked (or whose stream is open) here when the signal is recorded, that
 * poll not promised to another signal yet (delivery.ts reserveWaiter), gets its order the moment
 * the transaction commits; the insert writes that hand-out itself (offeredAtInsert: delivery
 * count 1, first delivery time, a lease), so it is durable with the order, under the tenant's
 * signal lock, before any EA sees it — no statement follows the commit,
 * and an emergency pause on any instance (which takes the same lock) finds the order handed out
 * and keeps it. Other new orders are claimed in the database for the connections here, or
 * announced to the other instances (deliverNewOrders; remote-orders.ts claims them there). A claim
 * is one statement — tenant-scoped, pending, lease free, not expired, rows locked with SKIP LOCKED
 * exactly like a poll's own claim, so two instances never lease one order twice. Orders whose
 * connection went away meanwhile are released for the EA's next poll.
 */
import type { SlaveOrder } from "#contract";
import type { Db } from "../../../db/client.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../../db/raw.ts";
import { executions } from "../../../db/schema.ts";
import type { AppContext } from "../../../http/context.ts";
import { expiredUndeliveredText } from "./expiry.ts";
import { giveBackOrders } from "./give-back.ts";
import { toSlaveOrder } from "./order-mapper.ts";
import type { NewExecution } from "../store/record-event.ts";

/** How long a handed-out order is not handed out again (unless the EA asks to redeliver), ms. */
export const DELIVERY_LEASE_MS = 10_000;

/**
 * The rows to insert, with the hand-out written into the pending orders of every slave for which
 * `promised` holds (delivery.ts reserveWaiter: asked once per slave, on its first pending order
 * whose lifetime has not already ended — `expiresAt` ≤ `now`: delivery/expiry.ts rejects it
 * instead). Other rows are returned as they are; the array is the same when nothing changes.
 * `now`: the hand-out time (delivered_at), the lease runs DELIVERY_LEASE_MS from it.
 */
export function offeredAtInsert(rows: NewExecution[], promised: (slaveAccountId: string) => boolean, now: Date): NewExecution[] {
  let out: NewExecution[] | null = null;
  const asked = new Map<string, boolean>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.status !== "pending" || (r.deliveryCount ?? 0) !== 0) continue;
    if (r.expiresAt && r.expiresAt.getTime() <= now.getTime()) continue;
    let yes = asked.get(r.slaveAccountId);
    if (yes === undefined) {
      yes = promised(r.slaveAccountId);
      asked.set(r.slaveAccountId, yes);
    }
    if (!yes) continue;
    out ??= rows.slice();
    out[i] = { ...r, deliveryCount: 1, deliveredAt: now, leaseUntil: new Date(now.getTime() + DELIVERY_LEASE_MS) };
  }
  return out ?? rows;
}

/** Orders by slave account id, oldest first within each. */
export type OrdersBySlave = Map<string, SlaveOrder[]>;

/**
 * The claim of listed orders (claimListedOrders): fixed text, sent unnamed like the poll's own
 * claim (slave-delivery.ts; db/raw.ts: planned with each call's values — a named statement's
 * generic plan, made while `executions` was young, may scan the table). The tenant is filtered
 * inside: with `tenant_id` on the outer update as well, the 2-instance p99 of the `instances`
 * bench went from about 40 to 180–190 ms in three runs out of three. The cause, found on
 * 2026-11-30 (claim-plans.test.ts): on a table analysed while young the planner drove the update
 * from the tenant's orders and ran the locking select once for each of them (EXPLAIN on a grown
 * table, with fresh statistics, had shown the same plan for both forms). $1 tenant, $2 order ids,
 * $3 slave account ids, $4 now, $5 the lease's end.
 */
const claimListed = rawStatement(
  "delivery_claim_listed",
  `update executions set delivery_count = delivery_count + 1,
     delivered_at = coalesce(delivered_at, $4::timestamptz), lease_until = $5::timestamptz
   where id in (
     select id from executions
     where tenant_id = $1::uuid and id = any($2::uuid[]) and slave_account_id = any($3::uuid[]) and status = 'pending'
       and (lease_until is null or lease_until < $4::timestamptz)
       and not (${expiredUndeliveredText("$4::timestamptz")})
     for update skip locked)
   returning ${tableColumns(executions)}`,
  tableRow(executions),
);

/** claimListed's text, for claim-plans.test.ts. */
export const claimListedStatementForPlans = (): string => claimListed.text;

/**
 * Claims the listed orders of the tenant that belong to `accountIds` and are deliverable now
 * (delivery count + 1, first delivery time, a 10 s lease), grouped by slave, oldest first. One
 * statement (claimListed). `relaxedDb`: see db/relaxed-commit.ts (a lost claim only means a
 * second hand-out, recognised by orderId).
 */
export async function claimListedOrders(relaxedDb: Db, tenantId: string, accountIds: string[], orderIds: string[], now = new Date()): Promise<OrdersBySlave> {
  const bySlave: OrdersBySlave = new Map();
  if (accountIds.length === 0 || orderIds.length === 0) return bySlave;
  const rows = await runRaw(relaxedDb, claimListed, [tenantId, orderIds, accountIds, now.toISOString(), new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString()]);
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  for (const r of rows) bySlave.set(r.slaveAccountId, [...(bySlave.get(r.slaveAccountId) ?? []), toSlaveOrder(r)]);
  return bySlave;
}

/**
 * Hands claimed (or insert-recorded) orders to this instance's connections; gives back the
 * leases of those nobody took and wakes the accounts' other parked polls, if any. Returns the ids
 * given back.
 */
export async function handClaimed(ctx: AppContext, tenantId: string, orders: OrdersBySlave): Promise<string[]> {
  const untaken: string[] = [];
  const accounts: string[] = [];
  for (const [accountId, list] of orders) {
    if (list.length === 0 || ctx.delivery.give(accountId, list)) continue;
    untaken.push(...list.map((o) => o.orderId));
    accounts.push(accountId);
  }
  if (untaken.length === 0) return untaken;
  await giveBackOrders(ctx, tenantId, untaken);
  for (const accountId of accounts) ctx.delivery.dropIdle(accountId, true);
  return untaken;
}

/**
 * A claim of an account's new orders still in flight (deliverNewOrders): `extra`, the orders
 * recorded by their insert meanwhile, go out with what it claims; `done` settles once it has
 * given (or failed).
 */
interface ClaimInFlight {
  extra: SlaveOrder[];
  done: Promise<void>;
}

/** Per delivery registry: per account, its latest claim in flight. */
const claimsInFlight = new WeakMap<object, Map<string, ClaimInFlight>>();

/**
 * Hands the orders a transaction here just committed (effects.ts publishEffects), every one
 * recorded as handed out before an EA gets it: `recorded` — written handed out by their own
 * insert (offeredAtInsert) — are given to their connections at once, in the same turn of the
 * event loop as the commit; `fresh` (order ids by slave, inserted undelivered) are claimed in the
 * database for the slaves waiting here (a poll parked while the transaction ran, or promised to
 * another signal; a stream), then given; a poll still in its first claim is woken to claim again.
 * Whatever no connection here takes is announced to the other instances (after its lease is given
 * back, when it had one). A slave's orders keep their commit order: while a claim of its earlier
 * orders is in flight, its recorded orders go out with that claim's and its next claim starts
 * after it — an EA never gets a follow-up before the open it follows. Errors: the database's (a
 * failed claim leaves the orders to the next poll).
 */
export async function deliverNewOrders(ctx: AppContext, tenantId: string, recorded: OrdersBySlave, fresh: Map<string, string[]>): Promise<void> {
  let inFlight = claimsInFlight.get(ctx.delivery);
  if (!inFlight) {
    inFlight = new Map();
    claimsInFlight.set(ctx.delivery, inFlight);
  }
  const now: OrdersBySlave = new Map();
  for (const [accountId, list] of recorded) {
    const pending = inFlight.get(accountId);
    if (pending) pending.extra.push(...list);
    else now.set(accountId, list);
  }
  // Given before anything else is done (the latency-critical part; handClaimed gives synchronously).
  const work: Promise<string[]>[] = [now.size > 0 ? handClaimed(ctx, tenantId, now) : Promise.resolve([])];
  const untaken: string[] = [];
  // Accounts with no claim in flight share one claim; the others each wait for theirs.
  const together = new Map<string, string[]>();
  for (const [accountId, ids] of fresh) {
    // Whether taken here or not, the account has pending orders (delivery.ts `tracked`).
    ctx.delivery.noteOrders(accountId, ids);
    if (!ctx.delivery.isWaiting(accountId)) {
      untaken.push(...ids);
      // A poll whose first claim is under way claims again right after it, unless that claim
      // found orders (it then answers with those; these go to the slave's next poll).
      if (ctx.delivery.isConnected(accountId)) ctx.delivery.dropIdle(accountId, true);
    } else if (inFlight.has(accountId)) work.push(claimAndGive(ctx, inFlight, tenantId, new Map([[accountId, ids]]), inFlight.get(accountId)!.done));
    else together.set(accountId, ids);
  }
  if (together.size > 0) work.push(claimAndGive(ctx, inFlight, tenantId, together, Promise.resolve()));
  if (untaken.length > 0) ctx.delivery.announce?.(tenantId, untaken);
  const released = (await Promise.all(work)).flat();
  if (released.length > 0) ctx.delivery.announce?.(tenantId, released);
}

/**
 * Claims `byAccount`'s orders once `after` settles, then gives them, each account's with the
 * recorded orders that joined its claim meanwhile (oldest first); registered as each account's
 * latest claim in flight until it has given. Returns the ids given back.
 */
function claimAndGive(ctx: AppContext, inFlight: Map<string, ClaimInFlight>, tenantId: string, byAccount: Map<string, string[]>, after: Promise<void>): Promise<string[]> {
  const entries = new Map<string, ClaimInFlight>();
  const result = after.then(async () => {
    let claimed: OrdersBySlave;
    try {
      claimed = await claimListedOrders(ctx.relaxedDb, tenantId, [...byAccount.keys()], [...byAccount.values()].flat());
    } catch (err) {
      // The undelivered orders stay for the slave's next poll; the recorded ones still go out.
      console.warn("claiming new orders failed:", err);
      claimed = new Map();
    }
    for (const [accountId, entry] of entries) {
      if (inFlight.get(accountId) === entry) inFlight.delete(accountId);
      if (entry.extra.length > 0) claimed.set(accountId, [...(claimed.get(accountId) ?? []), ...entry.extra].sort((x, y) => x.createdAtMs - y.createdAtMs));
    }
    return handClaimed(ctx, tenantId, claimed);
  });
  const done = result.then(
    () => undefined,
    () => undefined,
  );
  for (const accountId of byAccount.keys()) {
    const entry: ClaimInFlight = { extra: [], done };
    entries.set(accountId, entry);
    inFlight.set(accountId, entry);
  }
  return result;
}
