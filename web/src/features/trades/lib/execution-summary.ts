/**
 * Pure views over executions for Live Trades — spec §2 /trades ('Executed on X/Y slaves', one
 * line per slave execution, slave tab statistics) and §3 Execution. Executions are indexed by
 * signal id once, so a row never filters the whole execution list.
 */
import type { Execution, OrderAction, Signal } from "#contract";

const OPENING_ACTIONS: ReadonlySet<OrderAction> = new Set<OrderAction>(["OPEN", "PENDING_OPEN"]);

/** An order that opens the slave's copy of a signal (OPEN or PENDING_OPEN). */
export function isOpeningExecution(execution: Pick<Execution, "action">): boolean {
  return OPENING_ACTIONS.has(execution.action);
}

/** A successful opening order: filled (market) or placed (pending order accepted). */
export function isSuccessfulOpen(execution: Pick<Execution, "status">): boolean {
  return execution.status === "filled" || execution.status === "placed";
}

/** How an opening order's line looks: success tick, pending clock, skipped dash, or failure cross. */
export type OpeningLineKind = "filled" | "placed" | "pending" | "skipped" | "failed";

/**
 * §2: filled → 'Filled @ price'; placed → placed; pending → pending with age; skipped (left out
 * on purpose, or a queued open a pause cancelled: cancelled with a reason code) → its reason;
 * else failed.
 */
export function openingLineKind(execution: Pick<Execution, "status"> & Partial<Pick<Execution, "reasonCode">>): OpeningLineKind {
  switch (execution.status) {
    case "filled":
    case "placed":
    case "pending":
    case "skipped":
      return execution.status;
    case "cancelled":
      return execution.reasonCode ? "skipped" : "failed";
    default:
      return "failed";
  }
}

/** Executions grouped by signal id, each group in the input order (newest first from the server). */
export type ExecutionIndex = ReadonlyMap<string, readonly Execution[]>;

/** Groups executions by signal id in one pass (executions without a signal are left out). */
export function indexExecutionsBySignal(executions: readonly Execution[]): Map<string, Execution[]> {
  const index = new Map<string, Execution[]>();
  for (const execution of executions) {
    if (execution.signalId === null) continue;
    const group = index.get(execution.signalId);
    if (group) group.push(execution);
    else index.set(execution.signalId, [execution]);
  }
  return index;
}

export interface SignalExecutionSummary {
  /** The signal's opening orders, oldest first (one per slave copy). */
  opening: Execution[];
  /** X of 'Executed on X/Y slaves': opening orders filled or placed. */
  executed: number;
  /** Y: all opening orders. */
  total: number;
  /** Latest later order (modify, close, cancel) per slave account id. */
  latestFollowUp: Map<string, Execution>;
}

const byCreatedAt = (a: Execution, b: Execution) => a.createdAt.localeCompare(b.createdAt);

/** Summarises one signal's executions (any order) for its row. */
export function summarizeSignalExecutions(executions: readonly Execution[] = []): SignalExecutionSummary {
  const opening: Execution[] = [];
  const latestFollowUp = new Map<string, Execution>();
  for (const execution of executions) {
    if (isOpeningExecution(execution)) {
      opening.push(execution);
      continue;
    }
    const current = latestFollowUp.get(execution.slaveAccountId);
    if (!current || byCreatedAt(current, execution) < 0) latestFollowUp.set(execution.slaveAccountId, execution);
  }
  opening.sort(byCreatedAt);
  return { opening, executed: opening.filter(isSuccessfulOpen).length, total: opening.length, latestFollowUp };
}


/** §2 slave tab: the active signals this account has an opening order for, in list order. */
export function signalsForSlave(signals: readonly Signal[], index: ExecutionIndex, slaveAccountId: string): Signal[] {
  return signals.filter((signal) =>
    index.get(signal.id)?.some((execution) => execution.slaveAccountId === slaveAccountId && isOpeningExecution(execution)),
  );
}
