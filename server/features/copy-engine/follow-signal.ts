/**
 * Where a master modify, close, pending modify or cancel reaches the slaves: one order per slave
 * that holds a copy of the ticket, acting on the mapped slave ticket. Never blocked by limits or
 * pauses (a copied position must not be orphaned). A partial close closes the same fraction on
 * each slave (rules.slaveCloseVolume). Runs inside processSignalEvent's transaction.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { executions, positionLinks, signals } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { conflict, notFound } from "../../http/errors.ts";
import { copyComment } from "./open-signal.ts";
import type { EventPlan, SignalEventInput } from "./process-signal.ts";
import { closeFraction, remainingVolume, slaveCloseVolume } from "./rules.ts";

interface Target {
  slaveAccountId: string;
  symbol: string | null;
  slaveTicket: string | null;
  /** Lots held (link) or ordered (open still pending). */
  volume: string;
  maxSpreadPts: number | null;
  maxDeviationPts: number | null;
}

/** Slaves holding a copy: an open position link, or an open order not yet reported. */
export async function loadTargets(db: Db, tenantId: string, signalId: string): Promise<Target[]> {
  const rows = await db
    .select({ exec: executions, link: positionLinks })
    .from(executions)
    .leftJoin(positionLinks, and(eq(positionLinks.signalId, executions.signalId), eq(positionLinks.slaveAccountId, executions.slaveAccountId)))
    .where(ofTenant(executions, tenantId, eq(executions.signalId, signalId), inArray(executions.action, ["OPEN", "PENDING_OPEN"])))
    .orderBy(executions.createdAt, executions.id);
  const targets: Target[] = [];
  for (const { exec, link } of rows) {
    const common = { slaveAccountId: exec.slaveAccountId, symbol: exec.symbol, maxSpreadPts: exec.maxSpreadPts, maxDeviationPts: exec.maxDeviationPts };
    if (link) {
      if (link.status === "open") targets.push({ ...common, slaveTicket: link.slaveTicket, volume: link.volume });
    } else if (exec.status === "pending" && exec.volume) {
      targets.push({ ...common, slaveTicket: null, volume: exec.volume });
    }
  }
  return targets;
}

export async function followSignal(tx: Db, input: SignalEventInput): Promise<EventPlan> {
  const { event, tenantId, receivedAt, eventId } = input;
  const order = event.order;
  const [signal] = await tx
    .select()
    .from(signals)
    .where(ofTenant(signals, tenantId, eq(signals.masterTicket, order.ticket), eq(signals.status, "active")))
    .for("update")
    .limit(1);
  if (!signal) throw notFound(`Open signal for master ticket ${order.ticket}`);
  if (signal.masterClosedAt) throw conflict(`Master ticket ${order.ticket} is already closed`);
  const pendingOnly = event.type === "PENDING_MODIFY" || event.type === "PENDING_CANCEL";
  if (pendingOnly && signal.orderType === "MARKET") {
    throw conflict(`Master ticket ${order.ticket} is a market position, not a pending order`);
  }

  const isClose = event.type === "CLOSE" || event.type === "PENDING_CANCEL";
  const { fraction, full } = event.type === "CLOSE" ? closeFraction(signal.volume, order.volume) : { fraction: null, full: true };
  const [updated] = await tx
    .update(signals)
    .set(
      isClose
        ? {
            volume: remainingVolume(signal.volume, order.volume, full),
            ...(full ? { masterClosedAt: receivedAt, finalStatus: event.type === "CLOSE" ? "closed" : "cancelled" } : {}),
          }
        : {
            sl: order.sl,
            tp: order.tp,
            ...(event.type === "PENDING_MODIFY" && order.price ? { price: order.price } : {}),
            ...(event.type === "PENDING_MODIFY" && order.stopLimitPrice ? { stopLimitPrice: order.stopLimitPrice } : {}),
          },
    )
    .where(eq(signals.id, signal.id))
    .returning();
  if (!updated) throw new Error("signal update returned nothing");

  const targets = await loadTargets(tx, tenantId, signal.id);
  const orders = targets.map((t) => ({
    tenantId,
    signalId: signal.id,
    eventId,
    slaveAccountId: t.slaveAccountId,
    action: event.type,
    status: "pending",
    masterTicket: signal.masterTicket,
    slaveTicket: t.slaveTicket,
    symbol: t.symbol,
    side: signal.side,
    orderType: signal.orderType,
    volume: event.type === "CLOSE" && fraction ? slaveCloseVolume(t.volume, fraction, full) : t.volume,
    requestedVolume: null,
    // Close: the master's close price (slippage of the close); modify: the new order price.
    price: order.price ?? null,
    stopLimitPrice: updated.stopLimitPrice,
    sl: updated.sl,
    tp: updated.tp,
    comment: copyComment(signal.masterTicket),
    magic: signal.magic,
    maxSpreadPts: t.maxSpreadPts,
    maxDeviationPts: t.maxDeviationPts,
    createdAt: receivedAt,
  }));
  const what =
    event.type === "CLOSE"
      ? `${full ? "close" : `partial close of ${order.volume ?? "?"}`}`
      : event.type === "PENDING_CANCEL"
        ? "cancel"
        : `modify (SL ${updated.sl ?? "none"}, TP ${updated.tp ?? "none"})`;
  return {
    signal: updated,
    newSignal: false,
    executions: orders,
    // Nothing was copied (or every copy is already gone): the signal ends with the master's close.
    endsWhenDone: isClose && full,
    audits: [
      {
        tenantId,
        category: "trade",
        source: "bridge",
        message: `Master ${what} of ticket ${signal.masterTicket} (${signal.symbol}): ${orders.length} slave order(s) queued`,
        accountId: input.master.id,
        signalId: signal.id,
        metadata: { eventId, externalId: event.id, type: event.type, remainingVolume: updated.volume, price: order.price ?? null },
      },
    ],
  };
}

