/**
 * The slave's copy filters: trading hours (broker time), magic numbers, symbol lists, and the
 * `reverse` transformation of an order. Pure; time comes in as an argument.
 */
import type { OrderType, Side, TradingHoursRange } from "#contract";
import type { Decimal } from "./types.ts";

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const pad = (n: number) => String(n).padStart(2, "0");

/** Broker wall-clock of a UTC instant: seconds since the epoch in broker time (UTC when the offset is null). */
function brokerSeconds(utcMs: number, brokerUtcOffsetSec: number | null): number {
  return Math.floor(utcMs / 1000) + (brokerUtcOffsetSec ?? 0);
}

/**
 * Is the UTC instant `utcMs` (unix ms) inside the trading hours `ranges` in the slave's broker
 * time (broker time = UTC + `brokerUtcOffsetSec` seconds; UTC when null)? Empty ranges = always.
 * Exactly the EA's `CbInTradingHours` (terminals/MQL5/Include/CopyBridge/SlaveCore.mqh):
 * - the start and end minutes are both included (Mon-Fri:08:00-17:00 allows 17:00, not 17:01);
 * - a day range may wrap (Fri-Mon = Fri, Sat, Sun, Mon);
 * - a time range with start > end runs over midnight, and the part after midnight belongs to the
 *   day the range STARTED: Fri:22:00-02:00 allows Friday 22:00 to Saturday 02:00, not Friday
 *   00:00-02:00.
 */
export function inTradingHours(ranges: TradingHoursRange[], utcMs: number, brokerUtcOffsetSec: number | null): boolean {
  if (ranges.length === 0) return true;
  const t = brokerSeconds(utcMs, brokerUtcOffsetSec);
  const dow = (((Math.floor(t / 86_400) + 4) % 7) + 7) % 7;
  const minute = Math.floor((((t % 86_400) + 86_400) % 86_400) / 60);
  return ranges.some((r) => {
    let startDay = dow;
    if (r.startMinute <= r.endMinute) {
      if (minute < r.startMinute || minute > r.endMinute) return false;
    } else if (minute < r.startMinute) {
      if (minute > r.endMinute) return false;
      startDay = (dow + 6) % 7; // after midnight: the range began the day before
    }
    const span = (r.toDay - r.fromDay + 7) % 7;
    const offset = (startDay - r.fromDay + 7) % 7;
    return offset <= span;
  });
}

/** "Mon 10:15": the broker day and time of a UTC instant, for reasons ("broker time Mon 10:15"). */
export function brokerTimeLabel(utcMs: number, brokerUtcOffsetSec: number | null): string {
  const t = brokerSeconds(utcMs, brokerUtcOffsetSec);
  const dow = (((Math.floor(t / 86_400) + 4) % 7) + 7) % 7;
  const minute = Math.floor((((t % 86_400) + 86_400) % 86_400) / 60);
  return `${DAY_NAMES[dow] ?? "?"} ${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
}

/** An entry "123" or "100-200" as an inclusive BigInt range; null when malformed. */
function magicRange(entry: string): [bigint, bigint] | null {
  const m = /^\s*(\d{1,20})\s*(?:-\s*(\d{1,20})\s*)?$/.exec(entry);
  if (!m) return null;
  const from = BigInt(m[1] ?? "0");
  const to = m[2] === undefined ? from : BigInt(m[2]);
  return [from, to];
}

const inMagicList = (magic: bigint, list: string[]) =>
  list.some((entry) => {
    const r = magicRange(entry);
    return r !== null && magic >= r[0] && magic <= r[1];
  });

/**
 * Does the master order's magic number pass the slave's magic filter? Entries are numbers ("123")
 * or inclusive ranges ("100-200"), compared as BigInt (MT5 magics are 64-bit unsigned); malformed
 * entries match nothing. `include` empty = every magic; an order without a magic (null) passes
 * only when `include` is empty; `exclude` wins over `include`.
 */
export function magicMatches(magic: string | null, include: string[], exclude: string[]): boolean {
  const value = magic === null || !/^\d+$/.test(magic.trim()) ? null : BigInt(magic.trim());
  if (value === null) return include.length === 0;
  if (inMagicList(value, exclude)) return false;
  return include.length === 0 || inMagicList(value, include);
}

/** The parts of an order that `reverse` changes. */
export interface ReversibleOrder {
  side: Side;
  orderType: OrderType;
  sl: Decimal | null;
  tp: Decimal | null;
}

const REVERSED_TYPE: Record<OrderType, OrderType | null> = {
  MARKET: "MARKET",
  LIMIT: "STOP",
  STOP: "LIMIT",
  STOP_LIMIT: null,
};

/**
 * The reversed copy of an order (copy setting `reverse`): BUY ↔ SELL, SL ↔ TP; a market order
 * stays market; BUY LIMIT ↔ SELL STOP, BUY STOP ↔ SELL LIMIT (a price the master buys at on a
 * dip is one the copy sells at on the way down). The order price is kept. STOP_LIMIT has no
 * mirror → null (the plan rejects it with `reverse_unsupported`).
 * Worked example: master BUY LIMIT EURUSD @ 1.08000, SL 1.07500, TP 1.09000 → slave SELL STOP
 * @ 1.08000, SL 1.09000, TP 1.07500: the master's target is the copy's stop and vice versa.
 */
export function reverseOrder(o: ReversibleOrder): ReversibleOrder | null {
  const orderType = REVERSED_TYPE[o.orderType];
  if (orderType === null) return null;
  return { side: o.side === "BUY" ? "SELL" : "BUY", orderType, sl: o.tp, tp: o.sl };
}

/** Is `symbol` in a white/black list? Case-insensitive, entries and symbol trimmed. */
export function inSymbolList(list: string[], symbol: string): boolean {
  const s = symbol.trim().toUpperCase();
  return list.some((entry) => entry.trim().toUpperCase() === s);
}
