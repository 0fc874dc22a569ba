/**
 * Queueing a reconciliation plan (docs/bridge-protocol.md §10.3): each plan order becomes a
 * pending execution with origin `sync`, delivered like any order (the copy engine's effects path
 * hands it to a waiting slave at once).
 * - OPEN (missing copy): on the copy's signal, its comment, the plan's volume/price/SL/TP and
 *   deviation, expiring the slave's signal lifetime after now. A stale link (the copy closed by
 *   hand, or closed by the same plan) is deleted so the open's report inserts a fresh one with
 *   the new ticket and volume; a netting slave's addition to a position it still holds keeps it.
 * - CLOSE / MODIFY: on the slave ticket; on the copy's signal when a link names that ticket (its
 *   report then updates the link and may end the signal), else without a signal (an orphan). The
 *   CLOSE of a copy the same plan re-opens (volume shortfall: close and reopen) is signal-less
 *   too: the re-open's fill inserts the copy's new link, which that close must not reduce.
 * `repairRows` is pure; `queueRepairs` writes, audits and publishes.
 */
import type { SyncOrder } from "#contract";
import type { Db } from "../../db/client.ts";
import { executions } from "../../db/schema.ts";
import type { AppContext } from "../../http/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { copyComment } from "../copy-engine/domain/index.ts";
import type { ExpectedCopy } from "../copy-engine/domain/reconcile.ts";
import { emptyEffects, publishEffects } from "../copy-engine/effects.ts";
import type { NewExecution } from "../copy-engine/store/record-event.ts";
import type { ExecutionRow } from "../signals/mappers.ts";
import type { AssembledSlave } from "./slave-status.ts";
import { deleteLinks } from "./store.ts";

export interface RepairRows {
  rows: NewExecution[];
  /** Signals whose stale link must go before the repair open is queued. */
  staleLinkSignalIds: string[];
}

/** The copy an OPEN order repairs: same master ticket, a copy expected and none in flight, first unused. */
function copyForOpen(order: SyncOrder, copies: ExpectedCopy[], used: Set<string>): ExpectedCopy | null {
  const fits = (c: ExpectedCopy) => c.masterTicket === order.masterTicket && c.expected !== null && !c.openInFlight && !used.has(c.signalId);
  return copies.find((c) => fits(c) && c.expected?.symbol === order.symbol) ?? copies.find(fits) ?? null;
}

/** Pure: the execution rows for `orders` on `slave` (see the module comment). */
export function repairRows(tenantId: string, slaveId: string, orders: SyncOrder[], assembled: AssembledSlave, now: Date): RepairRows {
  const { copies, positions } = assembled.input;
  // Copies this plan re-opens (a missing copy, or close-and-reopen at another volume): their old
  // link goes, so a CLOSE of the old ticket is signal-less — its report must not touch the link
  // the new copy's fill inserts.
  // A link is stale when its ticket is gone from the snapshot or this plan closes it; a netting
  // slave's addition to a position it still holds keeps the link.
  const held = new Set(positions.map((p) => p.ticket));
  const closedByPlan = new Set(orders.flatMap((o) => (o.action === "CLOSE" && o.slaveTicket ? [o.slaveTicket] : [])));
  const isStale = (link: ExpectedCopy["link"]): boolean => link !== null && (link.slaveTicket === null || !held.has(link.slaveTicket) || closedByPlan.has(link.slaveTicket));
  const reopening = new Set<string>();
  {
    const taken = new Set<string>();
    for (const order of orders) {
      if (order.action !== "OPEN") continue;
      const copy = copyForOpen(order, copies, taken);
      if (!copy) continue;
      taken.add(copy.signalId);
      if (copy.link?.slaveTicket && isStale(copy.link)) reopening.add(copy.link.slaveTicket);
    }
  }
  const used = new Set<string>();
  const stale: string[] = [];
  const rows: NewExecution[] = [];
  const base = { tenantId, slaveAccountId: slaveId, status: "pending", origin: "sync", eventId: null, defaultSpec: false } as const;
  for (const [i, order] of orders.entries()) {
    // One millisecond apart: the slave receives them in the plan's order (a close before its reopen).
    const createdAt = new Date(now.getTime() + i);
    if (order.action === "OPEN") {
      const copy = copyForOpen(order, copies, used);
      const signal = copy ? assembled.signalsById.get(copy.signalId) : undefined;
      const plan = copy ? assembled.orderPlans.get(copy.signalId) : undefined;
      if (copy) used.add(copy.signalId);
      if (copy && isStale(copy.link)) stale.push(copy.signalId);
      const orderType = plan?.orderType ?? "MARKET";
      rows.push({
        ...base,
        createdAt,
        signalId: copy?.signalId ?? null,
        action: orderType === "MARKET" ? "OPEN" : "PENDING_OPEN",
        masterTicket: order.masterTicket,
        symbol: order.symbol,
        side: order.side,
        orderType,
        volume: order.volume,
        requestedVolume: order.volume,
        price: order.price ?? plan?.price ?? null,
        stopLimitPrice: plan?.stopLimitPrice ?? null,
        sl: order.sl,
        tp: order.tp,
        comment: order.masterTicket ? copyComment(order.masterTicket, copy?.leg ?? 0) : null,
        magic: signal?.magic ?? null,
        maxSpreadPts: plan?.maxSpreadPts ?? null,
        maxDeviationPts: order.maxDeviationPts,
        expiresAt: new Date(now.getTime() + assembled.lifetimeSeconds * 1000),
        defaultSpec: copy?.spec.isDefault ?? false,
      });
      continue;
    }
    const linked = order.slaveTicket ? copies.find((c) => c.link?.slaveTicket === order.slaveTicket) : undefined;
    const reopened = order.action === "CLOSE" && order.slaveTicket !== null && reopening.has(order.slaveTicket);
    const onSignal = linked && !reopened ? linked : undefined;
    // An orphan still linked to a signal the master closed (its close failed on the slave): on that signal.
    const closedSignalId = !linked && order.slaveTicket ? (assembled.linkSignalByTicket.get(order.slaveTicket) ?? null) : null;
    const held = positions.find((p) => p.ticket === order.slaveTicket);
    const masterTicket = order.masterTicket ?? linked?.masterTicket ?? null;
    rows.push({
      ...base,
      createdAt,
      signalId: onSignal?.signalId ?? closedSignalId,
      action: order.action,
      masterTicket,
      slaveTicket: order.slaveTicket,
      symbol: order.symbol,
      side: order.side,
      orderType: "MARKET",
      // A full close names the lots the snapshot showed (the EA closes what it is told).
      volume: order.action === "CLOSE" ? (order.volume ?? held?.volume ?? null) : null,
      requestedVolume: null,
      price: order.price,
      stopLimitPrice: null,
      sl: order.action === "MODIFY" ? order.sl : null,
      tp: order.action === "MODIFY" ? order.tp : null,
      comment: masterTicket ? copyComment(masterTicket, linked?.leg ?? 0) : null,
      magic: null,
      maxSpreadPts: null,
      maxDeviationPts: order.maxDeviationPts,
      expiresAt: null,
    });
  }
  return { rows, staleLinkSignalIds: stale };
}

export interface RepairRequest {
  /** `apply` (the user's Apply, with the plan id) or `autoSync` (the slave's setting). */
  source: "apply" | "autoSync";
  planId: string;
  actor: string;
}

/**
 * Queues `orders` for `slave` in one transaction (stale links deleted, rows inserted, one audit
 * entry listing the orders), then hands them out and publishes them. Returns the rows queued.
 */
export async function queueRepairs(ctx: AppContext, slave: AccountRow, orders: SyncOrder[], assembled: AssembledSlave, req: RepairRequest, now = new Date()): Promise<ExecutionRow[]> {
  if (orders.length === 0) return [];
  const tenantId = slave.tenantId;
  const { rows, staleLinkSignalIds } = repairRows(tenantId, slave.id, orders, assembled, now);
  const queued = await ctx.db.transaction(async (tx: Db) => {
    await deleteLinks(tx, tenantId, slave.id, staleLinkSignalIds);
    const inserted = await tx.insert(executions).values(rows).returning();
    const who = slave.alias ? `${slave.alias} (${slave.accountNumber})` : slave.accountNumber;
    await writeAuditLog(tx, {
      tenantId,
      category: "trade",
      source: "sync",
      message: `${req.source === "apply" ? "Sync applied" : "Auto sync"} on ${who}: ${inserted.length} repair order(s) queued`,
      accountId: slave.id,
      metadata: {
        source: req.source,
        planId: req.planId,
        actor: req.actor,
        orders: orders.map((o, i) => ({ ...o, executionId: inserted[i]?.id ?? null })),
      },
    });
    return inserted;
  });
  publishEffects(ctx, tenantId, { ...emptyEffects(), orders: queued, executions: queued });
  return queued;
}
