/**
 * Copy preview (POST /api/copy/preview, docs/bridge-protocol.md §9): what a master event WOULD do
 * — each slave's verdict and order — decided by the same store loaders and domain planners as the
 * real event (store/open-store.ts loadOpenContext + domain planOpen; store/follow-store.ts
 * loadFollowContexts + domain planLegsFollow), inside a transaction that is always rolled back, so nothing is written
 * (no signal claimed, no order, no audit entry).
 *
 * The preview's `confirmToken` is an HMAC (server key, SecretBox.mac) over the tenant id, the
 * event's canonical JSON (idempotencyKey left out: a preview need not have one) and the verdicts
 * (slave, verdict, code, order — not the readable reasons, whose wording carries clock times). A
 * signed master request carrying it as `x-cb-confirm` is refused with 409 `preview_changed` when
 * the preview recomputed at that moment differs (assertPreviewConfirmed).
 */
import { timingSafeEqual } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { PREVIEW_CHANGED_MESSAGE, type CopyPreview, type PreviewSlave, type SignalEvent } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, tenants } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { AppError, conflict, invalidField, notFound } from "../../http/errors.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { findMaster } from "../accounts/queries.ts";
import { planOpen, type OpenPlan } from "./domain/index.ts";
import { claimLeg, planLegsFollow } from "./domain/legs.ts";
import { masterOpenOf } from "./open-signal.ts";
import { legStatesOf, loadFollowContexts, masterFollowOf } from "./store/follow-store.ts";
import { loadActiveLegs, loadOpenContext } from "./store/open-store.ts";

/** Purpose label of the confirm token's derived key (SecretBox.mac). */
const CONFIRM_PURPOSE = "copy-preview-confirm/v1";

/** A previewed event: the wire event, `idempotencyKey` optional. */
export type PreviewEvent = Omit<SignalEvent, "idempotencyKey"> & { idempotencyKey?: string | undefined };

/**
 * Previews `event` for the tenant's master (or `master` when the caller already resolved it, as
 * the bridge does). `now`: the decision time (signal age, trading hours). Writes nothing.
 * Errors: 409 no master account; 409 the ticket of an open is already open; 404 a follow-up
 * without an open signal; 409 a follow-up planFollow refuses (ticket closed, pending change on a
 * market position).
 */
export async function previewCopy(ctx: AppContext, tenantId: string, event: PreviewEvent, now: Date = new Date(), master?: AccountRow): Promise<CopyPreview> {
  const slaves = await rolledBack(ctx.db, async (tx: Db) => {
    const [tenant] = await tx.select({ copyPaused: tenants.copyPaused }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
    const copyPaused = tenant?.copyPaused === true;
    if (event.type === "OPEN" || event.type === "PENDING_OPEN") {
      const owner = master ?? (await findMaster(tx, tenantId));
      if (!owner) throw conflict("No master account: add a master account before previewing a signal");
      return previewOpen(tx, tenantId, owner, event, copyPaused, now);
    }
    return previewFollow(tx, tenantId, event);
  });
  const o = event.order;
  const body: Omit<CopyPreview, "confirmToken"> = {
    event: {
      type: event.type,
      ticket: o.ticket,
      symbol: o.symbol,
      side: o.side,
      orderType: o.orderType,
      volume: o.volume ?? null,
      price: o.price ?? null,
      sl: o.sl,
      tp: o.tp,
    },
    slaves,
  };
  return { ...body, confirmToken: confirmTokenOf(ctx, tenantId, event, slaves) };
}

/** Thrown to end the preview's transaction with a rollback, carrying its result out. */
class RollBack<T> extends Error {
  constructor(readonly value: T) {
    super("preview rolled back");
  }
}

/**
 * Runs `work` in a transaction that is always rolled back: whatever a loader might do, the
 * preview commits nothing. (Not READ ONLY: loadFollowContexts reads `for no key update`, which
 * PostgreSQL refuses in a read-only transaction; the row lock only waits for a signal being written.)
 */
async function rolledBack<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx: Db) => {
      throw new RollBack(await work(tx));
    });
  } catch (err) {
    if (err instanceof RollBack) return err.value as T;
    throw err;
  }
  throw new Error("unreachable: the preview transaction always rolls back");
}

async function previewOpen(tx: Db, tenantId: string, master: AccountRow, event: PreviewEvent, copyPaused: boolean, now: Date): Promise<PreviewSlave[]> {
  assertOpenable(event);
  const open = masterOpenOf(event as SignalEvent);
  // The real event would answer 409 here (claimSignal: domain/legs.ts claimLeg): say so before anyone confirms.
  const claim = claimLeg(await loadActiveLegs(tx, tenantId, open.ticket), { type: open.type, ticket: open.ticket, side: open.side }, master.marginMode === "netting", open.eventTimeMs);
  if (claim.kind === "conflict") throw conflict(claim.message);
  const { master: masterState, slaves } = await loadOpenContext(tx, tenantId, master, open.symbol);
  const names = await namesOf(tx, tenantId, slaves.map((s) => s.accountId));
  return slaves.map((slave) => {
    const plan = planOpen(open, masterState, slave, { copyPaused, nowMs: now.getTime() });
    return previewOfOpenPlan(slave.accountId, names.get(slave.accountId) ?? slave.accountId, open.type, plan);
  });
}

/**
 * The 400s the master route answers for an event that cannot open (open-signal.ts asserts the
 * same before claiming the ticket; repeated here so a preview refuses what a send would refuse).
 */
function assertOpenable(event: PreviewEvent): void {
  const { order } = event;
  if (!order.volume || Number(order.volume) <= 0) throw invalidField("order.volume", "Volume must be greater than 0 to open");
  if (!order.price || Number(order.price) <= 0) throw invalidField("order.price", "Price must be greater than 0 to open");
  if (event.type === "OPEN" && order.orderType !== "MARKET") throw invalidField("order.orderType", "signal/open takes MARKET orders; use signal/pending/open");
  if (event.type === "PENDING_OPEN" && order.orderType === "MARKET") {
    throw invalidField("order.orderType", "signal/pending/open takes LIMIT, STOP or STOP_LIMIT orders");
  }
  if (order.orderType === "STOP_LIMIT" && !order.stopLimitPrice) throw invalidField("order.stopLimitPrice", "STOP_LIMIT orders need stopLimitPrice");
}

/** One slave's line of an open preview, from its planOpen result. */
export function previewOfOpenPlan(slaveAccountId: string, name: string, action: "OPEN" | "PENDING_OPEN", plan: OpenPlan): PreviewSlave {
  if (plan.kind === "skip") return { slaveAccountId, name, verdict: "skipped", reasonCode: plan.code, reason: plan.reason, order: null };
  if (plan.kind === "reject") return { slaveAccountId, name, verdict: "rejected", reasonCode: plan.code, reason: plan.reason, order: null };
  return {
    slaveAccountId,
    name,
    verdict: "queued",
    reasonCode: null,
    reason: null,
    order: {
      action,
      symbol: plan.symbol,
      side: plan.side,
      orderType: plan.orderType,
      volume: plan.volume,
      price: plan.price,
      sl: plan.sl,
      tp: plan.tp,
      expiresAtMs: plan.expiresAtMs,
    },
  };
}

async function previewFollow(tx: Db, tenantId: string, event: PreviewEvent): Promise<PreviewSlave[]> {
  const type = event.type;
  if (type === "OPEN" || type === "PENDING_OPEN") throw new Error(`previewFollow got ${type}`);
  const order = event.order;
  // Inside the rolled-back transaction: its row lock waits for a signal being written, never writes.
  const contexts = await loadFollowContexts(tx, tenantId, order.ticket);
  if (contexts.length === 0) throw notFound(`Open signal for master ticket ${order.ticket}`);
  const follow = masterFollowOf(type, order);
  // Every live leg the event reaches (one for a hedging master's position), as the real event plans it.
  const plan = planLegsFollow(legStatesOf(contexts), follow, event.ts * 1000);
  if (plan.kind === "conflict") throw conflict(plan.message);
  const orders = plan.legs.flatMap((l) => l.plan.orders.map((o) => ({ o, symbol: l.state.symbol })));
  const names = await namesOf(tx, tenantId, orders.map(({ o }) => o.slaveAccountId));
  return orders.map(({ o, symbol }) => ({
    slaveAccountId: o.slaveAccountId,
    name: names.get(o.slaveAccountId) ?? o.slaveAccountId,
    verdict: "queued",
    reasonCode: null,
    reason: null,
    order: {
      action: o.action,
      symbol: o.symbol ?? symbol,
      side: o.side,
      orderType: o.orderType,
      volume: o.volume,
      price: o.price,
      sl: o.sl,
      tp: o.tp,
      expiresAtMs: null,
    },
  }));
}

/** Display names (alias, else account number) of the tenant's accounts `ids`. */
async function namesOf(tx: Db, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: accounts.id, alias: accounts.alias, accountNumber: accounts.accountNumber })
    .from(accounts)
    .where(ofTenant(accounts, tenantId, inArray(accounts.id, ids)));
  return new Map(rows.map((r) => [r.id, r.alias?.trim() ? r.alias : r.accountNumber]));
}

/** JSON with object keys sorted at every level (undefined members dropped, as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The confirm token of a preview: HMAC over [tenant id, the event without its idempotencyKey,
 * the verdicts without their readable reasons]. Two previews share a token exactly when they
 * would queue, skip and reject the same slaves with the same orders.
 */
export function confirmTokenOf(ctx: Pick<AppContext, "secrets">, tenantId: string, event: PreviewEvent, slaves: PreviewSlave[]): string {
  const { idempotencyKey: _ignored, ...rest } = event;
  const verdicts = slaves.map((s) => [s.slaveAccountId, s.verdict, s.reasonCode, s.order]);
  return ctx.secrets.mac(CONFIRM_PURPOSE, canonicalJson([tenantId, rest, verdicts]));
}

/**
 * The check behind `x-cb-confirm` (master signal routes, only when the header is present):
 * recomputes the preview for `master` now and refuses with 409 `preview_changed` unless its token
 * equals `token`. A preview that now fails (ticket already open, no open signal) is a change too.
 */
export async function assertPreviewConfirmed(ctx: AppContext, tenantId: string, master: AccountRow, event: SignalEvent, token: string, now: Date = new Date()): Promise<void> {
  let current: string;
  try {
    current = (await previewCopy(ctx, tenantId, event, now, master)).confirmToken;
  } catch (err) {
    if (err instanceof AppError) throw new AppError("preview_changed", PREVIEW_CHANGED_MESSAGE);
    throw err;
  }
  const a = Buffer.from(current, "utf8");
  const b = Buffer.from(token, "utf8");
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new AppError("preview_changed", PREVIEW_CHANGED_MESSAGE);
}
