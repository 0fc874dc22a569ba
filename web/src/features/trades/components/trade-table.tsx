import type { Signal } from "#contract";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { type RefObject, useCallback, useMemo, useRef, useState } from "react";
import { cn } from "@/lib/utils";
import type { ExecutionIndex } from "../lib/execution-summary";
import { DEFAULT_TRADE_SORT, type TradeRow, type TradeSort, type TradeSortKey, buildTradeRows, nextTradeSort, sortTradeRows } from "../lib/trade-table";
import { VIRTUALIZE_FROM, useScrollHost } from "./signal-list";

type ScrollHost = ReturnType<typeof useScrollHost>;
import { TRADE_TABLE_COLUMNS, TradeTableRow } from "./trade-table-row";

/** First guess of a trade's height in px (row groups are measured once rendered). */
const ESTIMATED_ROW_PX = 37;

const COLUMNS: readonly { key: TradeSortKey | null; label: string; align?: "right" }[] = [
  { key: "time", label: "Opened" },
  { key: "ticket", label: "Ticket" },
  { key: "symbol", label: "Symbol" },
  { key: "side", label: "Side" },
  { key: "type", label: "Type" },
  { key: "volume", label: "Volume", align: "right" },
  { key: "price", label: "Price", align: "right" },
  { key: null, label: "SL / TP" },
  { key: "status", label: "Status" },
  { key: "outcome", label: "Slaves" },
  { key: "latency", label: "Latency", align: "right" },
];

export interface TradeTableProps {
  signals: readonly Signal[];
  index: ExecutionIndex;
  slaveLabels: ReadonlyMap<string, string>;
  /** Slave tab: that account's outcome and lines only. */
  onlySlaveId?: string;
  /** Table caption (read by screen readers). */
  caption: string;
  testId: string;
}

/**
 * Live Trades as a dense table (issue 16): one row per trade, sortable by a column's header button
 * (aria-sort on the header), each trade's slaves' outcomes expandable in place. Long lists (from
 * VIRTUALIZE_FROM trades) render only the row groups near the viewport.
 */
export function TradeTable({ signals, index, slaveLabels, onlySlaveId, caption, testId }: TradeTableProps) {
  const [sort, setSort] = useState<TradeSort>(DEFAULT_TRADE_SORT);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => sortTradeRows(buildTradeRows(signals, index, onlySlaveId), sort), [signals, index, onlySlaveId, sort]);
  // aria-rowindex of each trade's row: the header is 1, an expanded part takes the next index.
  const rowIndexes = useMemo(() => {
    let next = 2;
    return rows.map((row) => {
      const at = next;
      next += expanded.has(row.signal.id) ? 2 : 1;
      return at;
    });
  }, [rows, expanded]);
  const rowCount = 1 + rows.length + rows.filter((r) => expanded.has(r.signal.id)).length;
  const toggle = useCallback((id: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const virtual = rows.length >= VIRTUALIZE_FROM;
  const listRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  // Here, not in VirtualBody: a child's layout effect runs before this component's ref is attached.
  const host = useScrollHost(listRef);

  const body = virtual ? (
    <VirtualBody rows={rows} rowIndexes={rowIndexes} host={host} headRef={headRef} expanded={expanded} onToggle={toggle} slaveLabels={slaveLabels} onlySlaveId={onlySlaveId} />
  ) : (
    rows.map((row, i) => (
      <TradeTableRow
        key={row.signal.id}
        row={row}
        slaveLabels={slaveLabels}
        onlySlaveId={onlySlaveId}
        expanded={expanded.has(row.signal.id)}
        onToggle={toggle}
        rowIndex={rowIndexes[i] ?? i + 2}
      />
    ))
  );

  return (
    <div
      ref={listRef}
      className={cn("rounded-lg border bg-card text-card-foreground shadow-sm", virtual && host.own && "max-h-[75dvh] overflow-y-auto")}
      data-virtualized={virtual ? "true" : undefined}
    >
      <div className="w-full overflow-x-auto">
        <table className="w-full text-[13px]" aria-rowcount={rowCount} data-testid={testId}>
          <caption className="sr-only">{caption}</caption>
          <thead ref={headRef} className="border-b">
            <tr aria-rowindex={1}>
              <th scope="col" className="w-8 px-1">
                <span className="sr-only">Details</span>
              </th>
              {COLUMNS.map((column) => (
                <SortableHead key={column.label} column={column} sort={sort} onSort={(key) => setSort((s) => nextTradeSort(s, key))} />
              ))}
            </tr>
          </thead>
          {body}
        </table>
      </div>
    </div>
  );
}

function SortableHead({ column, sort, onSort }: { column: (typeof COLUMNS)[number]; sort: TradeSort; onSort: (key: TradeSortKey) => void }) {
  const className = cn("h-9 px-1.5 text-xs font-medium whitespace-nowrap text-muted-foreground", column.align === "right" ? "text-right" : "text-left");
  if (!column.key) {
    return (
      <th scope="col" className={className}>
        {column.label}
      </th>
    );
  }
  const key = column.key;
  const active = sort.key === key;
  const Icon = !active ? ArrowUpDown : sort.direction === "asc" ? ArrowUp : ArrowDown;
  return (
    <th scope="col" className={className} aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}>
      <button
        type="button"
        className={cn(
          "-mx-1 inline-flex cursor-pointer items-center gap-1 rounded px-1 py-0.5 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
          active && "text-foreground",
        )}
        onClick={() => onSort(key)}
        data-testid={`sort-${key}`}
      >
        {column.label}
        <Icon className={cn("size-3.5", !active && "opacity-50")} aria-hidden="true" />
      </button>
    </th>
  );
}

interface VirtualBodyProps {
  rows: readonly TradeRow[];
  rowIndexes: readonly number[];
  host: ScrollHost;
  headRef: RefObject<HTMLTableSectionElement | null>;
  expanded: ReadonlySet<string>;
  onToggle: (id: string) => void;
  slaveLabels: ReadonlyMap<string, string>;
  onlySlaveId?: string;
}

/** The row groups near the viewport, between two spacer rows standing for the others' height. */
function VirtualBody({ rows, rowIndexes, host, headRef, expanded, onToggle, slaveLabels, onlySlaveId }: VirtualBodyProps) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => host.element,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (i) => rows[i]?.signal.id ?? i,
    overscan: 10,
    // Rows start below the header.
    scrollMargin: host.offset + (headRef.current?.offsetHeight ?? 0),
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const margin = virtualizer.options.scrollMargin;
  const first = items[0];
  const last = items[items.length - 1];
  const top = first ? first.start - margin : 0;
  const bottom = last ? virtualizer.getTotalSize() - (last.end - margin) : 0;
  return (
    <>
      {top > 0 ? <Spacer height={top} /> : null}
      {items.map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        return (
          <TradeTableRow
            key={item.key}
            row={row}
            slaveLabels={slaveLabels}
            onlySlaveId={onlySlaveId}
            expanded={expanded.has(row.signal.id)}
            onToggle={onToggle}
            rowIndex={rowIndexes[item.index] ?? item.index + 2}
            dataIndex={item.index}
            measureRef={virtualizer.measureElement}
          />
        );
      })}
      {bottom > 0 ? <Spacer height={bottom} /> : null}
    </>
  );
}

function Spacer({ height }: { height: number }) {
  return (
    <tbody aria-hidden="true">
      <tr>
        <td colSpan={TRADE_TABLE_COLUMNS} style={{ height, padding: 0 }} />
      </tr>
    </tbody>
  );
}
