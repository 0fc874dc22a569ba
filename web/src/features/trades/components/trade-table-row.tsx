import { ChevronRight } from "lucide-react";
import { memo } from "react";
import { Badge } from "@/components/ui/badge";
import { originMarker } from "@/lib/sync/sync-text";
import { cn } from "@/lib/utils";
import { type TradeRow, formatLatency } from "../lib/trade-table";
import { formatLots, formatTradeTime } from "../lib/trade-text";
import { unconfirmedText } from "../lib/verdicts";
import { SignalExecutions } from "./signal-executions";

/** Columns of the table (the expanded part spans them all). */
export const TRADE_TABLE_COLUMNS = 12;

const TONE = {
  success: "text-success",
  warning: "text-warning",
  destructive: "text-destructive",
  muted: "text-muted-foreground",
} as const;

export interface TradeTableRowProps {
  row: TradeRow;
  slaveLabels: ReadonlyMap<string, string>;
  /** Slave tab: only this account's outcome and lines. */
  onlySlaveId?: string;
  expanded: boolean;
  onToggle: (signalId: string) => void;
  /** aria-rowindex of the trade's row (1 is the header); its expanded part is the next. */
  rowIndex: number;
  /** Virtual list: index for measuring, set on the row group. */
  dataIndex?: number;
  measureRef?: (element: HTMLTableSectionElement | null) => void;
}

/**
 * One trade (signal) as a table row group (issue 16): a row with time, master ticket, symbol (side
 * colour dot), side, order type, volume, price, SL/TP, ACTIVE/CLOSED (and "from snapshot"),
 * the slaves' outcome and latency; below it, when expanded, the card's §2 texts — the slaves
 * still to confirm, 'Executed on X/Y slaves', the verdicts and one line per slave execution.
 */
export const TradeTableRow = memo(function TradeTableRow({ row, slaveLabels, onlySlaveId, expanded, onToggle, rowIndex, dataIndex, measureRef }: TradeTableRowProps) {
  const { signal, outcome, closed } = row;
  const buy = signal.side === "BUY";
  const origin = originMarker(signal.origin);
  const detailsId = `trade-details-${signal.id}`;
  const waiting = unconfirmedText(signal, slaveLabels, onlySlaveId);
  const remaining = Number(signal.volume);
  const partiallyClosed = remaining < Number(signal.openVolume);
  const label = `${signal.symbol} ${signal.side} ${formatLots(signal.volume)}`;
  return (
    <tbody ref={measureRef} data-index={dataIndex} className="border-b">
      <tr className={cn("transition-colors hover:bg-muted/40", expanded && "bg-muted/30")} aria-rowindex={rowIndex} data-testid={`signal-${signal.id}`}>
        <td className="w-8 py-0.5 pr-0 pl-1">
          <button
            type="button"
            className="inline-flex size-7 cursor-pointer items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            aria-label={`Slave executions of ${label}`}
            onClick={() => onToggle(signal.id)}
            data-testid={`button-expand-${signal.id}`}
          >
            <ChevronRight className={cn("size-4 transition-transform", expanded && "rotate-90")} aria-hidden="true" />
          </button>
        </td>
        <td className="px-1.5 py-1 whitespace-nowrap text-muted-foreground tabular" title={signal.openedAt}>
          {formatTradeTime(signal.openedAt)}
        </td>
        <td className="px-1.5 py-1 tabular" data-testid={`text-ticket-${signal.id}`}>
          {signal.masterTicket}
        </td>
        <th scope="row" className="px-1.5 py-1 text-left font-semibold whitespace-nowrap">
          <span className="inline-flex items-center gap-1.5">
            <span className={cn("size-2 shrink-0 rounded-full", buy ? "bg-success" : "bg-destructive")} aria-hidden="true" />
            <span data-testid={`text-symbol-${signal.id}`}>{signal.symbol}</span>
          </span>
        </th>
        <td className={cn("px-1.5 py-1 font-semibold", buy ? "text-success" : "text-destructive")}>{signal.side}</td>
        <td className="px-1.5 py-1">
          <Badge variant="outline" className="px-1.5 py-0 text-[11px]">
            {signal.orderType}
          </Badge>
        </td>
        <td className="px-1.5 py-1 text-right tabular" data-testid={`text-volume-${signal.id}`} title={partiallyClosed ? `Opened with ${formatLots(signal.openVolume)} lots` : undefined}>
          {formatLots(signal.volume)}
        </td>
        <td className="px-1.5 py-1 text-right tabular" data-testid={`text-price-${signal.id}`}>
          {signal.price}
        </td>
        <td className="px-1.5 py-1 whitespace-nowrap text-muted-foreground tabular">
          {signal.sl ?? "—"} / {signal.tp ?? "—"}
        </td>
        <td className="px-1.5 py-1">
          <span className="inline-flex flex-wrap gap-1">
            {closed ? (
              <Badge variant="secondary" className="px-1.5 py-0 text-[11px]" data-testid={`badge-closed-${signal.id}`}>
                CLOSED
              </Badge>
            ) : (
              <Badge variant="success" className="px-1.5 py-0 text-[11px]">
                ACTIVE
              </Badge>
            )}
            {origin ? (
              <Badge variant="info" className="px-1.5 py-0 text-[11px]" data-testid={`badge-origin-${signal.id}`} data-origin={signal.origin}>
                {origin}
              </Badge>
            ) : null}
          </span>
        </td>
        <td className={cn("px-1.5 py-1 whitespace-nowrap tabular", TONE[outcome.tone])} data-testid={`text-outcome-${signal.id}`}>
          {outcome.text}
        </td>
        <td className="px-1.5 py-1 text-right whitespace-nowrap tabular" data-testid={`text-latency-${signal.id}`}>
          {formatLatency(row.latencyMs)}
        </td>
      </tr>
      {expanded ? (
        <tr id={detailsId} aria-rowindex={rowIndex + 1} data-testid={`details-${signal.id}`} className="bg-muted/30">
          <td colSpan={TRADE_TABLE_COLUMNS} className="px-3 pt-1 pb-3 pl-10">
            <div className="flex flex-col gap-2">
              {waiting ? (
                <p className="text-xs font-medium text-warning" data-testid={`text-unconfirmed-${signal.id}`}>
                  {waiting}
                </p>
              ) : null}
              {partiallyClosed ? (
                <p className="text-xs text-muted-foreground tabular">
                  {remaining === 0
                    ? closed
                      ? `Closed on master (opened ${formatLots(signal.openVolume)} lots)`
                      : `Closed on master (opened ${formatLots(signal.openVolume)} lots), closing on slaves`
                    : `Opened with ${formatLots(signal.openVolume)} lots`}
                </p>
              ) : null}
              <SignalExecutions signal={signal} summary={row.summary} slaveLabels={slaveLabels} onlySlaveId={onlySlaveId} />
            </div>
          </td>
        </tr>
      ) : null}
    </tbody>
  );
});
