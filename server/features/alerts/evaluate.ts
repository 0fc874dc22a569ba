/**
 * When an alert configuration fires (spec §9 alert types), as pure functions. Thresholds come
 * from the configuration, with the form's placeholders as defaults (§5): slippage 2.0 points,
 * latency 500 ms, daily drawdown 5.0 %; slave_disconnect after 60 s without a heartbeat,
 * missed_trade when an order is not reported within 30 s.
 * - copy_failure: an execution rejected (by a copy rule or the broker) or in error.
 * - slippage_high: adverse slippage (worse for the trader) of at least the threshold, in points.
 * - latency_high: a report latency of at least the threshold, ms.
 * - daily_dd: the slave's loss since its equity at the start of its broker day (the base of the
 *   daily loss stop, copy-engine/domain/protection.ts) reaches the threshold, %; the same configs
 *   also carry the close-only alert when protection stops a slave's new opens (no new alert type:
 *   the spec's list stays as it is).
 */
import Big from "big.js";
import type { AlertThresholds, AlertType } from "#contract";
import { DEFAULT_ALERT_THRESHOLDS as DEFAULTS, DEFAULT_DISCONNECT_SECONDS, DEFAULT_MISSED_TRADE_SECONDS } from "#contract";

export interface ExecutionFacts {
  id: string;
  action: string;
  status: string;
  symbol: string | null;
  side: string | null;
  volume: string | null;
  errorMessage: string | null;
  errorCode: number | null;
  latencyMs: number | null;
  slippagePts: string | null;
}

/** A condition met for one account, before rate limiting. `key` de-duplicates repeats. */
export interface Firing {
  key: string;
  summary: string;
  details: Record<string, unknown>;
}

export function disconnectSeconds(t: AlertThresholds): number {
  return t.disconnectSeconds ?? DEFAULT_DISCONNECT_SECONDS;
}
export function missedTradeSeconds(t: AlertThresholds): number {
  return t.missedTradeSeconds ?? DEFAULT_MISSED_TRADE_SECONDS;
}

const what = (e: ExecutionFacts) => [e.action, e.symbol, e.side, e.volume].filter(Boolean).join(" ");

/** Whether an execution event fires a config of `type` (null when it does not). */
export function evaluateExecution(type: AlertType, t: AlertThresholds, e: ExecutionFacts): Firing | null {
  switch (type) {
    case "copy_failure":
      if (e.status !== "rejected" && e.status !== "error") return null;
      return {
        key: `exec:${e.id}:${e.status}`,
        summary: `${what(e)} ${e.status}: ${e.errorMessage ?? "no reason given"}${e.errorCode != null ? ` (${e.errorCode})` : ""}`,
        details: { executionId: e.id, status: e.status, errorMessage: e.errorMessage },
      };
    case "slippage_high": {
      if (e.slippagePts == null) return null;
      const limit = t.slippageThreshold ?? DEFAULTS.slippageThreshold;
      const adverse = new Big(e.slippagePts).times(-1);
      if (adverse.lt(limit)) return null;
      return {
        key: `slip:${e.id}`,
        summary: `${what(e)} slipped ${e.slippagePts} pts (threshold ${limit} pts against the trader)`,
        details: { executionId: e.id, slippagePts: e.slippagePts, threshold: limit },
      };
    }
    case "latency_high": {
      if (e.latencyMs == null) return null;
      const limit = t.latencyThreshold ?? DEFAULTS.latencyThreshold;
      if (e.latencyMs < limit) return null;
      return {
        key: `lat:${e.id}`,
        summary: `${what(e)} took ${e.latencyMs} ms (threshold ${limit} ms)`,
        details: { executionId: e.id, latencyMs: e.latencyMs, threshold: limit },
      };
    }
    case "slave_disconnect":
    case "missed_trade":
    case "daily_dd":
      return null;
  }
}

/** daily_dd: fires once per account per broker day (`day`, YYYY-MM-DD) when the loss (%) reaches the threshold. */
export function evaluateDailyDrawdown(t: AlertThresholds, lossPct: number, day: string): Firing | null {
  const limit = t.drawdownThreshold ?? DEFAULTS.drawdownThreshold;
  if (lossPct < limit) return null;
  return { key: `dd:${day}`, summary: `Daily drawdown ${lossPct.toFixed(2)}% reached the ${limit}% threshold`, details: { lossPct, threshold: limit, day } };
}

/**
 * Close-only (through daily_dd configs, whatever their threshold): a slave went close-only on
 * `brokerDay` (YYYY-MM-DD, broker time); `label` e.g. "S1 (7001)". Once per code and broker day.
 */
export function evaluateCloseOnly(label: string, code: string, reason: string, brokerDay: string): Firing {
  return { key: `close-only:${code}:${brokerDay}`, summary: `${label} is close-only: ${reason}`, details: { code, reason, brokerDay } };
}

/** slave_disconnect: fires once per silence (keyed by the last heartbeat seen). */
export function evaluateDisconnect(t: AlertThresholds, lastHeartbeat: Date, now: Date): Firing | null {
  const limit = disconnectSeconds(t);
  const silent = Math.floor((now.getTime() - lastHeartbeat.getTime()) / 1000);
  if (silent < limit) return null;
  return {
    key: `hb:${lastHeartbeat.toISOString()}`,
    summary: `No heartbeat for ${silent} s (threshold ${limit} s); last seen ${lastHeartbeat.toISOString()}`,
    details: { lastHeartbeat: lastHeartbeat.toISOString(), silentSeconds: silent, threshold: limit },
  };
}

/** missed_trade: fires once per order left unreported past the threshold. */
export function evaluateMissedTrade(t: AlertThresholds, e: ExecutionFacts, createdAt: Date, now: Date): Firing | null {
  const limit = missedTradeSeconds(t);
  const age = Math.floor((now.getTime() - createdAt.getTime()) / 1000);
  if (e.status !== "pending" || age < limit) return null;
  return {
    key: `miss:${e.id}`,
    summary: `${what(e)} not reported by the slave EA after ${age} s (threshold ${limit} s)`,
    details: { executionId: e.id, ageSeconds: age, threshold: limit },
  };
}
