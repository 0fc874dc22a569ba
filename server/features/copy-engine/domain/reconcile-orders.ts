/**
 * The pieces of a slave repair plan (reconcile-slave.ts, reconcile-netting.ts): which positions
 * are copies, the repair orders, and the plan's accumulator with its deterministic order. Pure.
 */
import type { Side, SyncDifference, SyncOrder, SyncSkip } from "#contract";
import { compareText, compareTickets } from "./reconcile-common.ts";
import type { BookPosition, ExpectedCopy } from "./reconcile-types.ts";
import type { Decimal } from "./types.ts";

/** A position is a copy when it carries the copy magic (or, magic unknown, a `cb:` comment). */
export const isCopy = (p: BookPosition, copyMagic: string | null): boolean =>
  copyMagic !== null ? p.magic !== null && p.magic.trim() === copyMagic.trim() : (p.comment ?? "").startsWith("cb:");

/** Expected copies oldest first: by master ticket, then leg. */
export const byCopy = (a: ExpectedCopy, b: ExpectedCopy): number => compareTickets(a.masterTicket, b.masterTicket) || a.leg - b.leg;

/** "Master ticket 5001" or, for a netting addition, "Master ticket 5001 (leg 2)". */
export const copyName = (c: ExpectedCopy): string => (c.leg > 0 ? `master ticket ${c.masterTicket} (leg ${c.leg})` : `master ticket ${c.masterTicket}`);

/** The master part of a difference id: the ticket, with its leg when ≥ 1 ("5001/2"). */
export const idMaster = (c: ExpectedCopy): string => (c.leg > 0 ? `${c.masterTicket}/${c.leg}` : c.masterTicket);

/** What reconcileSlave answers, filled by the rules then put in order. */
export interface PlanParts {
  differences: SyncDifference[];
  orders: SyncOrder[];
  skipped: SyncSkip[];
}

export function openOrder(
  d: SyncDifference,
  o: { symbol: string; side: Side; volume: Decimal; price: Decimal; sl: Decimal | null; tp: Decimal | null },
  maxDeviationPts: number | null,
  reason: string,
): SyncOrder {
  return { differenceId: d.id, action: "OPEN", masterTicket: d.masterTicket, slaveTicket: null, ...o, maxDeviationPts, reason };
}

export function closeOrder(d: SyncDifference, p: BookPosition, volume: Decimal, reason: string): SyncOrder {
  return {
    differenceId: d.id,
    action: "CLOSE",
    masterTicket: d.masterTicket,
    slaveTicket: p.ticket,
    symbol: p.symbol,
    side: p.side,
    volume,
    price: null,
    sl: null,
    tp: null,
    maxDeviationPts: null,
    reason,
  };
}

export function modifyOrder(d: SyncDifference, p: BookPosition, sl: Decimal | null, tp: Decimal | null, reason: string): SyncOrder {
  return {
    differenceId: d.id,
    action: "MODIFY",
    masterTicket: d.masterTicket,
    slaveTicket: p.ticket,
    symbol: p.symbol,
    side: p.side,
    volume: null,
    price: null,
    sl,
    tp,
    maxDeviationPts: null,
    reason,
  };
}

const KIND_RANK: Record<SyncDifference["kind"], number> = { missing_copy: 0, orphan: 1, volume_mismatch: 2, sltp_mismatch: 3, missed_open: 4, missed_close: 5 };
/** Closes first (they free margin, and a shortfall's close precedes its reopening), then modifies, then opens. */
const ACTION_RANK: Record<SyncOrder["action"], number> = { CLOSE: 0, MODIFY: 1, OPEN: 2 };

/** The plan in its canonical order (the same state always gives the same plan). */
export function ordered(parts: PlanParts): PlanParts {
  // The id's master part names the leg ("5001/1"): a leg sorts after its ticket's first copy.
  const master = (id: string): string => id.split(":")[1] ?? "";
  const tickets = (a: { id: string; slaveTicket: string | null }, b: typeof a): number =>
    compareTickets(master(a.id), master(b.id)) || compareTickets(a.slaveTicket ?? "", b.slaveTicket ?? "");
  return {
    differences: [...parts.differences].sort((a, b) => KIND_RANK[a.kind] - KIND_RANK[b.kind] || tickets(a, b) || compareText(a.id, b.id)),
    orders: [...parts.orders].sort(
      (a, b) => ACTION_RANK[a.action] - ACTION_RANK[b.action] || tickets({ ...a, id: a.differenceId }, { ...b, id: b.differenceId }) || compareText(a.differenceId, b.differenceId),
    ),
    skipped: [...parts.skipped].sort((a, b) => compareText(a.differenceId, b.differenceId)),
  };
}
