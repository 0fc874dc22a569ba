import type { Execution, Signal } from "#contract";
import { useMemo } from "react";
import type { SignalExecutionSummary } from "../lib/execution-summary";
import { verdictSummaryText } from "../lib/verdicts";
import { ExecutionLines } from "./execution-lines";

export interface SignalExecutionsProps {
  signal: Signal;
  summary: SignalExecutionSummary;
  slaveLabels: ReadonlyMap<string, string>;
  /** Slave tab: only this account's lines, no All-tab verdict summary. */
  onlySlaveId?: string;
}

/**
 * §2 slaves' outcomes of one signal, shared by the card and the table's expanded row:
 * 'Executed on X/Y slaves', the verdict summary "Copied to X of Y — Bravo: reason" (All tab,
 * issue 13) and one line per slave execution. Nothing for an ended signal without executions
 * (they leave the live list when it ends).
 */
export function SignalExecutions({ signal, summary, slaveLabels, onlySlaveId }: SignalExecutionsProps) {
  const verdicts = useMemo(
    () => (onlySlaveId || summary.total === 0 ? null : verdictSummaryText(orderedBySlave(summary.opening, slaveLabels), slaveLabels)),
    [summary, slaveLabels, onlySlaveId],
  );
  if (signal.status !== "active" && summary.total === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs font-medium text-muted-foreground" data-testid={`text-executed-${signal.id}`}>
        Executed on {summary.executed}/{summary.total} slaves
      </p>
      {verdicts ? (
        <p className="-mt-1 text-xs text-muted-foreground" data-testid={`text-verdict-summary-${signal.id}`}>
          {verdicts}
        </p>
      ) : null}
      <ExecutionLines summary={summary} masterSymbol={signal.symbol} slaveLabels={slaveLabels} onlySlaveId={onlySlaveId} />
    </div>
  );
}

/** The opening executions in slave-list order (accounts unknown to the list last), for the summary's names. */
function orderedBySlave(opening: readonly Execution[], slaveLabels: ReadonlyMap<string, string>): Execution[] {
  const rank = new Map([...slaveLabels.keys()].map((id, i) => [id, i]));
  const at = (e: Execution) => rank.get(e.slaveAccountId) ?? Number.MAX_SAFE_INTEGER;
  return [...opening].sort((a, b) => at(a) - at(b));
}
