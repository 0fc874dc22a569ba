/**
 * When a signal ends (status `closed`/`cancelled`, `trade_closed` to the dashboard). Two ways:
 * - complete: the master closed or cancelled its ticket, no slave holds an open link of it and no
 *   order for it is pending (every copy confirmed);
 * - silence: the master closed or cancelled its ticket at least the confirmation timeout ago
 *   (default CONFIRM_TIMEOUT_MS = 120 s, docs/bridge-protocol.md §5) and some copy is still
 *   unconfirmed (an open link, or an order of the signal still pending). Rule chosen: the timeout
 *   runs from the master's close whatever the slave's heartbeats say — a slave that is online but
 *   does not execute the close leaves the trader with the same open copy as one that is offline.
 *   The signal then shows as closed with its unconfirmed slaves (a late report still applies to
 *   the copy; the signal never reopens).
 * Pure: time and the timeout come in as arguments.
 */

/** Default time a master-closed signal waits for its slaves' close confirmations, ms. */
export const CONFIRM_TIMEOUT_MS = 120_000;

/** A signal's completion facts (counts of its open links and pending orders). */
export interface CompletionFacts {
  /** Still `active`. */
  active: boolean;
  /** The master closed or cancelled its ticket. */
  masterClosed: boolean;
  /** Position links of the signal still open (slaves holding a copy). */
  openLinks: number;
  /** Orders of the signal still `pending` (not reported). */
  pendingOrders: number;
}

/** The completion facts plus when the master's close was applied (null = not closed). */
export interface EndingFacts extends CompletionFacts {
  masterClosedAt: Date | null;
}

/** How a signal ends now: "complete" (every copy confirmed), "silence" (timeout), or null (stays active). */
export type SignalEnd = "complete" | "silence" | null;

/**
 * A signal ends (status `closed`/`cancelled`, `trade_closed` to the dashboard) once it is still
 * active, the master closed or cancelled its ticket, no slave holds an open link and no order for
 * it is pending.
 */
export function isSignalComplete(s: CompletionFacts): boolean {
  return s.active && s.masterClosed && s.openLinks === 0 && s.pendingOrders === 0;
}

/**
 * Whether the signal ends at `now` and why. `confirmTimeoutMs`: how long after the master's close
 * unconfirmed copies are waited for (ms); null = wait for every copy (no silence rule: the report
 * paths, where the sweep applies the timeout). Silence needs `masterClosedAt` and
 * now − masterClosedAt ≥ confirmTimeoutMs.
 */
export function signalEnd(s: EndingFacts, now: Date, confirmTimeoutMs: number | null): SignalEnd {
  if (isSignalComplete(s)) return "complete";
  if (!s.active || !s.masterClosed || s.masterClosedAt === null || confirmTimeoutMs === null) return null;
  return now.getTime() - s.masterClosedAt.getTime() >= confirmTimeoutMs ? "silence" : null;
}
