/**
 * The copy rules as pure functions (conventions habit 7): master event + slave state + limits →
 * order or rejection. No I/O here; every rule is unit-tested in rules.test.ts.
 * Decimal maths uses big.js on the numeric strings from the database — never floats — so a lot
 * size like 0.29 × 1 stays 0.29 (0.29 * 100 in floating point is 28.999…).
 * Units: volumes in lots, distances in points, money in account currency, percentages 0–100.
 */
import Big from "big.js";
import type { EaProfile, Side } from "#contract";

/** Lot step and minimum lot of every copy (spec'd by the bridge issue: round down to 0.01, ≥ 0.01). */
export const LOT_STEP = "0.01";

export interface SymbolMapping {
  slaveSymbol: string;
  /** numeric string, > 0 */
  lotMultiplier: string;
  enabled: boolean;
}

export interface RiskLimitState {
  enabled: boolean;
  maxLotSize: string;
  maxPositions: number;
  /** Daily loss stop, percent of the start-of-day (UTC) balance. */
  maxDrawdownPct: string;
  maxSpreadPts: number;
  maxDeviationPts: number;
}

/** What the engine knows about one slave when a new position or pending order arrives. */
export interface SlaveState {
  accountId: string;
  status: string;
  balance: string;
  equity: string;
  /** First balance reported on the current UTC day; null until the EA's first heartbeat that day. */
  dayStartBalance: string | null;
  /** Copied positions and pending orders held, plus opens still in flight. */
  openPositions: number;
  mapping: SymbolMapping | null;
  limit: RiskLimitState | null;
  profile: EaProfile | null;
}

export type CopyDecision =
  /** Not copied and not recorded: the slave is off (not active) or the tenant paused copying. */
  | { kind: "skip"; reason: string }
  /** Blocked by a rule: recorded as a `rejected` execution with `reason`. */
  | { kind: "reject"; symbol: string; volume: string | null; reason: string }
  | {
      kind: "order";
      symbol: string;
      volume: string;
      /** Volume before the maxLotSize clamp. */
      requestedVolume: string;
      clamped: boolean;
      maxSpreadPts: number | null;
      maxDeviationPts: number | null;
    };

/** master volume × multiplier, rounded down to 0.01 lot, at least 0.01. Returns a 2-decimal string. */
export function scaleVolume(masterVolume: string, lotMultiplier: string): string {
  const scaled = new Big(masterVolume).times(lotMultiplier).round(2, Big.roundDown);
  return (scaled.lt(LOT_STEP) ? new Big(LOT_STEP) : scaled).toFixed(2);
}

/** Caps `volume` at `maxLotSize` (itself rounded down to 0.01). */
export function clampVolume(volume: string, maxLotSize: string): { volume: string; clamped: boolean } {
  const cap = new Big(maxLotSize).round(2, Big.roundDown);
  if (new Big(volume).gt(cap)) return { volume: cap.toFixed(2), clamped: true };
  return { volume, clamped: false };
}

/** Loss since the start of the UTC day as a percentage of that day's opening balance (≥ 0). */
export function dailyLossPct(dayStartBalance: string | null, equity: string): number {
  if (!dayStartBalance) return 0;
  const start = new Big(dayStartBalance);
  if (start.lte(0)) return 0;
  const loss = start.minus(equity);
  return loss.lte(0) ? 0 : Number(loss.div(start).times(100).toFixed(4));
}

const inList = (list: string[], symbol: string) => list.some((s) => s.trim().toUpperCase() === symbol.toUpperCase());

/**
 * Decides the copy of a new position (OPEN) or pending order (PENDING_OPEN) for one slave.
 * Order of checks: slave off / tenant paused → mapping disabled → whitelist/blacklist →
 * max positions → daily loss stop → minimum equity → lot clamp. Limits apply only when the
 * slave's risk limit exists and is enabled.
 */
export function decideOpen(
  event: { symbol: string; volume: string; copyPaused: boolean },
  slave: SlaveState,
): CopyDecision {
  if (event.copyPaused) return { kind: "skip", reason: "Copying is paused" };
  if (slave.status !== "active") return { kind: "skip", reason: `Account is ${slave.status}` };

  const mapping = slave.mapping;
  const symbol = mapping ? mapping.slaveSymbol : event.symbol;
  if (mapping && !mapping.enabled) {
    return { kind: "reject", symbol, volume: null, reason: `Symbol mapping disabled for ${event.symbol}` };
  }
  const requested = scaleVolume(event.volume, mapping ? mapping.lotMultiplier : "1");

  const limit = slave.limit?.enabled ? slave.limit : null;
  if (!limit) {
    return { kind: "order", symbol, volume: requested, requestedVolume: requested, clamped: false, maxSpreadPts: null, maxDeviationPts: null };
  }
  const reject = (reason: string): CopyDecision => ({ kind: "reject", symbol, volume: requested, reason });
  const profile = slave.profile;
  if (profile && profile.symbolWhitelist.length > 0 && !inList(profile.symbolWhitelist, symbol)) {
    return reject(`Symbol ${symbol} is not in the whitelist`);
  }
  if (profile && inList(profile.symbolBlacklist, symbol)) return reject(`Symbol ${symbol} is blacklisted`);
  if (slave.openPositions >= limit.maxPositions) return reject(`Max positions reached (${limit.maxPositions})`);
  const loss = dailyLossPct(slave.dayStartBalance, slave.equity);
  if (new Big(limit.maxDrawdownPct).gt(0) && new Big(loss).gte(limit.maxDrawdownPct)) {
    return reject(`Daily loss stop reached (${loss.toFixed(2)}% ≥ ${new Big(limit.maxDrawdownPct).toString()}%)`);
  }
  if (profile && new Big(profile.equityMin).gt(0) && new Big(slave.equity).lt(profile.equityMin)) {
    return reject(`Equity ${new Big(slave.equity).toFixed(2)} is below the minimum ${new Big(profile.equityMin).toFixed(2)}`);
  }
  if (new Big(limit.maxLotSize).round(2, Big.roundDown).lt(LOT_STEP)) {
    return reject(`Max lot size ${new Big(limit.maxLotSize).toString()} is below the minimum lot ${LOT_STEP}`);
  }
  const { volume, clamped } = clampVolume(requested, limit.maxLotSize);
  return {
    kind: "order",
    symbol,
    volume,
    requestedVolume: requested,
    clamped,
    maxSpreadPts: limit.maxSpreadPts,
    maxDeviationPts: limit.maxDeviationPts,
  };
}

/**
 * Share of the master position a close removes: `closed / open`, or 1 for a full close
 * (closed omitted, 0, or ≥ the open volume).
 */
export function closeFraction(openVolume: string, closedVolume: string | undefined): { fraction: Big; full: boolean } {
  if (!closedVolume || new Big(closedVolume).lte(0) || new Big(closedVolume).gte(openVolume)) {
    return { fraction: new Big(1), full: true };
  }
  return { fraction: new Big(closedVolume).div(openVolume), full: false };
}

/**
 * Volume a slave closes for a master close of `fraction`: the whole copy on a full close,
 * otherwise copy × fraction rounded down to 0.01, at least 0.01, at most the copy.
 */
export function slaveCloseVolume(slaveVolume: string, fraction: Big, full: boolean): string {
  const held = new Big(slaveVolume);
  if (full) return held.toFixed(2);
  let v = held.times(fraction).round(2, Big.roundDown);
  if (v.lt(LOT_STEP)) v = new Big(LOT_STEP);
  if (v.gt(held)) v = held;
  return v.toFixed(2);
}

/** Remaining master volume after closing `closedVolume` (never negative), 2+ decimals kept. */
export function remainingVolume(openVolume: string, closedVolume: string | undefined, full: boolean): string {
  if (full || !closedVolume) return "0";
  const left = new Big(openVolume).minus(closedVolume);
  return left.lt(0) ? "0" : left.toString();
}

/**
 * Slippage in points, positive = better for the trader than the master price: buying lower or
 * selling higher. `tradeSide` is the side of the fill itself (closing a BUY is a sell).
 * Rounded to 0.1 point.
 */
export function slippagePoints(tradeSide: Side, masterPrice: string, fillPrice: string, point: string): string {
  const p = new Big(point);
  if (p.lte(0)) throw new RangeError("point must be positive");
  const diff = tradeSide === "BUY" ? new Big(masterPrice).minus(fillPrice) : new Big(fillPrice).minus(masterPrice);
  return diff.div(p).round(1, Big.roundHalfUp).toFixed(1);
}

export const opposite = (side: Side): Side => (side === "BUY" ? "SELL" : "BUY");
