/** Shapes of the slave position book: its entries, options and execution reports. */
import type { ReportStatus, SlaveOrder } from "#contract";
import type { BrokerError, PendingType } from "./broker.ts";
import type { Market } from "./price-feed.ts";
import type { Rng } from "./random.ts";
import { formatLots, formatPoint, formatPrice, marginUsd, profitUsd, type SymbolSpec } from "./symbols.ts";

/** One execution report body (docs/bridge-protocol.md §6.3), decimals as strings. */
export interface Report {
  orderId: string;
  status: ReportStatus;
  slaveTicket?: string;
  remainingTicket?: string;
  fillPrice?: string;
  /** Lots filled or closed. */
  volume?: string;
  /** Unix seconds with ms fraction. */
  fillTime?: number;
  point?: string;
  /** Realised profit, account currency. */
  profit?: string;
  errorCode?: number;
  errorMessage?: string;
}

/** A position (`kind: "position"`) or pending order held by the terminal. */
export interface BookEntry {
  ticket: string;
  masterTicket: string | null;
  /** Broker symbol as ordered (e.g. `EURUSD.a`). */
  symbol: string;
  spec: SymbolSpec;
  side: "BUY" | "SELL";
  kind: "position" | "pending";
  orderType: "MARKET" | PendingType;
  /** Volume in 0.01 lots. */
  centiLots: number;
  /** Open price (position) or order price (pending). */
  price: number;
  stopLimitPrice: number | null;
  sl: number | null;
  tp: number | null;
  /** The OPEN / PENDING_OPEN order that created it (its trigger is reported on that order). */
  openOrderId: string;
}

export interface BookOptions {
  /** MT4 gives the remainder of a partial close a new ticket; MT5 keeps the position ticket. */
  platform: "MT4" | "MT5";
  /** Starting balance, USD. */
  balance: number;
  /** 100 = 1:100. */
  leverage: number;
  /** Probability (0–1) that the broker refuses a market open. */
  rejectRate: number;
  /** Slippage range either way, points. */
  maxSlippagePts: number;
  /** First ticket number this terminal hands out. */
  ticketBase: number;
  rng: Rng;
  market: Market;
  /** Clock, ms (tests pin it). */
  now?: () => number;
}

/** The reports to send for one order; `duplicate` when the order had been executed before. */
export interface ExecutionOutcome {
  reports: Report[];
  duplicate: boolean;
}

/** The `filled` report of a position opened (or a pending order triggered) at `e.price`. */
export function fillReport(orderId: string, e: BookEntry, fillTime: number): Report {
  return { orderId, status: "filled", slaveTicket: e.ticket, fillPrice: formatPrice(e.spec, e.price), volume: formatLots(e.centiLots), fillTime, point: formatPoint(e.spec) };
}

/** A `rejected` (broker refused) or `error` (EA-side failure) report. */
export function failReport(orderId: string, status: "rejected" | "error", err: BrokerError): Report {
  const r: Report = { orderId, status, errorMessage: err.message };
  if (err.code != null) r.errorCode = err.code;
  return r;
}

/** SL/TP/price from an order: null for none (MetaTrader's 0 included). */
export const num = (v: string | null): number | null => (v == null || Number(v) === 0 ? null : Number(v));

/** A new, not yet ticketed entry for an OPEN / PENDING_OPEN order (price set by the caller). */
export function entryFromOrder(order: SlaveOrder, spec: SymbolSpec, side: "BUY" | "SELL", centiLots: number): BookEntry {
  const pending = order.action === "PENDING_OPEN";
  return {
    ticket: "",
    masterTicket: order.masterTicket ?? (order.comment?.startsWith("cb:") ? order.comment.slice(3) : null),
    symbol: order.symbol ?? spec.name,
    spec,
    side,
    kind: pending ? "pending" : "position",
    orderType: order.orderType ?? "MARKET",
    centiLots,
    price: pending ? Number(order.price ?? 0) : 0,
    stopLimitPrice: num(order.stopLimitPrice),
    sl: num(order.sl),
    tp: num(order.tp),
    openOrderId: order.orderId,
  };
}

/** Everything a slave terminal remembers; persisted across restarts by book-state.ts. */
export interface BookState {
  /** USD. */
  balance: number;
  nextTicket: number;
  entries: Map<string, BookEntry>;
  /** MT4 partial closes: old ticket → ticket of the remaining volume. */
  renamed: Map<string, string>;
  /** Latest report per executed order id (re-sent when the order is delivered again). */
  outcomes: Map<string, Report>;
  /** Master tickets whose copy this terminal refused (later orders for them have nothing to act on). */
  refusedOpens: Set<string>;
}

export function emptyBookState(balance: number, ticketBase: number): BookState {
  return { balance, nextTicket: ticketBase, entries: new Map(), renamed: new Map(), outcomes: new Map(), refusedOpens: new Set() };
}

/** Floating profit at current quotes and margin in use of `positions`, both USD. */
export function valuation(positions: readonly BookEntry[], market: Market, leverage: number): { floating: number; margin: number } {
  let floating = 0;
  let margin = 0;
  for (const e of positions) {
    const q = market.quote(e.spec.name);
    if (q) floating += profitUsd(e.spec, e.side, e.centiLots / 100, e.price, e.side === "BUY" ? q.bid : q.ask);
    margin += marginUsd(e.spec, e.centiLots / 100, e.price, leverage);
  }
  return { floating, margin };
}
