/**
 * Shared types of the copy engine's pure decision core (docs/architecture.md "Copy engine").
 * Nothing in domain/ does I/O: no database, no Fastify, no realtime/ (an ESLint rule enforces it).
 * The store/ loads these shapes, a domain function decides, the store writes the decision.
 *
 * Units: volumes in lots, prices as quoted, money in the account's currency — all as decimal
 * strings (`Decimal`), computed with big.js, never JS floats. Times are unix ms unless named
 * otherwise. Distances are points.
 */
import type { CloseOnlyCode, CopySettingsValues, EaProfile, OrderType, Side } from "#contract";

/** A decimal number as text ("0.10", "1.08512"): lots, prices, money. */
export type Decimal = string;

/** Volume limits and tick economics of one slave symbol (docs/bridge-protocol.md §6.4). */
export interface SymbolVolumeSpec {
  volumeStep: Decimal;
  volumeMin: Decimal;
  volumeMax: Decimal;
  /** Price change of one tick, and its value for 1 lot in the slave's account currency (null = not reported). */
  tickSize: Decimal | null;
  tickValue: Decimal | null;
  /** true when the slave has not reported the symbol: step 0.01, min 0.01, max 100 are used instead. */
  isDefault: boolean;
}

/** Used until a slave reports the symbol's specification. */
export const DEFAULT_VOLUME_SPEC: SymbolVolumeSpec = { volumeStep: "0.01", volumeMin: "0.01", volumeMax: "100", tickSize: null, tickValue: null, isDefault: true };

export interface MappingState {
  slaveSymbol: string;
  /** > 0 */
  lotMultiplier: Decimal;
  enabled: boolean;
}

export interface RiskLimitState {
  enabled: boolean;
  maxLotSize: Decimal;
  maxPositions: number;
  /** Daily loss stop, percent of the equity at the start of the slave's broker day. */
  maxDrawdownPct: Decimal;
  maxSpreadPts: number;
  maxDeviationPts: number;
}

/** Close-only protection state (contract CloseOnlyState); `since` unix ms. */
export interface CloseOnly {
  code: CloseOnlyCode;
  reason: string;
  sinceMs: number;
}

/** What the engine knows about one slave when a master open arrives. */
export interface SlaveState {
  accountId: string;
  /** accounts.status: active | paused | error | … */
  status: string;
  balance: Decimal;
  equity: Decimal;
  /** Last heartbeat (unix ms); null = the EA never reported, so balance and equity are unknown. */
  lastHeartbeatMs: number | null;
  /** Broker time − UTC in seconds as the EA reports it; null = unknown (UTC is assumed). */
  brokerUtcOffsetSec: number | null;
  /** Copied positions and pending orders held, plus opens still in flight. */
  openPositions: number;
  /** Mapping of the master symbol for this slave; null = same symbol name, multiplier 1. */
  mapping: MappingState | null;
  limit: RiskLimitState | null;
  profile: EaProfile | null;
  settings: CopySettingsValues;
  /** Spec of the slave symbol (mapped name), DEFAULT_VOLUME_SPEC when not reported. */
  spec: SymbolVolumeSpec;
  closeOnly: CloseOnly | null;
}

/** Master account figures from its latest heartbeat; null when never reported. */
export interface MasterState {
  balance: Decimal | null;
  equity: Decimal | null;
}

/** A master OPEN (market position) or PENDING_OPEN (pending order). */
export interface MasterOpen {
  type: "OPEN" | "PENDING_OPEN";
  ticket: string;
  symbol: string;
  side: Side;
  orderType: OrderType;
  /** Lots, > 0. */
  volume: Decimal;
  price: Decimal;
  stopLimitPrice: Decimal | null;
  sl: Decimal | null;
  tp: Decimal | null;
  magic: string | null;
  /** The master's event time (wire `ts`), unix ms. */
  eventTimeMs: number;
  /**
   * Where the open came from: a live master event (`signal`, the default) or a master snapshot
   * showing a position the server had no signal for (`snapshot`, reconcile.ts). A snapshot open
   * older than the lifetime is rejected `opened_while_disconnected` instead of `expired`.
   */
  origin?: "signal" | "snapshot";
}

/** Why a copy was not made: a stable code (stored in executions.reason_code) and a readable text. */
export type VerdictCode =
  | "paused"
  | "slave_inactive"
  | "mapping_disabled"
  | "side_filtered"
  | "magic_filtered"
  | "pending_skipped"
  | "reverse_unsupported"
  | "expired"
  | "opened_while_disconnected"
  | "outside_hours"
  | "symbol_not_whitelisted"
  | "symbol_blacklisted"
  | "max_positions"
  | "close_only"
  | "no_balance"
  | "no_sl"
  | "no_symbol_spec"
  | "max_lot_below_min"
  | "volume_too_small"
  | "account_deleted";

/**
 * The decision for one slave on a master open.
 * - `skip`: not copied; recorded as a `skipped` execution with its code, never delivered (copying
 *   paused, slave not active, or one of the slave's own filters: side, magic, pending orders);
 *   listed in the master's audit entry.
 * - `reject`: not copied, recorded as a `rejected` execution with code and reason.
 * - `order`: queued for the slave.
 */
export type OpenPlan =
  | { kind: "skip"; code: VerdictCode; reason: string }
  | { kind: "reject"; code: VerdictCode; reason: string; symbol: string; volume: Decimal | null }
  | {
      kind: "order";
      symbol: string;
      /** After `reverse`. */
      side: Side;
      orderType: OrderType;
      /** Final volume: sized, bounded, clamped to maxLotSize, normalised to the symbol's step/min/max. */
      volume: Decimal;
      /** Volume before the maxLotSize clamp and the symbol maximum. */
      requestedVolume: Decimal;
      clamped: boolean;
      price: Decimal;
      stopLimitPrice: Decimal | null;
      /** After reverse and copyStopLoss / copyTakeProfit. */
      sl: Decimal | null;
      tp: Decimal | null;
      /** Master event time + signalLifetimeSeconds, unix ms. */
      expiresAtMs: number;
      maxSpreadPts: number | null;
      maxDeviationPts: number | null;
      /** The volume was normalised with DEFAULT_VOLUME_SPEC. */
      defaultSpec: boolean;
    };

/** A master follow-up event on an existing signal. */
export interface MasterFollow {
  type: "MODIFY" | "CLOSE" | "PENDING_MODIFY" | "PENDING_CANCEL";
  /** CLOSE: lots closed (null/absent/0/≥ open volume = full close). */
  volume: Decimal | null;
  /** CLOSE: the master's close price; MODIFY/PENDING_MODIFY: the new order price (pending). */
  price: Decimal | null;
  stopLimitPrice: Decimal | null;
  sl: Decimal | null;
  tp: Decimal | null;
}

/** The signal (master ticket) a follow-up applies to. */
export interface SignalState {
  id: string;
  ticket: string;
  symbol: string;
  side: Side;
  orderType: OrderType;
  /** Master volume still open, lots. */
  volume: Decimal;
  price: Decimal;
  stopLimitPrice: Decimal | null;
  sl: Decimal | null;
  tp: Decimal | null;
  magic: string | null;
  /** The master already closed or cancelled the ticket. */
  masterClosed: boolean;
}

/** One slave's copy of a signal that a follow-up acts on (an open link, or an open not yet reported). */
export interface CopyHolding {
  slaveAccountId: string;
  symbol: string | null;
  /** null while the open is not reported yet. */
  slaveTicket: string | null;
  /** Lots held (link) or ordered (open still pending). */
  volume: Decimal;
  /** The copy's own side and order type (differ from the signal's when it was reversed). */
  side: Side | null;
  orderType: OrderType | null;
  maxSpreadPts: number | null;
  maxDeviationPts: number | null;
  /** The slave's current settings for SL/TP copying. */
  copyStopLoss: boolean;
  copyTakeProfit: boolean;
  spec: SymbolVolumeSpec;
}
