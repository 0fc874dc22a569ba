/**
 * Slippage of a slave fill against the master's price (points), and the opposite side (the side
 * of a close's fill). Moved from rules.ts unchanged.
 */
import Big from "big.js";
import type { Side } from "#contract";
import type { Decimal } from "./types.ts";

/**
 * Slippage in points, positive = better for the trader than the master price: buying lower or
 * selling higher. `tradeSide` is the side of the fill itself (closing a BUY is a sell); `point`
 * is the symbol's point size. Rounded half-up to 0.1 point ("5.0", "-3.0").
 * Errors: RangeError when point ≤ 0.
 */
export function slippagePoints(tradeSide: Side, masterPrice: Decimal, fillPrice: Decimal, point: Decimal): Decimal {
  const p = new Big(point);
  if (p.lte(0)) throw new RangeError("point must be positive");
  const diff = tradeSide === "BUY" ? new Big(masterPrice).minus(fillPrice) : new Big(fillPrice).minus(masterPrice);
  return diff.div(p).round(1, Big.roundHalfUp).toFixed(1);
}

/** The other side: BUY → SELL, SELL → BUY. */
export const opposite = (side: Side): Side => (side === "BUY" ? "SELL" : "BUY");
