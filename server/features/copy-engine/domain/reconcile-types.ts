/**
 * Shapes of reconciliation (issue 14, docs/bridge-protocol.md §10): what reconcile.ts compares
 * and what it answers. Kept apart from the rules so the rule files share them without an import
 * cycle; reconcile.ts re-exports every name.
 *
 * Units: volumes in lots, prices as quoted, decimal strings (big.js); times unix ms; deviations
 * in points of the slave symbol.
 */
import type { OrderType, Side, SyncDifference, SyncOrder, SyncSkip } from "#contract";
import type { Decimal, MasterOpen, SymbolVolumeSpec } from "./types.ts";

// ---------------------------------------------------------------- master side

/** A master position as its snapshot shows it. `openTimeMs`: null when the EA did not send it. */
export interface BookPosition {
  ticket: string;
  symbol: string;
  side: Side;
  volume: Decimal;
  openPrice: Decimal;
  sl: Decimal | null;
  tp: Decimal | null;
  openTimeMs: number | null;
  /** Bid (BUY) / ask (SELL) at the snapshot; null when not sent. */
  currentPrice: Decimal | null;
  magic: string | null;
  comment: string | null;
}

/** A pending order as its snapshot shows it. */
export interface BookOrder {
  ticket: string;
  symbol: string;
  side: Side;
  orderType: Exclude<OrderType, "MARKET">;
  volume: Decimal;
  price: Decimal;
  stopLimitPrice: Decimal | null;
  sl: Decimal | null;
  tp: Decimal | null;
  setupTimeMs: number | null;
  magic: string | null;
  comment: string | null;
}

/** An active signal the master has not closed (one per leg on a netting master). */
export interface LiveSignal {
  id: string;
  ticket: string;
  /** 0 = the opening; netting additions 1, 2 … (copy-engine domain/netting.ts). */
  leg: number;
  symbol: string;
  side: Side;
  orderType: OrderType;
  /** Master lots still open. */
  volume: Decimal;
  price: Decimal;
  sl: Decimal | null;
  tp: Decimal | null;
  openedAtMs: number;
}

export interface MasterReconcileInput {
  snapshotTsMs: number;
  positions: BookPosition[];
  orders: BookOrder[];
  /** Active signals with the master close not yet applied. */
  signals: LiveSignal[];
  /** Tickets the PREVIOUS master snapshot already did not show (sync_states.missing_tickets). */
  previouslyMissing: string[];
  /** The master's margin mode is netting: a position whose volume grew is an addition (a new leg). */
  netting: boolean;
}

/**
 * What the server does for a master snapshot; each action goes through the copy engine as the
 * master event it stands for, marked `origin: "snapshot"` ("from snapshot" on Live Trades).
 * - `open`: a master position / pending order with no signal (missed open). Its event time is
 *   the position's open time (setup time for a pending order; the snapshot time when absent), so
 *   the open path's lifetime check decides, per slave, copied or "opened while disconnected".
 * - `add`: netting master, the position holds more lots than its live legs: a new leg of `volume`.
 * - `close`: a signal two consecutive snapshots no longer show (`volume` null = all of it), or a
 *   position holding fewer lots than its live legs (`volume` = the lots missing; partial close).
 * - `cancel`: a pending signal two consecutive snapshots no longer show (neither as an order nor
 *   as a position of the same ticket).
 * - `modify`: the position's SL/TP differ from the signal's.
 */
export type MasterAction =
  | ({ kind: "open" } & Omit<MasterOpen, "origin">)
  | { kind: "add"; ticket: string; symbol: string; side: Side; volume: Decimal; price: Decimal; sl: Decimal | null; tp: Decimal | null; magic: string | null; eventTimeMs: number }
  | { kind: "close"; ticket: string; volume: Decimal | null; price: Decimal | null }
  | { kind: "cancel"; ticket: string }
  | { kind: "modify"; ticket: string; sl: Decimal | null; tp: Decimal | null };

export interface MasterReconcileResult {
  actions: MasterAction[];
  /** What the comparison found (missed_open, missed_close — the latter also while waiting for the second snapshot). */
  differences: SyncDifference[];
  /** Tickets of live signals this snapshot does not show (to store for the next comparison). */
  missing: string[];
}

// ---------------------------------------------------------------- slave side

/** What a slave should hold for one live master signal, as the copy settings give it NOW. */
export interface ExpectedCopy {
  signalId: string;
  masterTicket: string;
  leg: number;
  masterSymbol: string;
  masterSide: Side;
  orderType: OrderType;
  /** Master lots still open. */
  masterVolume: Decimal;
  masterPrice: Decimal;
  /** The master position's current price (its snapshot's currentPrice), null when unknown. */
  masterCurrentPrice: Decimal | null;
  /**
   * The copy the slave should hold (domain planOpen with the master's open volume, lifetime and
   * pause ignored), or null when the slave does not copy this signal (filtered, disabled mapping…).
   */
  expected: { symbol: string; side: Side; volume: Decimal; sl: Decimal | null; tp: Decimal | null } | null;
  /** The slave's open link for this signal (slave ticket null while the open is unreported), or null. */
  link: { slaveTicket: string | null; volume: Decimal } | null;
  /** An opening order for this signal is still pending on this slave (not reported): nothing to repair yet. */
  openInFlight: boolean;
  spec: SymbolVolumeSpec;
  /** Slave symbol point (price units per point), null when its spec was never reported. */
  point: Decimal | null;
}

/** A slave position as its snapshot shows it (same shape as a master one). */
export type SlavePositionInBook = BookPosition;

export interface SlaveReconcileInput {
  nowMs: number;
  positions: SlavePositionInBook[];
  /** The slave EA's copy magic (heartbeat copyMagic); null = unknown → copies recognised by their `cb:` comment only. */
  copyMagic: string | null;
  /** The slave's margin mode is netting: one position per symbol, compared by net volume. */
  netting: boolean;
  copies: ExpectedCopy[];
  /** Slave tickets with a close still pending on the slave (not an orphan yet). */
  closingTickets: string[];
  /** Deviation for opening a missing copy (points); null = none configured (then 0: only at the master's open price or better). */
  maxDeviationPts: number | null;
}

export interface SlaveReconcileResult {
  differences: SyncDifference[];
  /** The full repair plan (dry run shows it; Apply queues it). */
  orders: SyncOrder[];
  skipped: SyncSkip[];
}

