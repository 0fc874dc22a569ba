/**
 * A copy's link state (master ticket ↔ slave ticket of one signal on one slave) kept from the
 * slave's reports, and when a signal is complete. Reports can arrive out of order: an open's
 * report may be lost and come back (redelivery) after the master's close was already applied. So:
 * - the first report about a copy creates its link; a later open report never reopens, resizes or
 *   re-tickets it — except a pending order's trigger (`filled` after `placed`), which may move the
 *   ticket of a link still open on the order's ticket;
 * - a close or cancel reported before any open report creates the link itself, from the opening
 *   order's volume, already reduced (or closed), so a late open report cannot revive it;
 * - CLOSE_ALL closes every open link of the slave, and records as closed the copies whose open is
 *   not reported yet (closeAllLinks).
 * Volumes in lots, decimal strings (big.js).
 */
import Big from "big.js";
import type { OrderAction, ReportStatus } from "#contract";
import type { Decimal } from "./types.ts";

/** One copy's link: the slave ticket (null until known), lots still open, open or closed. */
export interface CopyLink {
  slaveTicket: string | null;
  volume: Decimal;
  status: "open" | "closed";
}

/** The order a report is about, AFTER the report was applied to it (its ticket is the reported one). */
export interface LinkOrder {
  action: OrderAction;
  /** Lots ordered (null for CLOSE_ALL). */
  volume: Decimal | null;
  slaveTicket: string | null;
}

/** The report's fields that matter to the link. */
export interface LinkReport {
  status: ReportStatus;
  /** Lots filled / closed as the EA reports them (absent = the order's volume). */
  volume?: Decimal | null | undefined;
  /** Partial close: the ticket of the part left open (MT4 gives it a new one). */
  remainingTicket?: string | null | undefined;
}

/**
 * What to store for the link. `write`: "insert" a new link (`next`), "update" the existing link to
 * `next`, or "none" (`next` is then the link unchanged). `checkSignal`: the report is about the
 * copy's life (open, close, cancel), so the caller checks the signal for completion.
 */
export interface LinkChange {
  next: CopyLink | null;
  write: "none" | "insert" | "update";
  checkSignal: boolean;
}

/** Lots left of `size` after closing `closed` (never negative), canonical decimal. */
function remaining(size: Decimal, closed: Decimal): Decimal {
  const left = new Big(size).minus(closed);
  return left.lt(0) ? "0" : left.toString();
}

/**
 * Applies one report of `order` to the copy's `link` (null = none yet). `openingVolume`: the lots
 * of the copy's opening order (OPEN / PENDING_OPEN), used when a close is reported before any
 * open; `previousTicket`: the order's ticket before this report (a pending order's trigger moves
 * the link only while it is still on that ticket).
 * - OPEN `filled`, PENDING_OPEN `placed`/`filled`: no link → insert it open with the reported
 *   volume (else the order's); a link exists → unchanged, except PENDING_OPEN `filled` with a
 *   ticket on a link still open on `previousTicket` → ticket moved.
 * - CLOSE `closed`, PENDING_CANCEL `cancelled`: an open link → reduced by the closed lots
 *   (reported, else ordered; a cancel closes all), closed at ≤ 0, moved to `remainingTicket`
 *   when given; a closed link → unchanged; no link → inserted from `openingVolume` (else the
 *   order's volume) already reduced, on `remainingTicket` (else the order's ticket).
 * - Anything else (failures, modifies, CLOSE_ALL — see closeAllLinks) → no change.
 */
export function linkAfterReport(link: CopyLink | null, order: LinkOrder, openingVolume: Decimal | null, report: LinkReport, previousTicket: string | null): LinkChange {
  const { status } = report;
  const unchanged: LinkChange = { next: link, write: "none", checkSignal: false };

  const opened = (order.action === "OPEN" && status === "filled") || (order.action === "PENDING_OPEN" && (status === "placed" || status === "filled"));
  if (opened) {
    if (link === null) {
      return { next: { slaveTicket: order.slaveTicket, volume: report.volume ?? order.volume ?? "0", status: "open" }, write: "insert", checkSignal: true };
    }
    const triggered = order.action === "PENDING_OPEN" && status === "filled" && order.slaveTicket !== null && order.slaveTicket !== "";
    if (triggered && link.status === "open" && link.slaveTicket === previousTicket && link.slaveTicket !== order.slaveTicket) {
      return { next: { ...link, slaveTicket: order.slaveTicket }, write: "update", checkSignal: true };
    }
    return { ...unchanged, checkSignal: true };
  }

  const closing = (order.action === "CLOSE" && status === "closed") || (order.action === "PENDING_CANCEL" && status === "cancelled");
  if (!closing) return unchanged;
  const closed = order.action === "PENDING_CANCEL" ? null : (report.volume ?? order.volume ?? "0");
  const remainingTicket = report.remainingTicket ?? null;
  if (link !== null) {
    if (link.status !== "open") return { ...unchanged, checkSignal: true };
    if (closed === null) return { next: { slaveTicket: link.slaveTicket, volume: "0", status: "closed" }, write: "update", checkSignal: true };
    const left = new Big(link.volume).minus(closed);
    return {
      next: {
        slaveTicket: remainingTicket ? remainingTicket : link.slaveTicket,
        volume: left.lte(0) ? "0" : left.toString(),
        status: left.lte(0) ? "closed" : "open",
      },
      write: "update",
      checkSignal: true,
    };
  }
  const size = openingVolume ?? order.volume ?? "0";
  const left = closed === null ? "0" : remaining(size, closed);
  return {
    next: { slaveTicket: remainingTicket ?? order.slaveTicket, volume: left, status: new Big(left).gt(0) ? "open" : "closed" },
    write: "insert",
    checkSignal: true,
  };
}

/** What a slave's reported CLOSE_ALL (`closed`) does to its links. */
export interface CloseAllPlan {
  /** Signals whose open link on this slave is closed (status closed, volume 0). */
  closeLinks: string[];
  /** Signals with an unreported open and no link at all: insert a closed link (volume 0, no ticket). */
  insertClosed: string[];
  /** Every signal concerned (closed links first, then unreported opens), to check for completion. */
  touchedSignalIds: string[];
}

/**
 * A slave's CLOSE_ALL reported `closed`: every open link of the slave closes, and each signal
 * whose opening order (OPEN / PENDING_OPEN) is still `pending`, `filled` or `placed` is recorded
 * closed so a late open report cannot revive it. `links`: EVERY link of the slave (open and
 * closed, one per signal); `unreportedOpenSignalIds`: the signal ids of those opening orders
 * (nulls and repeats ignored). A signal that already has a link is not inserted again.
 */
export function closeAllLinks(links: { signalId: string; status: "open" | "closed" }[], unreportedOpenSignalIds: (string | null)[]): CloseAllPlan {
  const closeLinks = links.filter((l) => l.status === "open").map((l) => l.signalId);
  const linked = new Set(links.map((l) => l.signalId));
  const unreported = [...new Set(unreportedOpenSignalIds.filter((s): s is string => s !== null))];
  return {
    closeLinks,
    insertClosed: unreported.filter((id) => !linked.has(id)),
    touchedSignalIds: [...closeLinks, ...unreported],
  };
}

/** Kept here for existing imports; the completion rules live in completion.ts. */
export { isSignalComplete } from "./completion.ts";
