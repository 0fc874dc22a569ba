/**
 * Protection that acts (issue 12, docs/bridge-protocol.md "Protection"): on every slave heartbeat
 * the server decides whether the slave copies normally or is **close-only** (no new opens;
 * modifies and closes are still copied). Pure: the heartbeat's transaction loads the stored state,
 * calls `evaluateProtection`, and writes the result back to the account.
 *
 * - Broker day: the calendar date of (now UTC + the EA's `brokerUtcOffsetSec`), UTC when the EA
 *   has not reported an offset. The first heartbeat of a new broker day stores that heartbeat's
 *   equity as `dayStartEquity`, the base of the daily loss stop and the daily profit target, and
 *   clears close-only and the "resumed by hand" marker: a new day starts copying normally (and
 *   may trip again that same day).
 * - Trips (only while the slave's risk limit exists and is enabled), checked in this order:
 *   1. `daily_loss`: (dayStartEquity − equity) / dayStartEquity × 100 ≥ maxDrawdownPct (> 0);
 *   2. `profit_target`: (equity − dayStartEquity) / dayStartEquity × 100 ≥ the copy settings'
 *      dailyProfitTargetPct (not null);
 *   3. `equity_min`: the EA profile's equityMin > 0 and equity < equityMin.
 * - Once close-only, the slave stays so until the next broker day or a manual resume; a trip does
 *   not replace the code that put it there. After a manual resume (`resumedDay` = the current
 *   broker day) nothing trips again until the next broker day.
 *
 * Units: equity in the account currency and percentages 0–100, all decimal strings computed with
 * big.js; times unix ms; the broker offset in seconds.
 */
import Big from "big.js";
import type { CloseOnly, Decimal } from "./types.ts";

/** What the account stores between heartbeats (accounts.broker_day, day_start_equity, close_only_*). */
export interface StoredProtection {
  /** YYYY-MM-DD in broker time; null before the first heartbeat. */
  brokerDay: string | null;
  dayStartEquity: Decimal | null;
  closeOnly: CloseOnly | null;
  /** Broker day of the last manual resume; null = never. */
  resumedDay: string | null;
}

export interface ProtectionInput {
  /** Heartbeat time, unix ms. */
  nowMs: number;
  /** Broker time − UTC, seconds; null = unknown (UTC is used). */
  brokerUtcOffsetSec: number | null;
  /** Equity the heartbeat reported (account currency). */
  equity: Decimal;
  stored: StoredProtection;
  /** The slave's risk limit (null = none): protection acts only when it exists and is enabled. */
  limit: { enabled: boolean; maxDrawdownPct: Decimal } | null;
  /** EA profile minimum equity (account currency); null or ≤ 0 = no minimum. */
  equityMin: Decimal | null;
  /** Copy settings daily profit target, percent of the day-start equity; null = none. */
  dailyProfitTargetPct: Decimal | null;
}

export interface ProtectionResult {
  brokerDay: string;
  dayStartEquity: Decimal;
  closeOnly: CloseOnly | null;
  resumedDay: string | null;
  /** The slave went close-only on this heartbeat (the previous state was null or was cleared by a new day). */
  entered: boolean;
  /** A close-only state ended because a new broker day began. */
  cleared: boolean;
  /** A new broker day began on this heartbeat (dayStartEquity was (re)set). */
  newDay: boolean;
}

/** Broker calendar day (YYYY-MM-DD) of the UTC instant `utcMs` for a broker offset in seconds (null = UTC). */
export function brokerDayOf(utcMs: number, offsetSec: number | null): string {
  return new Date(utcMs + (offsetSec ?? 0) * 1000).toISOString().slice(0, 10);
}

/** Loss since the day start as a percentage of the day-start equity; 0 when there is no loss or no base. */
export function dailyLossPct(dayStartEquity: Decimal | null, equity: Decimal): Big {
  if (dayStartEquity === null) return new Big(0);
  const start = new Big(dayStartEquity);
  if (start.lte(0)) return new Big(0);
  const loss = start.minus(equity);
  return loss.lte(0) ? new Big(0) : loss.div(start).times(100);
}

/** Gain since the day start as a percentage of the day-start equity; 0 when there is no gain or no base. */
export function dailyGainPct(dayStartEquity: Decimal | null, equity: Decimal): Big {
  if (dayStartEquity === null) return new Big(0);
  const start = new Big(dayStartEquity);
  if (start.lte(0)) return new Big(0);
  const gain = new Big(equity).minus(start);
  return gain.lte(0) ? new Big(0) : gain.div(start).times(100);
}

/** The rule that trips for these figures, or null. Order: daily loss, profit target, minimum equity. */
export function protectionTrip(
  input: Pick<ProtectionInput, "equity" | "limit" | "equityMin" | "dailyProfitTargetPct">,
  dayStartEquity: Decimal | null,
): Omit<CloseOnly, "sinceMs"> | null {
  if (!input.limit?.enabled) return null;
  const maxLoss = new Big(input.limit.maxDrawdownPct);
  if (maxLoss.gt(0)) {
    const loss = dailyLossPct(dayStartEquity, input.equity);
    if (loss.gt(0) && loss.gte(maxLoss)) {
      return { code: "daily_loss", reason: `Daily loss stop reached (${loss.toFixed(2)}% ≥ ${maxLoss.toString()}%)` };
    }
  }
  if (input.dailyProfitTargetPct !== null) {
    const target = new Big(input.dailyProfitTargetPct);
    const gain = dailyGainPct(dayStartEquity, input.equity);
    if (target.gt(0) && gain.gte(target)) {
      return { code: "profit_target", reason: `Daily profit target reached (${gain.toFixed(2)}% ≥ ${target.toString()}%)` };
    }
  }
  if (input.equityMin !== null && new Big(input.equityMin).gt(0) && new Big(input.equity).lt(input.equityMin)) {
    return { code: "equity_min", reason: `Equity ${new Big(input.equity).toFixed(2)} is below the minimum ${new Big(input.equityMin).toFixed(2)}` };
  }
  return null;
}

/**
 * The protection state after one slave heartbeat (see the module comment for the rules).
 * Never throws for well-formed decimals; a malformed decimal string makes big.js throw.
 */
export function evaluateProtection(input: ProtectionInput): ProtectionResult {
  const brokerDay = brokerDayOf(input.nowMs, input.brokerUtcOffsetSec);
  const { stored } = input;
  const dayChanged = stored.brokerDay !== brokerDay;
  const newDay = dayChanged || stored.dayStartEquity === null;
  const dayStartEquity = newDay ? input.equity : (stored.dayStartEquity as Decimal);
  const cleared = dayChanged && stored.closeOnly !== null;
  const carried = dayChanged ? null : stored.closeOnly;
  // A resume marker counts only for its own broker day (the resume route may run before the
  // first heartbeat of that day has moved brokerDay forward).
  const resumedDay = stored.resumedDay === brokerDay ? brokerDay : null;

  if (carried !== null) return { brokerDay, dayStartEquity, closeOnly: carried, resumedDay, entered: false, cleared, newDay };
  const trip = resumedDay === brokerDay ? null : protectionTrip(input, dayStartEquity);
  return {
    brokerDay,
    dayStartEquity,
    closeOnly: trip ? { ...trip, sinceMs: input.nowMs } : null,
    resumedDay,
    entered: trip !== null,
    cleared,
    newDay,
  };
}
