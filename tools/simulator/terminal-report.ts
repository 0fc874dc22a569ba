/**
 * What a simulated terminal tells the bridge about itself beyond balance and equity
 * (docs/bridge-protocol.md §4.1, §6.4, §6.5): heartbeat margin figures, a slave broker's symbol
 * specifications and account snapshots. Pure: builds the bodies the EAs send.
 */
import type { SnapshotInput, SymbolSpecInput } from "#contract";
import type { BookEntry } from "./book-types.ts";
import type { MasterEntry } from "./master-types.ts";
import type { Market } from "./price-feed.ts";
import { formatLots, formatPoint, formatPrice, type SymbolSpec } from "./symbols.ts";

/** A snapshot every 5 minutes (and one on start), as the EAs do. */
export const SNAPSHOT_EVERY_MS = 300_000;

/** Heartbeat figures: margin and free margin (USD, 2 decimals), leverage, hedging account, broker time = UTC. */
export function marginFields(equity: number, margin: number, leverage: number) {
  return {
    margin: margin.toFixed(2),
    freeMargin: (equity - margin).toFixed(2),
    leverage,
    marginMode: "hedging" as const,
    brokerUtcOffsetSec: 0,
  };
}

/**
 * The broker's spec of `brokerSymbol` (e.g. `EURUSD.a`) for POST /v1/slave/symbols: 0.01 lot
 * minimum and step, 100 lots maximum; the tick value is the account-currency (USD) value of one
 * point per lot at the current quote.
 */
export function symbolSpecBody(brokerSymbol: string, spec: SymbolSpec, market: Market): SymbolSpecInput {
  const mid = market.quote(spec.name)?.bid ?? spec.start;
  const tickValue = spec.contractSize * spec.point * (spec.quotedInUsd ? 1 : 1 / mid);
  return {
    symbol: brokerSymbol,
    digits: spec.digits,
    point: formatPoint(spec),
    volumeMin: "0.01",
    volumeStep: "0.01",
    volumeMax: "100",
    contractSize: String(spec.contractSize),
    tickSize: formatPoint(spec),
    tickValue: tickValue.toFixed(5),
    tradeMode: "full",
    stopsLevel: 0,
  };
}

const price = (spec: SymbolSpec, v: number | null) => (v == null || v === 0 ? null : formatPrice(spec, v));

/** A slave terminal's snapshot at `nowMs`: tickets as strings, copies commented `cb:<masterTicket>`. */
export function slaveSnapshotBody(entries: readonly BookEntry[], nowMs: number): SnapshotInput {
  const comment = (e: BookEntry) => (e.masterTicket ? `cb:${e.masterTicket}` : null);
  return {
    ts: Math.floor(nowMs / 1000),
    positions: entries
      .filter((e) => e.kind === "position")
      .map((e) => ({ ticket: e.ticket, symbol: e.symbol, side: e.side, volume: formatLots(e.centiLots), openPrice: formatPrice(e.spec, e.price), sl: price(e.spec, e.sl), tp: price(e.spec, e.tp), comment: comment(e) })),
    orders: entries
      .filter((e) => e.kind === "pending")
      .map((e) => ({
        ticket: e.ticket,
        symbol: e.symbol,
        side: e.side,
        orderType: e.orderType,
        volume: formatLots(e.centiLots),
        price: formatPrice(e.spec, e.price),
        stopLimitPrice: price(e.spec, e.stopLimitPrice),
        sl: price(e.spec, e.sl),
        tp: price(e.spec, e.tp),
        comment: comment(e),
      })),
  };
}

/** The master terminal's snapshot at `nowMs` (tickets as strings). */
export function masterSnapshotBody(entries: readonly MasterEntry[], magic: number, nowMs: number): SnapshotInput {
  return {
    ts: Math.floor(nowMs / 1000),
    positions: entries
      .filter((e) => e.kind === "position")
      .map((e) => ({ ticket: String(e.ticket), symbol: e.spec.name, side: e.side, volume: formatLots(e.centiLots), openPrice: formatPrice(e.spec, e.price), sl: price(e.spec, e.sl), tp: price(e.spec, e.tp), magic })),
    orders: entries
      .filter((e) => e.kind === "pending")
      .map((e) => ({ ticket: String(e.ticket), symbol: e.spec.name, side: e.side, orderType: e.orderType, volume: formatLots(e.centiLots), price: formatPrice(e.spec, e.price), sl: price(e.spec, e.sl), tp: price(e.spec, e.tp), magic })),
  };
}
