import type { LatencyResponse, PerformanceResponse } from "#contract";
import { Activity, DollarSign, Timer, Trophy } from "lucide-react";
import { cn } from "@/lib/utils";
import { averagingNote, formatMs, formatPercent, formatUsdOrDash } from "../lib/analytics-format";
import { StatTile } from "./stat-tile";

export interface SummaryCardsProps {
  /** Total accounts (Overview) or 1 (an account tab); null while loading. */
  accounts: number | null;
  /** The performance summary; undefined while loading. */
  performance: PerformanceResponse["summary"] | undefined;
  /** The latency summary; undefined while loading. */
  latency: LatencyResponse["summary"] | undefined;
}

const LOADING = "…";

/**
 * §2 four summary cards: Accounts, Avg P&L (dollars), Avg Latency (ms), Win Rate (percent).
 * Issue 16 "Truthful metrics": a figure without data reads "—" (not "$0.00", "0ms", "0.0%"), and
 * Avg P&L and Win Rate say which accounts they average (the same ones: those with closed trades).
 */
export function SummaryCards({ accounts, performance, latency }: SummaryCardsProps) {
  const avgPnl = performance?.avgPnl ?? null;
  const note = performance ? averagingNote(performance.tradedAccounts) : undefined;
  const avgLatency = latency && latency.totalExecutions > 0 ? latency.avgLatency : null;
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <StatTile label="Accounts" icon={Activity} value={accounts ?? LOADING} testId="card-accounts" />
      <StatTile
        label="Avg P&L"
        icon={DollarSign}
        value={performance ? formatUsdOrDash(avgPnl) : LOADING}
        valueClassName={cn(avgPnl !== null && avgPnl > 0 && "text-success", avgPnl !== null && avgPnl < 0 && "text-destructive")}
        hint={note}
        hintTestId="text-avg-pnl-basis"
        testId="card-avg-pnl"
      />
      <StatTile
        label="Avg Latency"
        icon={Timer}
        value={latency ? formatMs(avgLatency) : LOADING}
        hint={latency ? executionsNote(latency.totalExecutions) : undefined}
        testId="card-avg-latency"
      />
      <StatTile
        label="Win Rate"
        icon={Trophy}
        value={performance ? formatPercent(performance.avgWinRate) : LOADING}
        hint={note}
        hintTestId="text-win-rate-basis"
        testId="card-win-rate"
      />
    </div>
  );
}

function executionsNote(total: number): string {
  return total === 0 ? "No executions in range" : `across ${total.toLocaleString("en-US")} ${total === 1 ? "execution" : "executions"} in range`;
}
