import { Activity, DollarSign, Timer, Trophy } from "lucide-react";
import { formatUsd } from "@/lib/format";
import { cn } from "@/lib/utils";
import { formatMs, formatPercent } from "../lib/analytics-format";
import { StatTile } from "./stat-tile";

export interface SummaryCardsProps {
  /** Total accounts (Overview) or 1 (an account tab); null while loading. */
  accounts: number | null;
  avgPnl: number | null;
  avgLatency: number | null;
  winRate: number | null;
}

const LOADING = "…";

/** §2 four summary cards: Accounts, Avg P&L (dollars), Avg Latency (ms), Win Rate (percent). */
export function SummaryCards({ accounts, avgPnl, avgLatency, winRate }: SummaryCardsProps) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <StatTile label="Accounts" icon={Activity} value={accounts ?? LOADING} testId="card-accounts" />
      <StatTile
        label="Avg P&L"
        icon={DollarSign}
        value={avgPnl === null ? LOADING : formatUsd(avgPnl)}
        valueClassName={cn(avgPnl !== null && avgPnl > 0 && "text-success", avgPnl !== null && avgPnl < 0 && "text-destructive")}
        testId="card-avg-pnl"
      />
      <StatTile label="Avg Latency" icon={Timer} value={avgLatency === null ? LOADING : formatMs(avgLatency)} testId="card-avg-latency" />
      <StatTile label="Win Rate" icon={Trophy} value={winRate === null ? LOADING : formatPercent(winRate)} testId="card-win-rate" />
    </div>
  );
}
