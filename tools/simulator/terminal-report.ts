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

/**
 * The magic the simulated slave EA puts on its copies (the slave EA's default InpMagic), sent as
 * the heartbeat's `copyMagic` and on every copy in its snapshots (docs/bridge-protocol.md §10.1).
 */
export const SIM_COPY_MAGIC = "20241121";

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

/** The price a position would close at now: bid for BUY, ask for SELL (null when not quoted or no market given). */
function currentPrice(spec: SymbolSpec, side: "BUY" | "SELL", market: Market | undefined): string | null {
  const q = market?.quote(spec.name);
  if (!q) return null;
  return formatPrice(spec, side === "BUY" ? q.bid : q.ask);
}

/**
 * A slave terminal's snapshot at `nowMs`: tickets as strings, copies commented `cb:<masterTicket>`
 * and carrying SIM_COPY_MAGIC, positions with their `currentPrice` when `market` is given.
 */
export function slaveSnapshotBody(entries: readonly BookEntry[], nowMs: number, market?: Market): SnapshotInput {
  const comment = (e: BookEntry) => (e.masterTicket ? `cb:${e.masterTicket}` : null);
  const magic = (e: BookEntry) => (e.masterTicket ? SIM_COPY_MAGIC : null);
  return {
    ts: Math.floor(nowMs / 1000),
    positions: entries
      .filter((e) => e.kind === "position")
      .map((e) => ({
        ticket: e.ticket,
        symbol: e.symbol,
        side: e.side,
        volume: formatLots(e.centiLots),
        openPrice: formatPrice(e.spec, e.price),
        sl: price(e.spec, e.sl),
        tp: price(e.spec, e.tp),
        currentPrice: currentPrice(e.spec, e.side, market),
        magic: magic(e),
        comment: comment(e),
      })),
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
        magic: magic(e),
        comment: comment(e),
      })),
  };
}

/** The master terminal's snapshot at `nowMs` (tickets as strings; positions with `currentPrice` when `market` is given). */
export function masterSnapshotBody(entries: readonly MasterEntry[], magic: number, nowMs: number, market?: Market): SnapshotInput {
  return {
    ts: Math.floor(nowMs / 1000),
    positions: entries
      .filter((e) => e.kind === "position")
      .map((e) => ({
        ticket: String(e.ticket),
        symbol: e.spec.name,
        side: e.side,
        volume: formatLots(e.centiLots),
        openPrice: formatPrice(e.spec, e.price),
        sl: price(e.spec, e.sl),
        tp: price(e.spec, e.tp),
        currentPrice: currentPrice(e.spec, e.side, market),
        magic,
      })),
    orders: entries
      .filter((e) => e.kind === "pending")
      .map((e) => ({ ticket: String(e.ticket), symbol: e.spec.name, side: e.side, orderType: e.orderType, volume: formatLots(e.centiLots), price: formatPrice(e.spec, e.price), sl: price(e.spec, e.sl), tp: price(e.spec, e.tp), magic })),
  };
}
