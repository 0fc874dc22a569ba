/**
 * Order pickup for slave EAs (docs/bridge-protocol.md §6.2): claims deliverable orders in the
 * database (pending, lease expired or `redeliver`), or parks the poll until new orders are offered
 * in-process (delivery.ts), announced by another instance (remote-orders.ts) or found by a
 * periodic re-check (the safety net).
 * Delivery is at least once: an order stays pending until reported; a claim only sets a 10 s lease.
 */
import type { SlaveOrder } from "#contract";
import type { Db } from "../../../db/client.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../../db/raw.ts";
import { TickBatcher } from "../../../db/tick-batch.ts";
import { executions } from "../../../db/schema.ts";
import type { AppContext } from "../../../http/context.ts";
import { expireAndPublish } from "../effects.ts";
import { expiredUndeliveredText } from "./expiry.ts";
import type { ExecutionRow } from "../../signals/mappers.ts";
import type { OrderDelivery } from "./delivery.ts";
import { giveBackOrders } from "./give-back.ts";
import { DELIVERY_LEASE_MS } from "./hand-out.ts";
import { toSlaveOrder } from "./order-mapper.ts";

// The orders are locked and picked by a select run ONCE (`id = any(array(…))`, an init plan), then
// updated by id. Written `tenant_id = $1 and id in (select … for update skip locked)`, a planner
// whose statistics were taken while the table was young (every fresh server: the start analyses
// it empty) drove the update from the tenant's orders and ran the locking select once for each of
// them — claims of 15–70 ms on PGlite a few seconds into the fan-out benchmark
// (claim-plans.test.ts). The tenant is filtered in the select: the ids it returns are the tenant's.
const claimText = (redeliver: boolean) => `update executions set delivery_count = delivery_count + 1,
     delivered_at = coalesce(delivered_at, $3::timestamptz), lease_until = $4::timestamptz
   where id = any(array(
     select id from executions
     where tenant_id = $1 and slave_account_id = $2 and status = 'pending'
       ${redeliver ? "" : "and (lease_until is null or lease_until < $3::timestamptz)"}
       and not (${expiredUndeliveredText("$3::timestamptz")})
     order by created_at, id limit $5 for update skip locked))
   returning ${tableColumns(executions)}`;
// Two fixed texts (due / every pending order): each keeps one plan, no `$n or …` in the filter.
const claimDue = rawStatement("delivery_claim_due", claimText(false), tableRow(executions));
const claimAll = rawStatement("delivery_claim_all", claimText(true), tableRow(executions));

/**
 * The claim, plus whether the slave has an order that expired before its first hand-out
 * (expiredUndelivered's condition) and whether it has any pending order at all (none: the account
 * is marked idle, delivery.ts noteIdle), both seen in the statement's snapshot, before the claim:
 * the first claim of a poll asks all three in one round trip. One row with a null id when nothing
 * is claimed.
 */
const claimAndLookText = (redeliver: boolean) => `with claimed as (${claimText(redeliver)})
   select c.*, exists (select 1 from executions x
       where x.tenant_id = $1 and x.slave_account_id = $2 and x.status = 'pending'
         and ${expiredUndeliveredText("$3::timestamptz", "x")}) as "expiredWaiting",
     exists (select 1 from executions y where y.tenant_id = $1 and y.slave_account_id = $2 and y.status = 'pending') as "anyPending"
   from (select 1) as one left join claimed c on true`;
const claimedRow = tableRow(executions);
const lookMap = (r: Record<string, unknown>) => ({ row: r.id == null ? null : claimedRow(r), expiredWaiting: r.expiredWaiting === true, anyPending: r.anyPending === true });
const claimDueAndLook = rawStatement("delivery_claim_due_look", claimAndLookText(false), lookMap);
const claimAllAndLook = rawStatement("delivery_claim_all_look", claimAndLookText(true), lookMap);

/** The claim statements' texts, by name, for claim-plans.test.ts (parameters: claimParams). */
export const claimStatementsForPlans = () => ({
  claimDue: claimDue.text,
  claimAll: claimAll.text,
  claimDueAndLook: claimDueAndLook.text,
  claimAllAndLook: claimAllAndLook.text,
});

const claimParams = (tenantId: string, accountId: string, limit: number, now: Date) => [
  tenantId,
  accountId,
  now.toISOString(),
  new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString(),
  limit,
];
const oldestFirst = (rows: ExecutionRow[]): SlaveOrder[] => rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id)).map(toSlaveOrder);

/**
 * Claims up to `limit` deliverable orders (oldest first) and returns them with their new delivery
 * count. An order that expired before its first hand-out is never claimed (delivery/expiry.ts
 * rejects it; the condition is expiredUndelivered's). One prepared statement. `relaxedDb`: see
 * db/relaxed-commit.ts.
 */
export async function claimOrders(
  db: Db,
  tenantId: string,
  accountId: string,
  opts: { redeliver: boolean; limit: number },
  now = new Date(),
): Promise<SlaveOrder[]> {
  return oldestFirst(await runRaw(db, opts.redeliver ? claimAll : claimDue, claimParams(tenantId, accountId, opts.limit, now)));
}

/** Where a poll claims orders from, and gives back leases it could not hand out. */
export interface OrderSource {
  claim(): Promise<SlaveOrder[]>;
  release(orderIds: string[]): Promise<void>;
  /**
   * Optional: whether a claim would find anything, asked on the periodic re-check instead of
   * claiming. A source with a probe is re-checked on a beat shared by every parked poll (the
   * next multiple of the interval), so their probes join one batched statement.
   */
  probe?: () => Promise<boolean>;
}

interface ProbeItem {
  tenantId: string;
  accountId: string;
  redeliver: boolean;
}

const probeStatement = rawStatement(
  "delivery_probe_parked",
  `select u.tenant_id::text as "tenantId", u.id::text as "accountId" from unnest($1::uuid[], $2::uuid[], $3::boolean[]) as u(tenant_id, id, redeliver)
   where exists (select 1 from executions e
     where e.tenant_id = u.tenant_id and e.slave_account_id = u.id and e.status = 'pending'
       and (u.redeliver or e.lease_until is null or e.lease_until < $4::timestamptz)
       and not (${expiredUndeliveredText("$4::timestamptz", "e")}))`,
  (r) => `${String(r.tenantId)} ${String(r.accountId)}`,
);

/** Which of the parked polls' accounts have a deliverable order: ONE read for every re-check of the turn. */
async function probeBatch(db: Db, items: ProbeItem[], now = new Date()): Promise<boolean[]> {
  const found = new Set(
    await runRaw(db, probeStatement, [items.map((i) => i.tenantId), items.map((i) => i.accountId), items.map((i) => i.redeliver), now.toISOString()]),
  );
  return items.map((i) => found.has(`${i.tenantId} ${i.accountId}`));
}

const probers = new WeakMap<Db, TickBatcher<ProbeItem, boolean>>();

function probeOf(relaxedDb: Db): TickBatcher<ProbeItem, boolean> {
  let b = probers.get(relaxedDb);
  if (!b) {
    b = new TickBatcher((items) => probeBatch(relaxedDb, items));
    probers.set(relaxedDb, b);
  }
  return b;
}

/**
 * Claims the deliverable orders of a slave (marking the account idle when it has no pending order
 * at all, delivery.ts noteIdle) and, when the same statement saw one of its orders that
 * expired before its first hand-out, rejects and publishes those (effects.ts expireAndPublish;
 * the claim never hands expired orders out anyway) before resolving. Used by the poll's first claim, the stream and the orders
 * another instance announced.
 */
export async function claimDeliverable(ctx: AppContext, tenantId: string, accountId: string, opts: { redeliver: boolean; limit: number }, now = new Date()): Promise<SlaveOrder[]> {
  const token = ctx.delivery.idleToken();
  const rows = await runRaw(ctx.relaxedDb, opts.redeliver ? claimAllAndLook : claimDueAndLook, claimParams(tenantId, accountId, opts.limit, now));
  if (!rows.some((r) => r.anyPending)) ctx.delivery.noteIdle(tenantId, accountId, token);
  // A failed expiry only delays the rejection to the next poll.
  if (rows.some((r) => r.expiredWaiting)) await expireAndPublish(ctx, tenantId, accountId).catch((err: unknown) => console.warn("expiring undelivered orders failed:", err));
  return oldestFirst(rows.flatMap((r) => (r.row ? [r.row] : [])));
}

/**
 * The database source of one slave account. The first claim also expires undelivered orders past their lifetime (claimDeliverable);
 * the periodic re-checks probe on the shared beat and claim only what a probe found (expired
 * orders are never claimed). `afterFirstClaim`: called once the first claim settles (the poll
 * route gives its admission slot back there: the wait that may follow is not work).
 */
export const orderSource = (
  ctx: AppContext,
  tenantId: string,
  accountId: string,
  opts: { limit: number; redeliver: boolean },
  afterFirstClaim?: () => void,
): OrderSource => {
  let first = true;
  startIdleSweep(ctx);
  return {
    claim: () => {
      if (!first) return claimOrders(ctx.relaxedDb, tenantId, accountId, opts);
      first = false;
      // Known to have no pending order (not even a leased one to redeliver): park without a statement.
      if (ctx.delivery.isIdle(accountId)) {
        afterFirstClaim?.();
        return Promise.resolve([]);
      }
      return claimDeliverable(ctx, tenantId, accountId, opts).finally(() => afterFirstClaim?.());
    },
    // Then the account's other parked poll, if any, claims them now.
    release: (ids) => giveBackOrders(ctx, tenantId, ids).then(() => ctx.delivery.dropIdle(accountId, true)),
    probe: () => (ctx.delivery.isIdle(accountId) ? Promise.resolve(false) : probeOf(ctx.relaxedDb).add({ tenantId, accountId, redeliver: opts.redeliver })),
  };
};

const idleSweepStatement = rawStatement(
  "delivery_idle_sweep",
  `select u.id::text as "accountId" from unnest($1::uuid[], $2::uuid[]) as u(tenant_id, id)
   where exists (select 1 from executions e where e.tenant_id = u.tenant_id and e.slave_account_id = u.id and e.status = 'pending')`,
  (r) => String(r.accountId),
);

/**
 * The safety net of the idle marks (delivery.ts): ONE read of which marked accounts have a
 * pending order after all (committed but never offered here, e.g. a process that failed between
 * its commit and its hand-out); their marks are dropped and their parked polls re-check at once.
 * Returns the accounts found. Errors: the database's.
 */
export async function sweepIdleMarks(ctx: AppContext): Promise<string[]> {
  const marks = ctx.delivery.idleMarks();
  if (marks.length === 0) return [];
  const found = await runRaw(ctx.relaxedDb, idleSweepStatement, [marks.map((m) => m.tenantId), marks.map((m) => m.accountId)]);
  for (const accountId of found) ctx.delivery.dropIdle(accountId, true);
  return found;
}

const sweeping = new WeakSet<OrderDelivery>();

/** Starts the sweep of `ctx.delivery`'s idle marks (once per registry; every `idleSweepMs`; never keeps the process alive). */
function startIdleSweep(ctx: AppContext): void {
  if (sweeping.has(ctx.delivery)) return;
  sweeping.add(ctx.delivery);
  const next = (): void => {
    setTimeout(() => {
      sweepIdleMarks(ctx)
        .catch((err: unknown) => console.warn("sweeping idle delivery marks failed:", err))
        .finally(next);
    }, ctx.delivery.idleSweepMs).unref();
  };
  next();
}

function mergeOrders(a: SlaveOrder[], b: SlaveOrder[]): SlaveOrder[] {
  const seen = new Set(a.map((o) => o.orderId));
  return [...a, ...b.filter((o) => !seen.has(o.orderId))].sort((x, y) => x.createdAtMs - y.createdAtMs);
}

/**
 * What pollOrders needs of "the client went away": the part of an AbortSignal it uses, so tests
 * may pass one. The poll route passes a ClientGone (below), not an AbortController.
 */
export interface PollAbort {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * "The poll's client went away", as a flag with listeners: an AbortController cost about 4 µs to
 * create (Node 20: an EventTarget and its signal; 3 % of a signed empty poll's CPU in a profile of
 * the cost benchmark's floor), on every poll, for the few whose client leaves. `abort()` sets
 * `aborted` and calls each listener once; listeners added after it are not called (pollOrders
 * reads `aborted` after adding its own).
 */
export class ClientGone implements PollAbort {
  aborted = false;
  private listeners: (() => void)[] | null = null;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = null;
    for (const l of listeners ?? []) l();
  }

  addEventListener(_type: "abort", listener: () => void): void {
    if (!this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const i = this.listeners?.indexOf(listener) ?? -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }
}

/**
 * Long-poll: orders at once when any are deliverable, otherwise the first orders offered within
 * `waitMs` (or [] on timeout or when `aborted` fires). Orders pushed to the poll were recorded as
 * handed out before (by their insert or a claim: delivery.ts). While waiting, the source is
 * claimed again every `recheckMs` (default: the delivery's current interval — 1 s, or the slow
 * safety net while notifications flow) and at once when the delivery wakes the poll (a lost or
 * re-established LISTEN connection); orders pushed while such a claim is in flight are answered
 * at once, and whatever that claim leases afterwards is released for the next poll rather than
 * holding this answer back.
 */
export async function pollOrders(
  delivery: OrderDelivery,
  accountId: string,
  source: OrderSource,
  opts: { waitMs: number },
  aborted: PollAbort,
  recheckMs?: number,
): Promise<SlaveOrder[]> {
  // A wake during the first claim (whose snapshot may predate the commit it announces) is kept
  // and honoured right after it.
  let wokenEarly = false;
  let onWake = () => {
    wokenEarly = true;
  };
  // A client already gone (it gave up while the poll waited for a slot or applied its reports)
  // gets nothing: orders claimed for it would sit leased to nobody until the lease ran out.
  if (aborted.aborted) return [];
  // A client that leaves while this poll claims or waits never reads its answer: the orders it
  // would carry go back at once (the slave's next poll gets them) instead of sitting leased to
  // nobody for the lease (10 s). Found by the overload bench: polls held past the client's
  // timeout. A failed release leaves the lease to run out, as before.
  const handOver = async (orders: SlaveOrder[]): Promise<SlaveOrder[]> => {
    if (!aborted.aborted || orders.length === 0) return orders;
    await source.release(orders.map((o) => o.orderId)).catch(() => undefined);
    return [];
  };
  // Park before looking, so an order committed between the query and the wait is not missed.
  const parked = delivery.park(accountId, () => onWake(), true);
  const claimed = await source.claim();
  if (claimed.length > 0 || opts.waitMs === 0) {
    parked.cancel();
    const pushed = await parked.orders;
    return handOver(mergeOrders(claimed, pushed));
  }
  // Found nothing: the poll waits, and a signal being recorded may be promised to it.
  parked.waiting();
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
        } else schedule();
      });
  };
  // The periodic re-check: with a probe, on the shared beat, and a claim only when the probe finds
  // something (an idle parked poll costs a share of one statement per interval, not a claim).
  const probe = source.probe;
  const timed = (): void => {
    if (stopped || checking || !probe) return check();
    probe().then(
      (any) => (any ? check() : schedule()),
      () => check(),
    );
  };
  function schedule(): void {
    if (stopped) return;
    const every = recheckMs ?? delivery.recheckMs;
    clearTimeout(recheck);
    recheck = setTimeout(timed, probe ? every - (Date.now() % every) : every);
  }
  schedule();
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
  return handOver(mergeOrders(found, pushed));
}
