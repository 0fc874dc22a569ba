import type { Signal } from "#contract";
import { LayoutList, Rows3 } from "lucide-react";
import { useCallback, useState } from "react";
import { cn } from "@/lib/utils";
import type { ExecutionIndex } from "../lib/execution-summary";
import { type TradesViewMode, readTradesViewMode, storeTradesViewMode } from "../lib/view-mode";
import { SignalList } from "./signal-list";
import { TradeTable } from "./trade-table";

/** The Table / Cards choice, read once from localStorage and remembered on change. */
export function useTradesViewMode(): [TradesViewMode, (mode: TradesViewMode) => void] {
  const [mode, setMode] = useState<TradesViewMode>(readTradesViewMode);
  const choose = useCallback((next: TradesViewMode) => {
    storeTradesViewMode(next);
    setMode(next);
  }, []);
  return [mode, choose];
}

const OPTIONS = [
  { mode: "table", label: "Table", Icon: Rows3 },
  { mode: "cards", label: "Cards", Icon: LayoutList },
] as const;

/** "Table / Cards" toggle (issue 16): two pressed-state buttons in a labelled group. */
export function TradesViewToggle({ mode, onChange }: { mode: TradesViewMode; onChange: (mode: TradesViewMode) => void }) {
  return (
    <div role="group" aria-label="View" className="inline-flex h-9 items-center rounded-md border border-input p-0.5" data-testid="toggle-trades-view">
      {OPTIONS.map(({ mode: option, label, Icon }) => (
        <button
          key={option}
          type="button"
          aria-pressed={mode === option}
          onClick={() => onChange(option)}
          data-testid={`button-view-${option}`}
          className={cn(
            "inline-flex h-full cursor-pointer items-center gap-1.5 rounded px-2.5 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&_svg]:size-4",
            mode === option ? "bg-secondary text-secondary-foreground" : "text-muted-foreground hover:bg-accent hover:text-accent-foreground",
          )}
        >
          <Icon aria-hidden="true" />
          {label}
        </button>
      ))}
    </div>
  );
}

export interface TradesListProps {
  mode: TradesViewMode;
  signals: readonly Signal[];
  index: ExecutionIndex;
  slaveLabels: ReadonlyMap<string, string>;
  onlySlaveId?: string;
  /** The table's caption and test id (cards keep "list-signals"). */
  caption: string;
  tableTestId: string;
}

/** Trades as the chosen view: the dense table or the §2 cards. */
export function TradesList({ mode, caption, tableTestId, ...list }: TradesListProps) {
  if (mode === "cards") return <SignalList {...list} />;
  return <TradeTable {...list} caption={caption} testId={tableTestId} />;
}
