/**
 * Patching the Live Trades slave tab's figures (GET /api/executions/summary, spec §2) from
 * `execution_result` messages instead of refetching on each one (issue 16 "Honest errors": dozens
 * of messages a minute each cost a count over the account's whole history).
 *
 * Mirrors the server's count (server/features/signals/routes.ts): total = the account's opening
 * orders (OPEN, PENDING_OPEN) except skipped copies; successful = those filled or placed;
 * successRate = successful / total, whole percent (0 when none).
 *
 * A message changes the counts by the difference between the execution's class before and after.
 * The class before is known when this tab saw the execution's earlier message (`previous`), or
 * when the message is a copy's birth (pending, never reported: not counted yet). Anything else
 * (an execution the summary may already count in an unknown state) cannot be applied: refetch.
 */
import type { Execution, ExecutionSummary } from "#contract";

/** How an execution counts in the summary. */
export type SummaryClass = "uncounted" | "attempted" | "successful";

const OPENING_ACTIONS: ReadonlySet<Execution["action"]> = new Set(["OPEN", "PENDING_OPEN"]);

/** The execution's class, as the server counts it. */
export function summaryClass(execution: Pick<Execution, "action" | "status">): SummaryClass {
  if (!OPENING_ACTIONS.has(execution.action) || execution.status === "skipped") return "uncounted";
  return execution.status === "filled" || execution.status === "placed" ? "successful" : "attempted";
}

export type SummaryPatch =
  /** Nothing to change (another account, a close, a skipped copy). */
  | { kind: "unchanged" }
  /** The new figures; `seen` is the execution's class to remember. */
  | { kind: "patched"; summary: ExecutionSummary; seen: SummaryClass }
  /** The message cannot be applied safely: refetch the summary. */
  | { kind: "refetch" };

const weight = (c: SummaryClass) => ({ total: c === "uncounted" ? 0 : 1, successful: c === "successful" ? 1 : 0 });

/**
 * The summary after `execution`'s message, for the slave `accountId`. `previous` = the class this
 * execution had in the summary's count when this tab last saw it (undefined: never seen).
 */
export function patchSummary(summary: ExecutionSummary, accountId: string, execution: Execution, previous: SummaryClass | undefined): SummaryPatch {
  if (execution.slaveAccountId !== accountId) return { kind: "unchanged" };
  const next = summaryClass(execution);
  let before = previous;
  if (before === undefined) {
    if (next === "uncounted") return { kind: "unchanged" };
    // A copy's first message: created pending and never reported, so not in the count yet.
    if (execution.status === "pending" && execution.reportedAt === null) before = "uncounted";
    else return { kind: "refetch" };
  }
  const from = weight(before);
  const to = weight(next);
  const total = summary.total + to.total - from.total;
  const successful = summary.successful + to.successful - from.successful;
  if (total < 0 || successful < 0 || successful > total) return { kind: "refetch" };
  if (total === summary.total && successful === summary.successful) return { kind: "patched", summary, seen: next };
  return { kind: "patched", summary: { total, successful, successRate: total === 0 ? 0 : Math.round((successful / total) * 100) }, seen: next };
}
