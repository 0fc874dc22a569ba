import type { Execution, Signal } from "#contract";
import { memo, useMemo } from "react";
import { Badge } from "@/components/ui/badge";
import { originMarker } from "@/lib/sync/sync-text";
import { cn } from "@/lib/utils";
import { summarizeSignalExecutions } from "../lib/execution-summary";
import { formatLots, formatTradeTime } from "../lib/trade-text";
import { closedForSlave, unconfirmedText } from "../lib/verdicts";
import { SignalExecutions } from "./signal-executions";

export interface SignalRowProps {
  signal: Signal;
  /** This signal's executions (from the index by signal id). */
  executions: readonly Execution[] | undefined;
  slaveLabels: ReadonlyMap<string, string>;
  /** Slave tab: show only this account's execution lines. */
  onlySlaveId?: string;
}

/**
 * §2 active signal: side colour dot (green BUY, red otherwise), symbol, side, volume and price,
 * order type badge, ACTIVE badge, opened time, 'Executed on X/Y slaves' and the slave lines.
 * Verdicts (issue 13): on the All tab one line "Copied to X of Y — Bravo: reason"; each slave
 * line says why a copy was not made. CLOSED instead of ACTIVE for a signal that ended (with the
 * slaves still to confirm) or, on a slave tab, whose copy on that slave is closed. Issue 14: a
 * signal the server learnt from a master snapshot carries "from snapshot" ("sync repair" for one a
 * repair made).
 */
export const SignalRow = memo(function SignalRow({ signal, executions, slaveLabels, onlySlaveId }: SignalRowProps) {
  const summary = useMemo(() => summarizeSignalExecutions(executions), [executions]);
  const buy = signal.side === "BUY";
  const remaining = Number(signal.volume);
  const partiallyClosed = remaining < Number(signal.openVolume);
  const waiting = unconfirmedText(signal, slaveLabels, onlySlaveId);
  const closedHere = onlySlaveId ? closedForSlave(signal, summary.latestFollowUp.get(onlySlaveId)) : false;
  const closed = signal.status !== "active" || closedHere;
  const origin = originMarker(signal.origin);
  return (
    <article
      className="flex flex-col gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-sm"
      aria-label={`${signal.symbol} ${signal.side} ${formatLots(signal.volume)}`}
      data-testid={`signal-${signal.id}`}
    >
      <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <span className={cn("size-2.5 shrink-0 rounded-full", buy ? "bg-success" : "bg-destructive")} aria-hidden="true" />
          <span className="font-semibold" data-testid={`text-symbol-${signal.id}`}>
            {signal.symbol}
          </span>
          <span className={cn("text-sm font-semibold", buy ? "text-success" : "text-destructive")}>{signal.side}</span>
          <span className="text-sm tabular" data-testid={`text-volume-price-${signal.id}`}>
            {formatLots(signal.volume)} @ {signal.price}
          </span>
          <Badge variant="outline">{signal.orderType}</Badge>
          {closed ? (
            <Badge variant="secondary" data-testid={`badge-closed-${signal.id}`}>
              CLOSED
            </Badge>
          ) : (
            <Badge variant="success">ACTIVE</Badge>
          )}
          {origin ? (
            <Badge variant="info" data-testid={`badge-origin-${signal.id}`} data-origin={signal.origin}>
              {origin}
            </Badge>
          ) : null}
        </div>
        <span className="shrink-0 text-xs text-muted-foreground tabular" title={signal.openedAt}>
          Opened {formatTradeTime(signal.openedAt)}
        </span>
      </div>
      {waiting ? (
        <p className="-mt-1.5 text-xs font-medium text-warning" data-testid={`text-unconfirmed-${signal.id}`}>
          {waiting}
        </p>
      ) : null}
      {signal.sl || signal.tp || partiallyClosed ? (
        <p className="-mt-1.5 flex flex-wrap gap-x-3 text-xs text-muted-foreground tabular">
          {signal.sl ? <span>SL {signal.sl}</span> : null}
          {signal.tp ? <span>TP {signal.tp}</span> : null}
          {partiallyClosed ? (
            <span>
              {remaining === 0
                ? closed
                  ? `Closed on master (opened ${formatLots(signal.openVolume)} lots)`
                  : `Closed on master (opened ${formatLots(signal.openVolume)} lots), closing on slaves`
                : `Opened with ${formatLots(signal.openVolume)} lots`}
            </span>
          ) : null}
        </p>
      ) : null}
      {/* An ended signal comes without its executions (they leave the live list when it ends). */}
      {signal.status === "active" || summary.total > 0 ? (
        <div className="border-t pt-3">
          <SignalExecutions signal={signal} summary={summary} slaveLabels={slaveLabels} onlySlaveId={onlySlaveId} />
        </div>
      ) : null}
    </article>
  );
});
