/**
 * Verdicts on Live Trades (issue 13): every slave gets one opening execution per signal — copied
 * (queued, then whatever the slave reported), skipped (left out on purpose) or rejected (blocked
 * by a rule, refused by the terminal) — summarised per signal as "Copied to 2 of 3 — Bravo:
 * outside trading hours", and the slaves still to confirm a closed signal.
 */
import { type Execution, type Signal, verdictLabel } from "#contract";

export type Verdict = "copied" | "skipped" | "rejected";

/**
 * The verdict of an opening execution: `skipped` (status skipped, or a queued open a pause
 * cancelled before hand-out: cancelled with a reason code), `rejected` (rejected / error), else
 * `copied`.
 */
export function verdictOf(execution: Pick<Execution, "status" | "reasonCode">): Verdict {
  if (execution.status === "skipped") return "skipped";
  if (execution.status === "cancelled" && execution.reasonCode) return "skipped";
  if (execution.status === "rejected" || execution.status === "error") return "rejected";
  return "copied";
}

const lowerFirst = (text: string) => (text.length > 1 && /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text);

/**
 * Short reason of a copy not made, for the one-line summary: the verdict code's label ("outside
 * trading hours"), else the terminal's message, else "failed".
 */
export function shortReason(execution: Pick<Execution, "reasonCode" | "errorMessage">): string {
  if (execution.reasonCode) {
    const label = verdictLabel(execution.reasonCode);
    if (label !== execution.reasonCode) return lowerFirst(label);
  }
  return lowerFirst(execution.errorMessage?.trim() || "failed");
}

/** "A", "A and B", "A, B and C". */
function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * One line per signal: "Copied to X of Y" (Y: slaves with a verdict, X: copied), followed when
 * some were not by " — " and their reasons, slaves with the same reason together, reasons joined
 * by "; " ("Copied to 1 of 3 — Bravo: outside trading hours; Charlie and Delta: copying paused").
 * `opening`: the signal's opening executions, in the order the names should appear.
 */
export function verdictSummaryText(opening: readonly Execution[], slaveLabels: ReadonlyMap<string, string>): string {
  const copied = opening.filter((e) => verdictOf(e) === "copied").length;
  const byReason = new Map<string, string[]>();
  for (const e of opening) {
    if (verdictOf(e) === "copied") continue;
    const reason = shortReason(e);
    const names = byReason.get(reason) ?? [];
    names.push(slaveLabels.get(e.slaveAccountId) ?? "Unknown account");
    byReason.set(reason, names);
  }
  const head = `Copied to ${copied} of ${opening.length}`;
  if (byReason.size === 0) return head;
  return `${head} — ${[...byReason].map(([reason, names]) => `${joinNames(names)}: ${reason}`).join("; ")}`;
}

/** The full verdict text of one slave's opening line for a copy not made: "Skipped: Copying is paused". */
export function verdictLineText(execution: Pick<Execution, "status" | "reasonCode" | "errorMessage">): string | null {
  const verdict = verdictOf(execution);
  if (verdict === "copied") return null;
  const reason = execution.errorMessage?.trim() || (execution.reasonCode ? verdictLabel(execution.reasonCode) : "");
  if (verdict === "skipped") return reason ? `Skipped: ${reason}` : "Skipped";
  return reason || "Failed";
}

/**
 * A closed signal some slaves have not confirmed: "closed — waiting for confirmation from Bravo"
 * (only `onlySlaveId`'s name on a slave tab); null when none are waited for.
 */
export function unconfirmedText(signal: Pick<Signal, "status" | "unconfirmedSlaveIds">, slaveLabels: ReadonlyMap<string, string>, onlySlaveId?: string): string | null {
  if (signal.status === "active") return null;
  const ids = (signal.unconfirmedSlaveIds ?? []).filter((id) => !onlySlaveId || id === onlySlaveId);
  if (ids.length === 0) return null;
  return `closed — waiting for confirmation from ${joinNames(ids.map((id) => slaveLabels.get(id) ?? "Unknown account"))}`;
}

/** Closed signals still waiting for a slave's confirmation, newest first (what the list keeps after they end). */
export function isAwaitingConfirmation(signal: Pick<Signal, "status" | "unconfirmedSlaveIds">): boolean {
  return signal.status !== "active" && (signal.unconfirmedSlaveIds?.length ?? 0) > 0;
}

/**
 * Slave tab: the master closed (or cancelled) the ticket and this slave's copy is closed — its
 * latest later order is a close (CLOSE / CLOSE_ALL) reported `closed`, or a cancel reported
 * `cancelled` — so the signal reads as closed for this slave even while others still close.
 */
export function closedForSlave(signal: Pick<Signal, "status" | "volume">, latestFollowUp: Execution | undefined): boolean {
  if (signal.status === "active" && Number(signal.volume) > 0) return false;
  if (!latestFollowUp) return false;
  if ((latestFollowUp.action === "CLOSE" || latestFollowUp.action === "CLOSE_ALL") && latestFollowUp.status === "closed") return true;
  return latestFollowUp.action === "PENDING_CANCEL" && latestFollowUp.status === "cancelled";
}
