/**
 * Store of a master follow-up (MODIFY, CLOSE, PENDING_MODIFY, PENDING_CANCEL; follow-signal.ts):
 * ONE query loads the active signals (legs) of the ticket (locked for update) with every slave's
 * copy of each (loadFollowContexts); the write is the outbox statement of store/record-event.ts, which also
 * stores the signal's new state (signalChangesOf).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { OrderType, SignalEvent, Side } from "#contract";
import type { Db } from "../../../db/client.ts";
import { copySettings, executions, positionLinks, signals, symbolSpecs } from "../../../db/schema.ts";
import type { SignalRow } from "../../signals/mappers.ts";
import type { CopyHolding, FollowPlan, MasterFollow, SignalState } from "../domain/index.ts";
import type { LegState } from "../domain/legs.ts";
import type { SignalChanges } from "./record-event.ts";
import { settingsOf } from "../../copy-settings/settings-of.ts";
import { specOf } from "./row-mappers.ts";

export interface FollowContext {
  signal: SignalRow;
  /** Slaves holding a copy: an open position link, or an open order not yet reported. */
  holdings: CopyHolding[];
}

/**
 * Loads the active signals of `ticket` — its legs, oldest leg first (domain/legs.ts; one for any
 * hedging master's position) — with a row lock on each, and their holdings, in ONE query: per
 * opening execution (OPEN / PENDING_OPEN) of a leg, its link; an open link → a holding of the
 * link's lots and ticket; no link and the open still pending → a holding of the ordered lots (no
 * ticket yet); oldest copy first. Each holding carries the copy's own side and order type (a
 * reversed copy differs from the signal), the slave's current copyStopLoss / copyTakeProfit and
 * the spec of the copy's symbol. [] when the ticket has no active signal.
 */
/** The domain's view of a master follow-up event (wire `order` fields; CLOSE volume = lots closed). */
export function masterFollowOf(type: MasterFollow["type"], order: SignalEvent["order"]): MasterFollow {
  return { type, volume: order.volume ?? null, price: order.price ?? null, stopLimitPrice: order.stopLimitPrice ?? null, sl: order.sl, tp: order.tp };
}

export async function loadFollowContexts(tx: Db, tenantId: string, ticket: string): Promise<FollowContext[]> {
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
    .orderBy(signals.leg, sql`${executions.createdAt} nulls first`, executions.id)
    .for("update", { of: signals });
  const contexts = new Map<string, FollowContext>();
  for (const { signal, exec, link, settings, spec } of rows) {
    let context = contexts.get(signal.id);
    if (!context) {
      context = { signal, holdings: [] };
      contexts.set(signal.id, context);
    }
    if (!exec) continue;
    const volume = link ? (link.status === "open" ? link.volume : null) : exec.status === "pending" ? exec.volume : null;
    if (volume == null) continue;
    const s = settingsOf(settings === null ? null : { settings });
    // A reconciliation repair (origin sync) is a second opening order of the same copy: the
    // slave holds ONE copy per leg, the latest opening order's (rows come oldest first).
    context.holdings = context.holdings.filter((h) => h.slaveAccountId !== exec.slaveAccountId);
    context.holdings.push({
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
  // Map keeps insertion order: the rows come ordered by leg.
  return [...contexts.values()];
}

/** The ticket's legs as the domain's leg states (domain/legs.ts planLegsFollow). */
export function legStatesOf(contexts: FollowContext[]): LegState[] {
  return contexts.map((c) => ({
    leg: c.signal.leg,
    state: signalStateOf(c.signal),
    holdings: c.holdings,
    snapshotAtMs: c.signal.origin === "snapshot" ? c.signal.createdAt.getTime() : null,
  }));
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
