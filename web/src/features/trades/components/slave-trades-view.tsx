import type { Account, Signal } from "#contract";
import { Inbox } from "lucide-react";
import { useMemo } from "react";
import { EmptyState } from "@/components/empty-state";
import { SyncButton } from "@/components/sync/sync-panel";
import { SyncStatusBadge } from "@/components/sync/sync-status-badge";
import { Card, CardContent } from "@/components/ui/card";
import { formatUsd } from "@/lib/format";
import { useSlaveSummary } from "../api/use-slave-summary";
import { type ExecutionIndex, signalsForSlave } from "../lib/execution-summary";
import type { TradesViewMode } from "../lib/view-mode";
import { AwaitingConfirmation } from "./awaiting-confirmation";
import { TradesList } from "./trades-view";

function Stat({ label, value, testId, text = false }: { label: string; value: string | number; testId: string; text?: boolean }) {
  return (
    <Card>
      <CardContent className="flex h-full flex-col gap-1 p-4">
        <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</span>
        <span
          className={text ? "text-base font-semibold break-words" : "truncate text-xl font-semibold tabular"}
          data-testid={testId}
          title={String(value)}
        >
          {value}
        </span>
      </CardContent>
    </Card>
  );
}

export interface SlaveTradesViewProps {
  slave: Account;
  signals: readonly Signal[];
  index: ExecutionIndex;
  slaveLabels: ReadonlyMap<string, string>;
  /** Ended signals still waiting for a slave's close confirmation (only this slave's are shown). */
  awaiting?: readonly Signal[];
  /** Table (issue 16, default) or cards. */
  mode?: TradesViewMode;
}

/**
 * §2 slave tab: total trades, successful count, success rate (whole percent; all time, from the
 * server), balance, equity and broker, then the account's active trades with only its own
 * execution lines (as the table or the cards, issue 16). Issue 14: above them the slave's sync
 * status and its "Sync" button.
 */
export function SlaveTradesView({ slave, signals, index, slaveLabels, awaiting = [], mode = "table" }: SlaveTradesViewProps) {
  const { data: stats } = useSlaveSummary(slave.id);
  const own = useMemo(() => signalsForSlave(signals, index, slave.id), [signals, index, slave.id]);
  const ownAwaiting = useMemo(() => awaiting.filter((s) => s.unconfirmedSlaveIds?.includes(slave.id)), [awaiting, slave.id]);
  return (
    <div className="flex flex-col gap-4" data-testid={`view-slave-${slave.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-2" data-testid="row-slave-sync">
        <SyncStatusBadge accountId={slave.id} />
        <SyncButton account={slave} />
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3">
        <Stat label="Total Trades" value={stats?.total ?? "–"} testId="stat-total-trades" />
        <Stat label="Successful" value={stats?.successful ?? "–"} testId="stat-successful" />
        <Stat label="Success Rate" value={stats ? `${stats.successRate}%` : "–"} testId="stat-success-rate" />
        <Stat label="Balance" value={formatUsd(slave.balance)} testId="stat-balance" />
        <Stat label="Equity" value={formatUsd(slave.equity)} testId="stat-equity" />
        <Stat label="Broker" value={slave.broker || "Unknown"} testId="stat-broker" text />
      </div>
      <h2 className="text-sm font-semibold text-muted-foreground">
        Active trades <span className="font-normal tabular">({own.length})</span>
      </h2>
      {own.length === 0 ? (
        <EmptyState icon={Inbox} title="No active trades on this account. All positions are closed." testId="empty-slave-trades" />
      ) : (
        <TradesList
          mode={mode}
          signals={own}
          index={index}
          slaveLabels={slaveLabels}
          onlySlaveId={slave.id}
          caption={`Active trades on ${slaveLabels.get(slave.id) ?? slave.accountNumber}`}
          tableTestId="table-trades"
        />
      )}
      <AwaitingConfirmation signals={ownAwaiting} index={index} slaveLabels={slaveLabels} onlySlaveId={slave.id} mode={mode} />
    </div>
  );
}
