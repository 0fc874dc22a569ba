/**
 * Where a master modify, close, pending modify or cancel reaches the slaves: load the signal and
 * every slave's copy (store/follow-store.ts), plan the follow-up (domain planFollow: one order per
 * slave holding a copy, acting on the mapped slave ticket; a partial close closes exactly the
 * master's share, one rounding to the slave symbol's step), and return the rows and the signal's
 * new state for the outbox write (store/record-event.ts, run by process-signal.ts). Never blocked
 * by limits, pauses or close-only (a copied position must not be orphaned).
 */
import type { Db } from "../../db/client.ts";
import { conflict, notFound } from "../../http/errors.ts";
import { copyComment, planFollow, type MasterFollow } from "./domain/index.ts";
import type { EventPlan, SignalEventInput } from "./event-plan.ts";
import { loadFollowContext, signalChangesOf, signalStateOf } from "./store/follow-store.ts";
import type { NewExecution } from "./store/record-event.ts";

/**
 * Plans a follow-up inside processSignalEvent's transaction. Errors: 404 no open signal for the
 * ticket; 409 the master ticket is already closed, or a pending change on a market position.
 */
export async function followSignal(tx: Db, input: SignalEventInput): Promise<EventPlan> {
  const { event, tenantId, receivedAt, eventId } = input;
  const type = event.type;
  if (type === "OPEN" || type === "PENDING_OPEN") throw new Error(`followSignal got ${type}`);
  const order = event.order;

  // Load.
  const loaded = await loadFollowContext(tx, tenantId, order.ticket);
  if (!loaded) throw notFound(`Open signal for master ticket ${order.ticket}`);
  const { signal, holdings } = loaded;

  // Decide.
  const follow: MasterFollow = {
    type,
    volume: order.volume ?? null,
    price: order.price ?? null,
    stopLimitPrice: order.stopLimitPrice ?? null,
    sl: order.sl,
    tp: order.tp,
  };
  const plan = planFollow(signalStateOf(signal), follow, holdings);
  if (plan.kind === "conflict") throw conflict(plan.message);
  const signalChanges = signalChangesOf(plan, type, receivedAt);
  const updated = { ...signal, ...signalChanges };

  const orders: NewExecution[] = plan.orders.map((o) => ({
    tenantId,
    signalId: signal.id,
    eventId,
    slaveAccountId: o.slaveAccountId,
    action: o.action,
    status: "pending",
    masterTicket: signal.masterTicket,
    slaveTicket: o.slaveTicket,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
    volume: o.volume,
    requestedVolume: null,
    // Close: the master's close price (slippage of the close); modify: the new order price.
    price: o.price,
    stopLimitPrice: o.stopLimitPrice,
    sl: o.sl,
    tp: o.tp,
    comment: copyComment(signal.masterTicket),
    magic: signal.magic,
    maxSpreadPts: o.maxSpreadPts,
    maxDeviationPts: o.maxDeviationPts,
    defaultSpec: false,
    createdAt: receivedAt,
  }));
  return {
    signal: updated,
    newSignal: false,
    executions: orders,
    signalChanges,
    // Nothing was copied (or every copy is already gone): the signal ends with the master's close.
    endsWhenDone: plan.endsWhenDone,
    audits: [
      {
        tenantId,
        category: "trade",
        source: "bridge",
        message: `Master ${plan.summary} of ticket ${signal.masterTicket} (${signal.symbol}): ${orders.length} slave order(s) queued`,
        accountId: input.master.id,
        signalId: signal.id,
        metadata: { eventId, externalId: event.id, type, remainingVolume: updated.volume, price: order.price ?? null },
      },
    ],
  };
}
