import type { Execution } from "#contract";
import { Check, CircleMinus, Clock, X } from "lucide-react";
import { originMarker } from "@/lib/sync/sync-text";
import { useNow } from "@/lib/use-now";
import { cn } from "@/lib/utils";
import { type SignalExecutionSummary, openingLineKind } from "../lib/execution-summary";
import { followUpText, formatLots, formatTradeTime, openingLineText } from "../lib/trade-text";

const ICONS = {
  filled: { Icon: Check, className: "text-success", label: "Filled" },
  placed: { Icon: Check, className: "text-success", label: "Placed" },
  pending: { Icon: Clock, className: "text-warning", label: "Pending" },
  skipped: { Icon: CircleMinus, className: "text-muted-foreground", label: "Skipped" },
  failed: { Icon: X, className: "text-destructive", label: "Failed" },
} as const;

function orderBySlave(executions: readonly Execution[], slaveLabels: ReadonlyMap<string, string>): Execution[] {
  const rank = new Map([...slaveLabels.keys()].map((id, i) => [id, i]));
  const at = (e: Execution) => rank.get(e.slaveAccountId) ?? Number.MAX_SAFE_INTEGER;
  return [...executions].sort((a, b) => at(a) - at(b));
}

/** Age of a pending order, ticking every second (only mounted while the order is pending). */
function PendingText({ execution }: { execution: Execution }) {
  const now = useNow(1000);
  return <>{openingLineText(execution, now)}</>;
}

/**
 * One slave's opening order (§2) — its verdict: a tick and 'Filled @ price' with the fill time, a
 * clock and 'Pending Ns', a dash and 'Skipped: reason', or a cross with the reason (error message)
 * or 'Failed'; then its latest later order.
 */
interface ExecutionLineProps {
  execution: Execution;
  slaveLabel: string;
  /** Master symbol, to show the slave's mapped symbol when it differs. */
  masterSymbol: string;
  followUp?: Execution;
}

/** "from snapshot" / "sync repair" after a line whose order did not come from a live master event (issue 14). */
function OriginMarker({ execution }: { execution: Execution }) {
  const text = originMarker(execution.origin);
  if (!text) return null;
  return (
    <span className="rounded border border-info/40 bg-info/10 px-1 text-[11px] text-info" data-testid={`marker-origin-${execution.id}`} data-origin={execution.origin}>
      {text}
    </span>
  );
}

function ExecutionLine({ execution, slaveLabel, masterSymbol, followUp }: ExecutionLineProps) {
  const kind = openingLineKind(execution);
  const { Icon, className, label } = ICONS[kind];
  return (
    <li className="flex flex-col gap-0.5">
      <div className="flex min-w-0 items-start gap-2 text-sm" data-testid={`execution-${execution.id}`} data-status={execution.status}>
        <Icon className={cn("mt-0.5 size-4 shrink-0", className)} aria-label={label} />
        <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
          <span className="font-medium">{slaveLabel}</span>
          <span
            className={cn("tabular", kind === "failed" && "text-destructive", kind === "pending" && "text-warning", kind === "skipped" && "text-muted-foreground")}
            data-testid={`text-verdict-${execution.signalId ?? "none"}-${execution.slaveAccountId}`}
          >
            {kind === "pending" ? <PendingText execution={execution} /> : openingLineText(execution)}
          </span>
          {(kind === "filled" || kind === "placed") && (execution.fillTime ?? execution.reportedAt) ? (
            <span className="text-xs text-muted-foreground tabular">{formatTradeTime(execution.fillTime ?? execution.reportedAt)}</span>
          ) : null}
          {execution.volume && kind !== "failed" && kind !== "skipped" ? (
            <span className="text-xs text-muted-foreground tabular">
              {formatLots(execution.volume)} lots{execution.symbol && execution.symbol !== masterSymbol ? ` · ${execution.symbol}` : ""}
            </span>
          ) : null}
          <OriginMarker execution={execution} />
        </span>
      </div>
      {followUp ? (
        <div
          className="pl-6 text-xs text-muted-foreground"
          data-testid={`execution-${followUp.id}`}
          data-status={followUp.status}
          data-action={followUp.action}
        >
          {followUpText(followUp, execution.volume)}
          {originMarker(followUp.origin) ? (
            <>
              {" "}
              <OriginMarker execution={followUp} />
            </>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/**
 * The execution lines of a signal in slave-list order (accounts unknown to the list last),
 * optionally only one slave's.
 */
export function ExecutionLines({
  summary,
  masterSymbol,
  slaveLabels,
  onlySlaveId,
}: {
  summary: SignalExecutionSummary;
  masterSymbol: string;
  /** Display name per slave account id, in slave-list order. */
  slaveLabels: ReadonlyMap<string, string>;
  onlySlaveId?: string;
}) {
  const lines = onlySlaveId ? summary.opening.filter((e) => e.slaveAccountId === onlySlaveId) : orderBySlave(summary.opening, slaveLabels);
  if (lines.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1.5" aria-label="Slave executions">
      {lines.map((execution) => (
        <ExecutionLine
          key={execution.id}
          execution={execution}
          slaveLabel={slaveLabels.get(execution.slaveAccountId) ?? "Unknown account"}
          masterSymbol={masterSymbol}
          followUp={summary.latestFollowUp.get(execution.slaveAccountId)}
        />
      ))}
    </ul>
  );
}
