/**
 * What a simulated broker decides on its own: fill prices with slippage, and the rejections a
 * MetaTrader terminal sees (requote 138, off quotes 136, not enough money 134, invalid stops 130).
 */
import type { Quote } from "./price-feed.ts";
import type { Rng } from "./random.ts";
import { roundPrice, type SymbolSpec } from "./symbols.ts";

/** MetaTrader 4 trade server / terminal error codes the simulator uses. */
export const MT_ERRORS = {
  invalidStops: { code: 130, message: "Invalid stops" },
  notEnoughMoney: { code: 134, message: "Not enough money" },
  offQuotes: { code: 136, message: "Off quotes" },
  requote: { code: 138, message: "Requote" },
  unknownSymbol: { code: 4106, message: "Unknown symbol" },
  invalidTicket: { code: 4108, message: "Invalid ticket" },
} as const;

export interface BrokerError {
  code: number | null;
  message: string;
}

/** A random broker refusal of a market order: requote, off quotes or not enough money (5:3:2). */
export function randomRejection(rng: Rng): BrokerError {
  const which = rng.weighted({ requote: 5, offQuotes: 3, notEnoughMoney: 2 }) ?? "requote";
  return { ...MT_ERRORS[which] };
}

/**
 * Market execution price: ask for a buy, bid for a sell (the reverse when closing), moved by a
 * random slippage of up to `maxSlippagePts` points either way.
 */
export function marketFill(spec: SymbolSpec, quote: Quote, side: "BUY" | "SELL", closing: boolean, rng: Rng, maxSlippagePts: number): number {
  const buying = (side === "BUY") !== closing;
  const base = buying ? quote.ask : quote.bid;
  return roundPrice(spec, base + rng.int(-maxSlippagePts, maxSlippagePts) * spec.point);
}

export type PendingType = "LIMIT" | "STOP" | "STOP_LIMIT";

/** true when a pending order's trigger condition holds at this quote (buys trigger on ask, sells on bid). */
export function pendingTriggered(side: "BUY" | "SELL", type: PendingType, price: number, quote: Quote): boolean {
  const p = side === "BUY" ? quote.ask : quote.bid;
  if (type === "LIMIT") return side === "BUY" ? p <= price : p >= price;
  return side === "BUY" ? p >= price : p <= price;
}

/** true when a pending price sits on the valid side of the market for its type (else error 130). */
export function pendingPriceValid(side: "BUY" | "SELL", type: PendingType, price: number, quote: Quote): boolean {
  return !pendingTriggered(side, type, price, quote);
}

/** Order price limits the EA enforces (from the order and the account's EA profile). */
export interface ExecutionLimits {
  /** Maximum spread, points; null = none. */
  maxSpreadPts: number | null;
  /** Maximum distance between the master price and the fill, points; null = none. */
  maxDeviationPts: number | null;
  /** When false, a fill beyond maxDeviationPts is refused instead of taken at market. */
  slipToMarket: boolean;
}

/** The refusal, if any, of a market open under the EA's limits. `masterPrice` may be null. */
export function checkLimits(spec: SymbolSpec, quote: Quote, fill: number, masterPrice: number | null, limits: ExecutionLimits): BrokerError | null {
  if (limits.maxSpreadPts != null && quote.spreadPts > limits.maxSpreadPts) {
    return { code: null, message: `Spread ${quote.spreadPts} pts above the ${limits.maxSpreadPts} pts limit` };
  }
  if (masterPrice != null && limits.maxDeviationPts != null && !limits.slipToMarket) {
    const deviation = Math.round(Math.abs(fill - masterPrice) / spec.point);
    if (deviation > limits.maxDeviationPts) {
      return { code: MT_ERRORS.requote.code, message: `Requote: price moved ${deviation} pts (max ${limits.maxDeviationPts})` };
    }
  }
  return null;
}
