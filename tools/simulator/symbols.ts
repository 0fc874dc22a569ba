/**
 * Instruments the simulated brokers quote, with MetaTrader-like contract specs, and the money
 * arithmetic a terminal needs (profit and margin in the USD account currency).
 */

export interface SymbolSpec {
  /** Canonical name, as the master quotes it. */
  name: string;
  /** Price decimals (EURUSD 5, USDJPY 3, XAUUSD 2). */
  digits: number;
  /** Smallest price step, 10^-digits. */
  point: number;
  /** Units per lot (100 000 for FX, 100 oz for gold). */
  contractSize: number;
  /** true when the quote currency is USD (EURUSD); false when USD is the base (USDJPY). */
  quotedInUsd: boolean;
  /** Mid price the random walk starts from. */
  start: number;
  /** Typical spread, points. */
  spreadPts: number;
  /** Standard deviation of one feed step, points. */
  stepPts: number;
  /** SL/TP distance range, points. */
  stopPts: readonly [number, number];
}

const spec = (s: Omit<SymbolSpec, "point">): SymbolSpec => ({ ...s, point: 10 ** -s.digits });

/** The simulated market (the master's symbols). */
export const SYMBOLS: readonly SymbolSpec[] = [
  spec({ name: "EURUSD", digits: 5, contractSize: 100_000, quotedInUsd: true, start: 1.085, spreadPts: 12, stepPts: 3, stopPts: [120, 450] }),
  spec({ name: "GBPUSD", digits: 5, contractSize: 100_000, quotedInUsd: true, start: 1.27, spreadPts: 16, stepPts: 4, stopPts: [150, 550] }),
  spec({ name: "USDJPY", digits: 3, contractSize: 100_000, quotedInUsd: false, start: 151.5, spreadPts: 14, stepPts: 4, stopPts: [150, 550] }),
  spec({ name: "XAUUSD", digits: 2, contractSize: 100, quotedInUsd: true, start: 2350, spreadPts: 25, stepPts: 15, stopPts: [400, 1500] }),
];

/** Broker names for the same instrument (slave symbol mappings such as XAUUSD → GOLD). */
const ALIASES: Record<string, string> = { GOLD: "XAUUSD", SILVER: "XAGUSD" };

/**
 * Finds the spec of a broker symbol: exact name, a known alias, or a suffixed name
 * (`EURUSD.a`, `EURUSDm`, `GBPUSD-ECN`). Undefined for an unknown symbol.
 */
export function resolveSymbol(name: string, symbols: readonly SymbolSpec[] = SYMBOLS): SymbolSpec | undefined {
  const upper = name.toUpperCase();
  const exact = symbols.find((s) => s.name === upper);
  if (exact) return exact;
  const aliasKey = Object.keys(ALIASES).find((a) => upper.startsWith(a));
  const canonical = aliasKey ? ALIASES[aliasKey] : undefined;
  if (canonical) return symbols.find((s) => s.name === canonical);
  return symbols.find((s) => upper.startsWith(s.name));
}

/** Rounds a price to the symbol's digits (avoids 1.0850000000000002). */
export function roundPrice(s: SymbolSpec, price: number): number {
  return Number(price.toFixed(s.digits));
}

/** Formats a price with exactly the symbol's digits, e.g. "1.08456". */
export function formatPrice(s: SymbolSpec, price: number): string {
  return price.toFixed(s.digits);
}

/** The point as a decimal string ("0.00001"), as reported to the bridge. */
export function formatPoint(s: SymbolSpec): string {
  return s.point.toFixed(s.digits);
}

/**
 * Profit in USD of `lots` opened at `open` and closed (or valued) at `close`.
 * For USD-base pairs the quote-currency profit is converted at the close price.
 */
export function profitUsd(s: SymbolSpec, side: "BUY" | "SELL", lots: number, open: number, close: number): number {
  const diff = (side === "BUY" ? close - open : open - close) * s.contractSize * lots;
  return s.quotedInUsd ? diff : diff / close;
}

/** Margin in USD to hold `lots` at `price` with the given leverage (100 = 1:100). */
export function marginUsd(s: SymbolSpec, lots: number, price: number, leverage: number): number {
  const notional = s.quotedInUsd ? s.contractSize * lots * price : s.contractSize * lots;
  return notional / leverage;
}

/** Lots as an integer count of 0.01 lots (so volumes never pick up float dust). */
export const toCentiLots = (lots: number): number => Math.round(lots * 100);
/** 0.01-lot count → lots. */
export const fromCentiLots = (centi: number): number => centi / 100;
/** 0.01-lot count → "0.50". */
export const formatLots = (centi: number): string => (centi / 100).toFixed(2);
