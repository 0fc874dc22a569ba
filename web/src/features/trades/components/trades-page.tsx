import { Activity, AlertTriangle, RefreshCw } from "lucide-react";
import { useMemo } from "react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { ALL_TAB, SlaveTabs, slaveTabLabel, useSlaveTab } from "@/components/slave-tabs";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useSlaveAccounts } from "@/lib/account-queries";
import { cn } from "@/lib/utils";
import { useAwaitingConfirmation } from "../api/use-awaiting-confirmation";
import { useLiveTrades } from "../api/use-live-trades";
import { indexExecutionsBySignal } from "../lib/execution-summary";
import { LiveTradesFeed } from "./live-trades-feed";
import { AwaitingConfirmation } from "./awaiting-confirmation";
import { SlaveTradesView } from "./slave-trades-view";
import { TradesList, TradesViewToggle, useTradesViewMode } from "./trades-view";

/**
 * §2 /trades Live Trades: Refresh, tabs 'All Accounts' plus the first 5 slaves (default the first
 * slave, else All), active signals with their slave executions, kept live by §4 socket messages.
 * Issue 16: shown as a dense sortable table (default) or as the cards, a choice remembered.
 */
export function TradesPage() {
  const live = useLiveTrades();
  const { slaves, isLoading: slavesLoading } = useSlaveAccounts();
  const tab = useSlaveTab(slaves);
  const index = useMemo(() => indexExecutionsBySignal(live.executions), [live.executions]);
  const slaveLabels = useMemo(() => new Map(slaves.map((s) => [s.id, slaveTabLabel(s)])), [slaves]);
  const selectedSlave = slaves.find((s) => s.id === tab.value);
  const awaiting = useAwaitingConfirmation();
  const [mode, setMode] = useTradesViewMode();

  let body;
  if (live.error && !live.ready) {
    body = (
      <EmptyState
        icon={AlertTriangle}
        title="Failed to load active trades."
        description={live.error.message}
        testId="error-trades"
        action={
          <Button variant="outline" onClick={() => void live.refresh()}>
            Try again
          </Button>
        }
      />
    );
  } else if (!live.ready || slavesLoading) {
    body = (
      <div className="flex items-center justify-center gap-3 py-16 text-sm text-muted-foreground" data-testid="loading-trades">
        <Spinner /> Loading active trades...
      </div>
    );
  } else {
    body = (
      <SlaveTabs slaves={slaves} value={tab.value} onValueChange={tab.onValueChange} syncStatus>
        {tab.value === ALL_TAB || !selectedSlave ? (
          <>
            {live.signals.length === 0 ? (
              <EmptyState icon={Activity} title="No active trades. All positions are closed or waiting for new signals..." testId="empty-trades" />
            ) : (
              <TradesList mode={mode} signals={live.signals} index={index} slaveLabels={slaveLabels} caption="Active trades" tableTestId="table-trades" />
            )}
            <AwaitingConfirmation signals={awaiting} index={index} slaveLabels={slaveLabels} mode={mode} />
          </>
        ) : (
          <SlaveTradesView slave={selectedSlave} signals={live.signals} index={index} slaveLabels={slaveLabels} awaiting={awaiting} mode={mode} />
        )}
      </SlaveTabs>
    );
  }

  return (
    <div className="flex flex-col gap-6" data-testid="page-live-trades">
      <LiveTradesFeed onMessage={live.receive} onReconnect={live.refresh} />
      <PageHeader
        title="Live Trades"
        description="Monitor active signals and their executions on every slave account"
        actions={
          <>
            <TradesViewToggle mode={mode} onChange={setMode} />
            <Button
              variant="outline"
              onClick={() => void live.refresh()}
              disabled={live.fetching}
              data-testid="button-refresh"
            >
              <RefreshCw className={cn(live.fetching && "animate-spin")} />
              Refresh
            </Button>
          </>
        }
      />
      {body}
    </div>
  );
}
