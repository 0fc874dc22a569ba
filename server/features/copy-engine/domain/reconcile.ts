/**
 * Reconciliation rules (issue 14, docs/bridge-protocol.md §10): pure functions comparing an
 * account's latest snapshot with what the copy engine believes, and planning the repair.
 * No I/O: the store loads these shapes (server/features/sync/), these functions decide.
 *
 * Units: volumes in lots, prices as quoted, decimal strings (big.js); times unix ms; deviations
 * in points of the slave symbol. The shapes live in reconcile-types.ts (re-exported here), the
 * rules in reconcile-master.ts, reconcile-slave.ts and reconcile-netting.ts.
 */
import type { AutoSync, SyncDifference, SyncOrder } from "#contract";
import { compareText } from "./reconcile-common.ts";
import { reconcileMasterRules } from "./reconcile-master.ts";
import { reconcileSlaveRules } from "./reconcile-slave.ts";
import type { MasterReconcileInput, MasterReconcileResult, SlaveReconcileInput, SlaveReconcileResult } from "./reconcile-types.ts";

export type {
  BookPosition,
  BookOrder,
  LiveSignal,
  MasterReconcileInput,
  MasterAction,
  MasterReconcileResult,
  ExpectedCopy,
  SlavePositionInBook,
  SlaveReconcileInput,
  SlaveReconcileResult,
} from "./reconcile-types.ts";

/**
 * Compares a master snapshot with the live signals (see MasterAction for what each action means).
 * - Positions match live signals by ticket; a netting ticket's legs are compared as one position:
 *   the SUM of the lots of the legs on the side of its oldest leg. A pending signal whose ticket
 *   now shows as a position triggered: a match, compared as that position.
 * - A position / pending order without any live signal → `open` (missed_open), event time = its
 *   open / setup time, else the snapshot time.
 * - A live ticket shown neither as a position nor as an order → missed_close; the ticket is in
 *   `missing`; when `previouslyMissing` already had it (two snapshots in a row) → `close` (volume
 *   and price null) for a position, `cancel` for a pending order.
 * - Fewer lots than the legs → `close` of the difference (price: the current price, or null).
 *   More lots: netting → `add` of the extra lots at the current price (else the open price, an
 *   average), event time = the snapshot time (when the deal happened is not in the snapshot);
 *   hedging → nothing (a hedging position never grows).
 * - Netting, the position on the other side than its legs (a reversal while disconnected) →
 *   `close` (volume null, price = the position's open price: the reversing deal's) and `open` of
 *   the new side. Hedging: a side change is impossible and ignored.
 * - SL/TP differ from any leg's (none = 0) → `modify` to the snapshot's (sltp_mismatch).
 * Difference ids `<kind>:<ticket>:-`. Order: closes/cancels, modifies, adds, then opens oldest
 * first (ties by ticket). A pending order that is still pending is a match (its price changes
 * are not reconciled).
 */
export function reconcileMaster(input: MasterReconcileInput): MasterReconcileResult {
  return reconcileMasterRules(input);
}

/**
 * Compares a slave snapshot with its copies. A position is a copy when its magic is `copyMagic`
 * (or, copyMagic unknown, its comment starts with `cb:`); anything else is the user's own and is
 * never touched. Kinds: missing_copy, orphan, volume_mismatch (beyond one volume step),
 * sltp_mismatch (half a point or more, at the symbol's point; none = 0). Plan:
 * - missing_copy → OPEN the expected copy at the master's open price, only when the master's
 *   current price is within `maxDeviationPts` (null = 0) points of its open price (the point:
 *   the copy's `point`, else the last decimal the prices are written with); skipped with the
 *   reason otherwise, or when the current price is unknown. Not while `openInFlight`.
 * - orphan (a copy position no live copy claims: matched by the link's slave ticket first, then
 *   by its comment `cb:<ticket>` / `cb:<ticket>/<leg>`; not one in `closingTickets`) → CLOSE it
 *   (full: its volume);
 * - volume_mismatch → hedging: excess → CLOSE the excess rounded down to the step (partial);
 *   shortfall → CLOSE the copy and OPEN the expected volume (same deviation rule; neither order
 *   when the open is not allowed, the skip says why);
 *   netting (per slave symbol, net of every copy on it, BUY +, SELL −): one order from
 *   nettingOrderToTarget — a reduction is a CLOSE of the position's ticket attributed to the
 *   newest copy, anything else an OPEN (deviation rule) carrying the price and SL/TP of, and
 *   attributed to, the newest copy on the target's side; the difference is missing_copy when
 *   nothing is held, orphan when the target is flat;
 * - sltp_mismatch → MODIFY to the expected SL/TP (not on a copy being closed and reopened).
 * A copy the slave does not copy now (`expected` null) is left alone whatever it holds; a copy
 * whose position has a close in flight is judged after the report. Output in a canonical order
 * (differences by kind then tickets; orders CLOSE, MODIFY, OPEN).
 */
export function reconcileSlave(input: SlaveReconcileInput): SlaveReconcileResult {
  return reconcileSlaveRules(input);
}

/**
 * The part of a plan autoSync applies by itself: `off` nothing; `close_orphans` the orphans'
 * CLOSE orders; `full` every order.
 */
export function autoSyncOrders(plan: SyncOrder[], differences: SyncDifference[], autoSync: AutoSync): SyncOrder[] {
  switch (autoSync) {
    case "off":
      return [];
    case "full":
      return [...plan];
    case "close_orphans": {
      const orphans = new Set(differences.filter((d) => d.kind === "orphan").map((d) => d.id));
      return plan.filter((o) => o.action === "CLOSE" && orphans.has(o.differenceId));
    }
  }
}

/** Every order field in a fixed order: a plan read back from jsonb (keys reordered) digests the same. */
const canonical = (o: SyncOrder): unknown[] => [
  o.differenceId,
  o.action,
  o.masterTicket,
  o.slaveTicket,
  o.symbol,
  o.side,
  o.volume,
  o.price,
  o.sl,
  o.tp,
  o.maxDeviationPts,
  o.reason,
];

/**
 * The text a plan id is a digest of (the store hashes it): the snapshot time and every order,
 * in a canonical order, so the same snapshot and state give the same id.
 */
export function planDigestText(snapshotTsMs: number, orders: SyncOrder[]): string {
  const rows = orders.map(canonical).sort((a, b) => {
    const x = JSON.stringify(a);
    const y = JSON.stringify(b);
    return compareText(String(a[0]), String(b[0])) || compareText(String(a[1]), String(b[1])) || compareText(x, y);
  });
  return JSON.stringify([snapshotTsMs, rows]);
}
