/**
 * The organisation's copy pause (Pause All, PANIC STOP, Resume copying) and a slave's own
 * Enable / Disable, decided without I/O (docs/architecture.md "Copy engine").
 *
 * - Pausing cancels every opening order (OPEN, PENDING_OPEN) still pending and never handed out
 *   (delivery count 0): a slave polling after the pause must not open anything. An order already
 *   handed out may be executing on the terminal; it is left to PANIC STOP's close-all (or to the
 *   slave's report). A follow-up (MODIFY, CLOSE, PENDING_*) never handed out whose copy's open is
 *   cancelled by the same pause is cancelled too: it would act on a position that will not exist.
 * - Who paused a slave is kept (`pausedBy`): Resume copying re-enables only the slaves the
 *   organisation paused; a slave its user disabled stays disabled; a slave's own Enable changes that
 *   slave only, never the organisation's pause.
 */
import type { VerdictCode } from "./types.ts";

/** Who paused a slave: the organisation (Pause All / PANIC STOP) or the slave's own Disable. */
export type PausedBy = "tenant" | "user";

/** The facts of one queued order that the pause decision needs. */
export interface QueuedOrder {
  id: string;
  /** Order action: OPEN, PENDING_OPEN, MODIFY, CLOSE, PENDING_MODIFY, PENDING_CANCEL, CLOSE_ALL. */
  action: string;
  /** executions.status; only `pending` orders are still to do. */
  status: string;
  /** Times the order was handed to the slave's EA (0 = never). */
  deliveryCount: number;
  slaveAccountId: string;
  /** null for CLOSE_ALL. */
  signalId: string | null;
}

/** The stored reason of an order the pause cancelled (executions.reason_code / error_message). */
export const PAUSE_CANCEL_CODE: VerdictCode = "paused";
export const PAUSE_CANCEL_MESSAGE = "copying paused";

/** Why an order is kept when copying is paused. */
export type PauseKeepReason = "not_pending" | "handed_out" | "close_all" | "follow_of_live_copy";

export type PauseDecision = { kind: "cancel"; code: VerdictCode; message: string } | { kind: "keep"; reason: PauseKeepReason };

/** The actions that open a copy: what a pause cancels when never handed out. */
export const OPENING_ACTIONS: ReadonlySet<string> = new Set(["OPEN", "PENDING_OPEN"]);

/**
 * Decides, for each queued order of the organisation, whether pausing cancels it or keeps it.
 * Returns one decision per order, in the input's order. Pure: the caller writes the cancels.
 */
export function planPauseCancels(orders: readonly QueuedOrder[]): { order: QueuedOrder; decision: PauseDecision }[] {
  const cancel: PauseDecision = { kind: "cancel", code: PAUSE_CANCEL_CODE, message: PAUSE_CANCEL_MESSAGE };
  const undelivered = (o: QueuedOrder) => o.status === "pending" && o.deliveryCount === 0;
  // Copies whose open this pause cancels: their undelivered follow-ups go with it.
  const cancelledCopies = new Set(orders.filter((o) => OPENING_ACTIONS.has(o.action) && undelivered(o) && o.signalId !== null).map((o) => `${o.signalId}|${o.slaveAccountId}`));
  return orders.map((order) => {
    if (order.status !== "pending") return { order, decision: { kind: "keep", reason: "not_pending" } };
    if (order.deliveryCount > 0) return { order, decision: { kind: "keep", reason: "handed_out" } };
    if (order.action === "CLOSE_ALL") return { order, decision: { kind: "keep", reason: "close_all" } };
    if (OPENING_ACTIONS.has(order.action)) return { order, decision: cancel };
    if (order.signalId !== null && cancelledCopies.has(`${order.signalId}|${order.slaveAccountId}`)) return { order, decision: cancel };
    return { order, decision: { kind: "keep", reason: "follow_of_live_copy" } };
  });
}

/** The ids of the orders planPauseCancels cancels. */
export function pauseCancelIds(orders: readonly QueuedOrder[]): string[] {
  return planPauseCancels(orders)
    .filter((d) => d.decision.kind === "cancel")
    .map((d) => d.order.id);
}

/** The facts of one account for Pause All / Resume copying. */
export interface PausableAccount {
  id: string;
  role: string;
  /** accounts.status: active | paused | error | … */
  status: string;
  pausedBy: string | null;
}

/** Pause All / PANIC STOP pause the active slaves (→ status `paused`, pausedBy `tenant`). */
export function slavesToPause(accounts: readonly PausableAccount[]): string[] {
  return accounts.filter((a) => a.role === "SLAVE" && a.status === "active").map((a) => a.id);
}

/** Resume copying re-enables the slaves the organisation paused — not those their user disabled. */
export function slavesToResume(accounts: readonly PausableAccount[]): string[] {
  return accounts.filter((a) => a.role === "SLAVE" && a.status === "paused" && a.pausedBy === "tenant").map((a) => a.id);
}

/**
 * `pausedBy` after a person sets a slave's status (its Enable / Disable): `active` clears it,
 * `paused` records the user's own Disable (Resume copying then leaves the slave alone); any other
 * status keeps it. Only that slave changes — never the organisation's pause.
 */
export function pausedByAfterStatusChange(current: string | null, nextStatus: string): string | null {
  if (nextStatus === "active") return null;
  if (nextStatus === "paused") return "user";
  return current;
}

/**
 * Status of a slave created while the organisation's copying is paused: an `active` slave starts
 * `paused` by the organisation, so it shows as paused and Resume copying enables it with the rest.
 * Masters and slaves created with another status keep what was asked.
 */
export function initialPause(role: string, requestedStatus: string, copyPaused: boolean): { status: string; pausedBy: PausedBy | null } {
  if (copyPaused && role === "SLAVE" && requestedStatus === "active") return { status: "paused", pausedBy: "tenant" };
  return { status: requestedStatus, pausedBy: requestedStatus === "paused" && role === "SLAVE" ? "user" : null };
}
