/**
 * The plausibility band of a reported fill price (docs/bridge-protocol.md §6.3): a fill more than
 * FILL_PRICE_BAND (20 %) away from the order's reference price (the master's price the order
 * copies) is a broken report or a unit mistake, not slippage. Such a fill is stored as reported but
 * marked suspect: its slippage stays null, so it never reaches slippage analytics or alerts.
 */
import Big from "big.js";

/** Largest accepted relative distance of a fill from the reference price (0.2 = ±20 %). */
export const FILL_PRICE_BAND = 0.2;

/**
 * true when `fillPrice` lies outside ±FILL_PRICE_BAND of `referencePrice` (both decimal strings).
 * Without a positive reference price there is no band (false).
 */
export function isSuspectFill(referencePrice: string | null, fillPrice: string): boolean {
  if (referencePrice === null) return false;
  const ref = new Big(referencePrice);
  if (ref.lte(0)) return false;
  return new Big(fillPrice).minus(ref).abs().gt(ref.times(FILL_PRICE_BAND));
}
