/**
 * Where a master modify, close, pending modify or cancel reaches the slaves: load the ticket's
 * legs and every slave's copy of each (store/follow-store.ts), plan the follow-up over its live
 * legs (domain/legs.ts planLegsFollow → planFollow per leg: one order per slave holding a copy,
 * acting on the mapped slave ticket; a partial close closes exactly the master's share, one
 * rounding to the slave symbol's step, and spans a netting master's legs first in, first out), and
 * return the rows and the legs' new states for the outbox write (store/record-event.ts, run by
 * process-signal.ts). Never blocked by limits, pauses or close-only (a copied position must not be
 * orphaned). A hedging master's position is one leg: everything as for a single signal.
 */
import Big from "big.js";
import type { Db } from "../../db/client.ts";
import { conflict, notFound } from "../../http/errors.ts";
import { copyComment } from "./domain/index.ts";
import { planLegsFollow } from "./domain/legs.ts";
import type { EventPlan, LegChange, SignalEventInput } from "./event-plan.ts";
import { legStatesOf, loadFollowContexts, masterFollowOf, signalChangesOf } from "./store/follow-store.ts";
import type { NewExecution } from "./store/record-event.ts";

/**
 * Plans a follow-up inside processSignalEvent's transaction. The plan's `signal` is the first leg
 * the event changes (the 201's signalId), `otherLegs` the rest. Errors: 404 no open signal for
 * the ticket; 409 the master ticket is already closed, or a pending change on a market position.
 */
export async function followSignal(tx: Db, input: SignalEventInput): Promise<EventPlan> {
  const { event, tenantId, receivedAt, eventId } = input;
  const origin = input.origin ?? "signal";
  const type = event.type;
  if (type === "OPEN" || type === "PENDING_OPEN") throw new Error(`followSignal got ${type}`);
  const order = event.order;

  // Load.
  const contexts = await loadFollowContexts(tx, tenantId, order.ticket);
  if (contexts.length === 0) throw notFound(`Open signal for master ticket ${order.ticket}`);

  // Decide.
  const follow = masterFollowOf(type, order);
  const plan = planLegsFollow(legStatesOf(contexts), follow, origin === "signal" ? event.ts * 1000 : null);
  if (plan.kind === "conflict") throw conflict(plan.message);

  const changed: (LegChange & { leg: number })[] = [];
  const orders: NewExecution[] = [];
  for (const { leg, state, plan: legPlan } of plan.legs) {
    const signal = contexts.find((c) => c.signal.id === state.id)!.signal;
    const signalChanges = signalChangesOf(legPlan, type, receivedAt);
    changed.push({ leg, signal: { ...signal, ...signalChanges }, signalChanges, endsWhenDone: legPlan.endsWhenDone });
    for (const o of legPlan.orders) {
      orders.push({
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
        comment: copyComment(signal.masterTicket, signal.leg),
        magic: signal.magic,
        maxSpreadPts: o.maxSpreadPts,
        maxDeviationPts: o.maxDeviationPts,
        defaultSpec: false,
        origin,
        createdAt: receivedAt,
      });
    }
  }
  const [first, ...others] = changed;
  if (!first) throw new Error("planLegsFollow returned no leg");
  const symbol = first.signal.symbol;
  const ticket = first.signal.masterTicket;
  // Master lots still open on the ticket after the event: the changed legs' new volumes plus the live legs it did not reach.
  const remainingVolume = contexts
    .filter((c) => c.signal.masterClosedAt === null)
    .reduce((sum, c) => sum.plus(changed.find((x) => x.signal.id === c.signal.id)?.signal.volume ?? c.signal.volume), new Big(0));
  const legsNote = changed.length > 1 ? `, legs ${changed.map((c) => c.leg).join(", ")}` : "";
  const originNote = origin === "snapshot" ? " (from snapshot)" : "";
  return {
    signal: first.signal,
    newSignal: false,
    executions: orders,
    signalChanges: first.signalChanges,
    otherLegs: others,
    // Nothing was copied (or every copy is already gone): the signal ends with the master's close.
    endsWhenDone: first.endsWhenDone,
    audits: [
      {
        tenantId,
        category: "trade",
        source: "bridge",
        message: `Master ${plan.summary} of ticket ${ticket} (${symbol})${legsNote}: ${orders.length} slave order(s) queued${originNote}`,
        accountId: input.master.id,
        signalId: first.signal.id,
        metadata: {
          eventId,
          externalId: event.id,
          type,
          remainingVolume: changed.length > 1 ? remainingVolume.toString() : first.signal.volume,
          price: order.price ?? null,
          ...(changed.length > 1 ? { legs: changed.map((c) => ({ leg: c.leg, signalId: c.signal.id, remainingVolume: c.signal.volume })) } : {}),
          ...(origin !== "signal" ? { origin } : {}),
        },
      },
    ],
  };
}
