import type { Signal } from "#contract";
import type { ExecutionIndex } from "../lib/execution-summary";
import type { TradesViewMode } from "../lib/view-mode";
import { SignalRow } from "./signal-row";
import { TradeTable } from "./trade-table";

/**
 * Signals the master closed that left the active list after the confirmation timeout while some
 * slave never reported its close (docs/bridge-protocol.md §5): shown as closed, with the slaves
 * still to confirm; a late report removes them. Nothing when none.
 */
export function AwaitingConfirmation({
  signals,
  index,
  slaveLabels,
  onlySlaveId,
  mode = "cards",
}: {
  signals: readonly Signal[];
  index: ExecutionIndex;
  slaveLabels: ReadonlyMap<string, string>;
  onlySlaveId?: string;
  /** Table (issue 16) or cards, as the list above. */
  mode?: TradesViewMode;
}) {
  if (signals.length === 0) return null;
  return (
    <section className="mt-4 flex flex-col gap-3" aria-label="Closed, waiting for confirmation" data-testid="list-awaiting-confirmation">
      <h2 className="text-sm font-semibold text-muted-foreground">
        Closed, waiting for confirmation <span className="font-normal tabular">({signals.length})</span>
      </h2>
      {mode === "table" ? (
        <TradeTable signals={signals} index={index} slaveLabels={slaveLabels} onlySlaveId={onlySlaveId} caption="Closed, waiting for confirmation" testId="table-awaiting" />
      ) : (
        signals.map((signal) => (
          <SignalRow key={signal.id} signal={signal} executions={index.get(signal.id)} slaveLabels={slaveLabels} onlySlaveId={onlySlaveId} />
        ))
      )}
    </section>
  );
}
