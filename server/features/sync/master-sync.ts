/**
 * A master snapshot's reconciliation (docs/bridge-protocol.md §10.1): the stored snapshot against
 * the live signals (every leg) and the tickets the previous snapshot already did not show
 * (domain reconcileMaster); the comparison is stored for the master (its differences and the
 * tickets missing now; masters have no plan), then the actions go through the copy engine as
 * the master events they stand for (copy-engine/snapshot-actions.ts, origin `snapshot`).
 */
import type { StoredSnapshotOrder } from "#contract";
import type { AppContext } from "../../http/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { findSnapshot } from "../accounts/snapshots.ts";
import { reconcileMaster, type BookOrder, type LiveSignal, type MasterReconcileResult } from "../copy-engine/domain/reconcile.ts";
import { applyMasterActions } from "../copy-engine/snapshot-actions.ts";
import type { SignalRow } from "../signals/mappers.ts";
import { bookPositionOf } from "./slave-status.ts";
import { EMPTY_PLAN, findSyncState, loadLiveSignals, saveSyncState } from "./store.ts";

/** A stored snapshot order → the domain's book order (setup time seconds → ms). */
export function bookOrderOf(o: StoredSnapshotOrder): BookOrder {
  return {
    ticket: o.ticket,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType as BookOrder["orderType"],
    volume: o.volume,
    price: o.price,
    stopLimitPrice: o.stopLimitPrice,
    sl: o.sl,
    tp: o.tp,
    setupTimeMs: o.setupTime == null ? null : o.setupTime * 1000,
    magic: o.magic,
    comment: o.comment,
  };
}

/** A live signal row → the domain's live signal. */
export function liveSignalOf(s: SignalRow): LiveSignal {
  return {
    id: s.id,
    ticket: s.masterTicket,
    leg: s.leg,
    symbol: s.symbol,
    side: s.side as LiveSignal["side"],
    orderType: s.orderType as LiveSignal["orderType"],
    volume: s.volume,
    price: s.price,
    sl: s.sl,
    tp: s.tp,
    openedAtMs: s.openedAt.getTime(),
  };
}

/**
 * Reconciles the master's stored snapshot (call after it was stored). Returns the comparison, or
 * null when the master has no snapshot.
 */
export async function reconcileMasterSnapshot(ctx: AppContext, master: AccountRow, now = new Date()): Promise<MasterReconcileResult | null> {
  const tenantId = master.tenantId;
  const snapshot = await findSnapshot(ctx.db, tenantId, master.id);
  if (!snapshot) return null;
  const [signals, state] = await Promise.all([loadLiveSignals(ctx.db, tenantId), findSyncState(ctx.db, tenantId, master.id)]);
  const snapshotTsMs = Date.parse(snapshot.ts);
  const input = {
    snapshotTsMs,
    positions: snapshot.positions.map(bookPositionOf),
    orders: snapshot.orders.map(bookOrderOf),
    signals: signals.map(liveSignalOf),
    previouslyMissing: state?.missingTickets ?? [],
    netting: master.marginMode === "netting",
  };
  const result = reconcileMaster(input);
  const saved = {
    tenantId,
    accountId: master.id,
    checkedAt: now,
    snapshotTs: new Date(snapshotTsMs),
    differences: result.differences,
    plan: EMPTY_PLAN,
    missingTickets: result.missing,
  };
  await saveSyncState(ctx.db, saved);
  if (result.actions.length === 0) return result;
  await applyMasterActions(ctx, tenantId, master, result.actions, snapshotTsMs);
  // What is left once the actions are applied (a copied open, an applied close are no longer
  // differences; a close waiting for the second snapshot still is): compared again, not acted on.
  const after = reconcileMaster({ ...input, signals: (await loadLiveSignals(ctx.db, tenantId)).map(liveSignalOf) });
  await saveSyncState(ctx.db, { ...saved, differences: after.differences });
  return { ...result, differences: after.differences };
}
