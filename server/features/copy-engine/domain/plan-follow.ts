/**
 * A master follow-up (MODIFY, CLOSE, PENDING_MODIFY, PENDING_CANCEL) on an existing signal: the
 * signal's new state and one order per slave holding a copy. Never blocked by limits, pauses or
 * close-only: a copied position must not be orphaned.
 */
import Big from "big.js";
import type { OrderType, Side } from "#contract";
import type { CopyHolding, Decimal, MasterFollow, SignalState } from "./types.ts";
import { closeVolume, remainingVolume } from "./volume.ts";

/** One slave order of a follow-up, acting on the copy's slave ticket (null while its open is unreported). */
export interface FollowOrder {
  slaveAccountId: string;
  action: MasterFollow["type"];
  slaveTicket: string | null;
  symbol: string | null;
  /** The copy's own side and order type (reversed copies differ from the signal). */
  side: Side;
  orderType: OrderType;
  /** Lots: CLOSE → the share to close (volume.ts closeVolume); otherwise the lots held or ordered. */
  volume: Decimal;
  /** CLOSE: the master's close price; PENDING_MODIFY: the new order price; else as the event gave it. */
  price: Decimal | null;
  stopLimitPrice: Decimal | null;
  /** The signal's SL/TP, swapped for a reversed copy, null when the slave does not copy them. */
  sl: Decimal | null;
  tp: Decimal | null;
  maxSpreadPts: number | null;
  maxDeviationPts: number | null;
}

export type FollowPlan =
  /** The follow-up does not apply (409 to the master). */
  | { kind: "conflict"; message: string }
  | {
      kind: "plan";
      /** The signal after the event (volume = master lots still open). */
      signal: { volume: Decimal; sl: Decimal | null; tp: Decimal | null; price: Decimal; stopLimitPrice: Decimal | null; masterClosed: boolean; finalStatus: "closed" | "cancelled" | null };
      /** The master closed or cancelled the whole ticket. */
      full: boolean;
      orders: FollowOrder[];
      /** The signal ends once every copy is gone (immediately when no slave holds one). */
      endsWhenDone: boolean;
      /** Audit wording: "close", "partial close of 0.1", "cancel", "modify (SL x, TP y)". */
      summary: string;
    };

/**
 * Plans a master follow-up for `signal`, given every slave copy still held (`holdings`: open
 * links, or opens not yet reported). Conflicts: the master ticket already closed → "Master ticket
 * N is already closed"; PENDING_MODIFY / PENDING_CANCEL on a market signal → "Master ticket N is a
 * market position, not a pending order".
 * - CLOSE: each holding closes closeVolume(held, signal volume, closed volume) — exact, one
 *   rounding to its symbol's step; the signal keeps the remaining lots; a full close marks the
 *   master closed (final status `closed`).
 * - PENDING_CANCEL: every holding cancels its whole order; final status `cancelled`.
 * - MODIFY / PENDING_MODIFY: the signal takes the new SL/TP (and, for PENDING_MODIFY, the new
 *   price and stop-limit price when given); each order carries them swapped for a reversed copy
 *   (holding side ≠ signal side), then dropped per the holding's copyStopLoss/copyTakeProfit.
 */
export function planFollow(signal: SignalState, event: MasterFollow, holdings: CopyHolding[]): FollowPlan {
  if (signal.masterClosed) return { kind: "conflict", message: `Master ticket ${signal.ticket} is already closed` };
  const pendingOnly = event.type === "PENDING_MODIFY" || event.type === "PENDING_CANCEL";
  if (pendingOnly && signal.orderType === "MARKET") {
    return { kind: "conflict", message: `Master ticket ${signal.ticket} is a market position, not a pending order` };
  }

  const isClose = event.type === "CLOSE" || event.type === "PENDING_CANCEL";
  const closed = event.type === "CLOSE" ? event.volume : null;
  // Full: a cancel, or a close of nothing given, ≤ 0 or ≥ the master's open lots (rules of closeVolume).
  const full = isClose && (event.type === "PENDING_CANCEL" || closed === null || closed === "" || new Big(closed).lte(0) || new Big(closed).gte(signal.volume));
  const next = isClose
    ? {
        volume: remainingVolume(signal.volume, closed, full),
        sl: signal.sl,
        tp: signal.tp,
        price: signal.price,
        stopLimitPrice: signal.stopLimitPrice,
        masterClosed: full,
        finalStatus: full ? (event.type === "CLOSE" ? ("closed" as const) : ("cancelled" as const)) : null,
      }
    : {
        volume: signal.volume,
        sl: event.sl,
        tp: event.tp,
        price: event.type === "PENDING_MODIFY" && event.price ? event.price : signal.price,
        stopLimitPrice: event.type === "PENDING_MODIFY" && event.stopLimitPrice ? event.stopLimitPrice : signal.stopLimitPrice,
        masterClosed: false,
        finalStatus: null,
      };

  const orders = holdings.map((h): FollowOrder => {
    const reversed = h.side !== null && h.side !== signal.side;
    const sl = reversed ? next.tp : next.sl;
    const tp = reversed ? next.sl : next.tp;
    return {
      slaveAccountId: h.slaveAccountId,
      action: event.type,
      slaveTicket: h.slaveTicket,
      symbol: h.symbol,
      side: h.side ?? signal.side,
      orderType: h.orderType ?? signal.orderType,
      volume: event.type === "CLOSE" ? closeVolume(h.volume, signal.volume, full ? null : closed, h.spec).volume : h.volume,
      price: event.price,
      stopLimitPrice: next.stopLimitPrice,
      sl: h.copyStopLoss ? sl : null,
      tp: h.copyTakeProfit ? tp : null,
      maxSpreadPts: h.maxSpreadPts,
      maxDeviationPts: h.maxDeviationPts,
    };
  });

  const summary =
    event.type === "CLOSE"
      ? full
        ? "close"
        : `partial close of ${event.volume ?? "?"}`
      : event.type === "PENDING_CANCEL"
        ? "cancel"
        : `modify (SL ${next.sl ?? "none"}, TP ${next.tp ?? "none"})`;
  return { kind: "plan", signal: next, full, orders, endsWhenDone: isClose && full, summary };
}
