/**
 * Store of a master follow-up (MODIFY, CLOSE, PENDING_MODIFY, PENDING_CANCEL; follow-signal.ts):
 * ONE query loads the live signal of the ticket (locked for update) with every slave's copy of it
 * (loadFollowContext); the write is the outbox statement of store/record-event.ts, which also
 * stores the signal's new state (signalChangesOf).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { OrderType, Side } from "#contract";
import type { Db } from "../../../db/client.ts";
import { copySettings, executions, positionLinks, signals, symbolSpecs } from "../../../db/schema.ts";
import type { SignalRow } from "../../signals/mappers.ts";
import type { CopyHolding, FollowPlan, SignalState } from "../domain/index.ts";
import type { SignalChanges } from "./record-event.ts";
import { settingsOf } from "../../copy-settings/settings-of.ts";
import { specOf } from "./row-mappers.ts";

export interface FollowContext {
  signal: SignalRow;
  /** Slaves holding a copy: an open position link, or an open order not yet reported. */
  holdings: CopyHolding[];
}

/**
 * Loads the active signal of `ticket` (row lock on the signal) and its holdings, oldest copy first:
 * per opening execution (OPEN / PENDING_OPEN) of the signal, its link; an open link → a holding
 * of the link's lots and ticket; no link and the open still pending → a holding of the ordered
 * lots (no ticket yet). Each holding carries the copy's own side and order type (a reversed copy
 * differs from the signal), the slave's current copyStopLoss / copyTakeProfit and the spec of the
 * copy's symbol. null when the ticket has no active signal.
 */
export async function loadFollowContext(tx: Db, tenantId: string, ticket: string): Promise<FollowContext | null> {
  const rows = await tx
    .select({ signal: signals, exec: executions, link: positionLinks, settings: copySettings.settings, spec: symbolSpecs })
    .from(signals)
    .leftJoin(executions, and(eq(executions.signalId, signals.id), inArray(executions.action, ["OPEN", "PENDING_OPEN"])))
    .leftJoin(positionLinks, and(eq(positionLinks.signalId, signals.id), eq(positionLinks.slaveAccountId, executions.slaveAccountId)))
    .leftJoin(copySettings, and(eq(copySettings.tenantId, signals.tenantId), eq(copySettings.slaveAccountId, executions.slaveAccountId)))
    .leftJoin(
      symbolSpecs,
      and(eq(symbolSpecs.tenantId, signals.tenantId), eq(symbolSpecs.accountId, executions.slaveAccountId), eq(symbolSpecs.symbol, executions.symbol)),
    )
    .where(and(eq(signals.tenantId, tenantId), eq(signals.masterTicket, ticket), eq(signals.status, "active")))
    .orderBy(sql`${executions.createdAt} nulls first`, executions.id)
    .for("update", { of: signals });
  const first = rows[0];
  if (!first) return null;
  const holdings: CopyHolding[] = [];
  for (const { exec, link, settings, spec } of rows) {
    if (!exec) continue;
    const volume = link ? (link.status === "open" ? link.volume : null) : exec.status === "pending" ? exec.volume : null;
    if (volume == null) continue;
    const s = settingsOf(settings === null ? null : { settings });
    holdings.push({
      slaveAccountId: exec.slaveAccountId,
      symbol: exec.symbol,
      slaveTicket: link ? link.slaveTicket : null,
      volume,
      side: exec.side as Side | null,
      orderType: exec.orderType as OrderType | null,
      maxSpreadPts: exec.maxSpreadPts,
      maxDeviationPts: exec.maxDeviationPts,
      copyStopLoss: s.copyStopLoss,
      copyTakeProfit: s.copyTakeProfit,
      spec: specOf(spec),
    });
  }
  return { signal: first.signal, holdings };
}

/** The signal row as the domain's signal state. */
export function signalStateOf(s: SignalRow): SignalState {
  return {
    id: s.id,
    ticket: s.masterTicket,
    symbol: s.symbol,
    side: s.side as Side,
    orderType: s.orderType as OrderType,
    volume: s.volume,
    price: s.price,
    stopLimitPrice: s.stopLimitPrice,
    sl: s.sl,
    tp: s.tp,
    magic: s.magic,
    masterClosed: s.masterClosedAt !== null,
  };
}

/**
 * What the follow-up changes on the signal row, as today: a close/cancel sets the remaining volume
 * (and, when full, the master close time and final status); a modify sets SL/TP (and a pending
 * modify the new prices).
 */
export function signalChangesOf(plan: Extract<FollowPlan, { kind: "plan" }>, type: "MODIFY" | "CLOSE" | "PENDING_MODIFY" | "PENDING_CANCEL", now: Date): SignalChanges {
  const next = plan.signal;
  if (type === "CLOSE" || type === "PENDING_CANCEL") {
    return { volume: next.volume, ...(next.masterClosed ? { masterClosedAt: now, finalStatus: next.finalStatus } : {}) };
  }
  return { sl: next.sl, tp: next.tp, ...(type === "PENDING_MODIFY" ? { price: next.price, stopLimitPrice: next.stopLimitPrice } : {}) };
}
