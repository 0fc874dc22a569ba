/**
 * A master OPEN or PENDING_OPEN: claim the ticket's leg (a new signal; domain/legs.ts), load every slave's state
 * (store/open-store.ts), decide each slave's copy (domain planOpen), and build the rows the outbox
 * write records (store/record-event.ts, run by process-signal.ts):
 * - `order` → a pending execution with the plan's side, type, SL/TP, volume, requested volume,
 *   expiry (`expires_at`) and whether default symbol specs were used (`default_spec`);
 * - `reject` → a rejected execution with `reason_code` and the reason as its error message, and a
 *   warning audit entry;
 * - `skip` → a `skipped` execution (never delivered; `reason_code`, the reason as its error
 *   message, reported at once); no audit entry of its own (one per slave on every signal would
 *   bury the log): the master's audit entry lists it in `metadata.skips`
 *   ({ accountId, code, reasonCode, reason }) and counts it in `skippedSlaves`.
 * So every slave gets exactly ONE opening execution per signal — its verdict (a partial unique
 * index on (signal, slave) for OPEN / PENDING_OPEN holds it).
 */
import type { Origin, SignalEvent } from "#contract";
import type { Db } from "../../db/client.ts";
import { invalidField } from "../../http/errors.ts";
import type { AuditEntry } from "../audit/write-audit-log.ts";
import { copyComment, planOpen, type MasterOpen } from "./domain/index.ts";
import type { EventPlan, SignalEventInput } from "./event-plan.ts";
import { claimSignal, loadOpenContext } from "./store/open-store.ts";
import type { NewExecution } from "./store/record-event.ts";


/**
 * The wire event as the domain's master open; `eventTimeMs` = the master's event time (`ts` ×
 * 1000); `origin` `snapshot`: found in a master snapshot (planOpen then says "opened while
 * disconnected" for one past its lifetime).
 */
export function masterOpenOf(event: SignalEvent, origin: Origin = "signal"): MasterOpen {
  const order = event.order;
  return {
    type: event.type === "OPEN" ? "OPEN" : "PENDING_OPEN",
    ticket: order.ticket,
    symbol: order.symbol,
    side: order.side,
    orderType: order.orderType,
    volume: order.volume as string,
    price: order.price as string,
    stopLimitPrice: order.stopLimitPrice ?? null,
    sl: order.sl,
    tp: order.tp,
    magic: event.master.magic ?? null,
    eventTimeMs: event.ts * 1000,
    origin: origin === "snapshot" ? "snapshot" : "signal",
  };
}

/**
 * Plans a master open inside processSignalEvent's transaction. Errors: 400 for an event that
 * cannot open (volume/price ≤ 0, wrong order type for the route); 409 when the ticket is open.
 */
export async function openSignal(tx: Db, input: SignalEventInput): Promise<EventPlan> {
  const { event, tenantId, master, receivedAt, eventId } = input;
  const origin = input.origin ?? "signal";
  assertOpenable(event);
  const open = masterOpenOf(event, origin);

  // Load: the leg's claim and the slaves' states leave together (one round trip on PostgreSQL,
  // behind the tenant's lock); the states do not depend on the new signal row. In a batch the
  // states are read once the previous event has counted its opens into them (its record may
  // still be answering when this claim leaves: signal-batcher.ts).
  const [signal, { master: masterState, slaves }, copyPaused] = await Promise.all([
    claimSignal(tx, tenantId, master, event, receivedAt, origin, input.openOnly === true),
    (input.afterPrevious ?? Promise.resolve()).then(() => loadOpenContext(tx, tenantId, master, open.symbol, input.slaveStates)),
    input.copyPaused,
  ]);

  // Decide and shape the rows.
  const rows: NewExecution[] = [];
  const audits: AuditEntry[] = [];
  const clamps: { accountId: string; requested: string; volume: string }[] = [];
  const skips: { accountId: string; code: string; reasonCode: string; reason: string }[] = [];
  for (const slave of slaves) {
    const plan = planOpen(open, masterState, slave, { copyPaused, nowMs: receivedAt.getTime() });
    const base = {
      tenantId,
      signalId: signal.id,
      eventId,
      slaveAccountId: slave.accountId,
      action: open.type,
      masterTicket: open.ticket,
      // A skip decides before the mapping: the slave's symbol as it would have been.
      symbol: plan.kind === "skip" ? (slave.mapping?.slaveSymbol ?? open.symbol) : plan.symbol,
      price: open.price,
      stopLimitPrice: open.stopLimitPrice,
      comment: copyComment(open.ticket, signal.leg),
      magic: open.magic,
      origin,
      createdAt: receivedAt,
    };
    if (plan.kind === "skip") {
      skips.push({ accountId: slave.accountId, code: plan.code, reasonCode: plan.code, reason: plan.reason });
      // The master's order as it was, no volume: nothing was sized for a copy left out.
      rows.push({
        ...base,
        side: open.side,
        orderType: open.orderType,
        sl: open.sl,
        tp: open.tp,
        status: "skipped",
        volume: null,
        requestedVolume: null,
        errorMessage: plan.reason,
        reasonCode: plan.code,
        expiresAt: null,
        defaultSpec: false,
        reportedAt: receivedAt,
      });
      continue;
    }
    if (plan.kind === "reject") {
      rows.push({
        ...base,
        side: open.side,
        orderType: open.orderType,
        sl: open.sl,
        tp: open.tp,
        status: "rejected",
        volume: plan.volume,
        requestedVolume: plan.volume,
        errorMessage: plan.reason,
        reasonCode: plan.code,
        expiresAt: null,
        defaultSpec: false,
        reportedAt: receivedAt,
      });
      audits.push({
        tenantId,
        level: "warning",
        category: "trade",
        source: "copy-engine",
        message: `Copy of ${open.side} ${open.symbol} (ticket ${open.ticket}) blocked: ${plan.reason}`,
        accountId: slave.accountId,
        signalId: signal.id,
        metadata: { reason: plan.reason, code: plan.code, reasonCode: plan.code, symbol: plan.symbol, volume: plan.volume },
      });
      continue;
    }
    if (plan.clamped) clamps.push({ accountId: slave.accountId, requested: plan.requestedVolume, volume: plan.volume });
    rows.push({
      ...base,
      side: plan.side,
      orderType: plan.orderType,
      sl: plan.sl,
      tp: plan.tp,
      price: plan.price,
      stopLimitPrice: plan.stopLimitPrice,
      status: "pending",
      volume: plan.volume,
      requestedVolume: plan.requestedVolume,
      maxSpreadPts: plan.maxSpreadPts,
      maxDeviationPts: plan.maxDeviationPts,
      expiresAt: new Date(plan.expiresAtMs),
      defaultSpec: plan.defaultSpec,
    });
  }
  const pending = rows.filter((r) => r.status === "pending").length;
  const rejected = rows.filter((r) => r.status === "rejected").length;
  audits.unshift({
    tenantId,
    category: "trade",
    source: "bridge",
    message: `Master ${event.type} ${open.side} ${open.volume} ${open.symbol} @ ${open.price} (ticket ${open.ticket}${signal.leg > 0 ? `, leg ${signal.leg}` : ""}): ${pending} order(s) queued, ${rejected} blocked${skips.length > 0 ? `, ${skips.length} skipped` : ""}${origin === "snapshot" ? " (from snapshot)" : ""}`,
    accountId: master.id,
    signalId: signal.id,
    metadata: {
      eventId,
      externalId: event.id,
      orderType: open.orderType,
      sl: open.sl,
      tp: open.tp,
      clamps,
      skippedSlaves: skips.length,
      skips,
      ...(signal.leg > 0 ? { leg: signal.leg } : {}),
      ...(origin !== "signal" ? { origin } : {}),
    },
  });
  return { signal, newSignal: true, executions: rows, audits, endsWhenDone: false, signalChanges: null };
}

function assertOpenable(event: SignalEvent): void {
  const { order } = event;
  if (!order.volume || Number(order.volume) <= 0) throw invalidField("order.volume", "Volume must be greater than 0 to open");
  if (!order.price || Number(order.price) <= 0) throw invalidField("order.price", "Price must be greater than 0 to open");
  if (event.type === "OPEN" && order.orderType !== "MARKET") throw invalidField("order.orderType", "signal/open takes MARKET orders; use signal/pending/open");
  if (event.type === "PENDING_OPEN" && order.orderType === "MARKET") {
    throw invalidField("order.orderType", "signal/pending/open takes LIMIT, STOP or STOP_LIMIT orders");
  }
  if (order.orderType === "STOP_LIMIT" && !order.stopLimitPrice) throw invalidField("order.stopLimitPrice", "STOP_LIMIT orders need stopLimitPrice");
}
