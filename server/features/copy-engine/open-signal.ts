/**
 * A master OPEN or PENDING_OPEN: a new signal for the ticket and, for every slave, an order or a
 * rejected execution (decideOpen). Runs inside processSignalEvent's transaction, which records
 * the plan (record-event.ts).
 */
import type { SignalEvent } from "#contract";
import type { Db } from "../../db/client.ts";
import { signals } from "../../db/schema.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { conflict, invalidField } from "../../http/errors.ts";
import type { AuditEntry } from "../audit/write-audit-log.ts";
import type { SignalRow } from "../signals/mappers.ts";
import { decideOpen } from "./rules.ts";
import { loadSlaveStates } from "./slave-states.ts";
import type { EventPlan, SignalEventInput } from "./process-signal.ts";
import type { NewExecution } from "./record-event.ts";

/** Comment every copied order carries, so an EA can find a copy by its master ticket. */
export const copyComment = (masterTicket: string) => `cb:${masterTicket}`.slice(0, 31);

export async function openSignal(tx: Db, input: SignalEventInput): Promise<EventPlan> {
  const { event, tenantId, master, copyPaused, receivedAt, eventId } = input;
  const order = event.order;
  assertOpenable(event);
  const volume = order.volume as string;
  const price = order.price as string;

  // The partial unique index on live tickets answers "already open" without an extra query.
  const [signal] = await tx
    .insert(signals)
    .values({
      tenantId,
      masterAccountId: master.id,
      masterTicket: order.ticket,
      symbol: order.symbol,
      side: order.side,
      orderType: order.orderType,
      volume,
      openVolume: volume,
      price,
      stopLimitPrice: order.stopLimitPrice ?? null,
      sl: order.sl,
      tp: order.tp,
      comment: order.comment ?? null,
      magic: event.master.magic ?? null,
      openedAt: new Date(event.ts * 1000),
      createdAt: receivedAt,
    })
    .returning()
    .catch((err: unknown) => {
      if (isUniqueViolation(err, "signals_tenant_active_ticket_key")) throw conflict(`Master ticket ${order.ticket} is already open`);
      throw err;
    });
  if (!signal) throw new Error("signal insert returned nothing");

  const states = await loadSlaveStates(tx, tenantId, order.symbol, receivedAt.toISOString().slice(0, 10));
  const action = event.type === "OPEN" ? "OPEN" : "PENDING_OPEN";
  const rows: NewExecution[] = [];
  const audits: AuditEntry[] = [];
  const clamps: { accountId: string; requested: string; volume: string }[] = [];
  for (const slave of states) {
    const d = decideOpen({ symbol: order.symbol, volume, copyPaused }, slave);
    if (d.kind === "skip") continue;
    const base = {
      tenantId,
      signalId: signal.id,
      eventId,
      slaveAccountId: slave.accountId,
      action,
      masterTicket: order.ticket,
      symbol: d.symbol,
      side: order.side,
      orderType: order.orderType,
      price,
      stopLimitPrice: order.stopLimitPrice ?? null,
      sl: order.sl,
      tp: order.tp,
      comment: copyComment(order.ticket),
      magic: event.master.magic ?? null,
      createdAt: receivedAt,
    };
    if (d.kind === "reject") {
      rows.push({ ...base, status: "rejected", volume: d.volume, requestedVolume: d.volume, errorMessage: d.reason, reportedAt: receivedAt });
      audits.push({
        tenantId,
        level: "warning",
        category: "trade",
        source: "copy-engine",
        message: `Copy of ${order.side} ${order.symbol} (ticket ${order.ticket}) blocked: ${d.reason}`,
        accountId: slave.accountId,
        signalId: signal.id,
        metadata: { reason: d.reason, symbol: d.symbol, volume: d.volume },
      });
      continue;
    }
    if (d.clamped) clamps.push({ accountId: slave.accountId, requested: d.requestedVolume, volume: d.volume });
    rows.push({
      ...base,
      status: "pending",
      volume: d.volume,
      requestedVolume: d.requestedVolume,
      maxSpreadPts: d.maxSpreadPts,
      maxDeviationPts: d.maxDeviationPts,
    });
  }
  const pending = rows.filter((r) => r.status === "pending").length;
  const rejected = rows.length - pending;
  audits.unshift({
    tenantId,
    category: "trade",
    source: "bridge",
    message: `Master ${event.type} ${order.side} ${volume} ${order.symbol} @ ${price} (ticket ${order.ticket}): ${pending} order(s) queued, ${rejected} blocked`,
    accountId: master.id,
    signalId: signal.id,
    metadata: { eventId, externalId: event.id, orderType: order.orderType, sl: order.sl, tp: order.tp, clamps, skippedSlaves: states.length - rows.length },
  });
  return { signal, newSignal: true, executions: rows, audits, endsWhenDone: false };
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

export type { SignalRow };
