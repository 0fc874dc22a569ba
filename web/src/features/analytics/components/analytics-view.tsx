import type { Account, AnalyticsRange } from "#contract";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useAnalyticsData } from "../api/analytics-queries";
import { AccountHeader } from "./account-header";
import { ExecutionPanel } from "./execution-panel";
import { LatencyHopsPanel } from "./latency-hops-panel";
import { LatencyPanel } from "./latency-panel";
import { PerformancePanel } from "./performance-panel";
import { QueryState } from "./query-state";
import { SlippagePanel } from "./slippage-panel";
import { SummaryCards } from "./summary-cards";

export const SUB_TABS = ["performance", "latency", "slippage", "execution"] as const;
export type SubTab = (typeof SUB_TABS)[number];
const SUB_TAB_LABELS: Record<SubTab, string> = { performance: "Performance", latency: "Latency", slippage: "Slippage", execution: "Execution" };

export interface AnalyticsViewProps {
  range: AnalyticsRange;
  /** The account tab's account, or undefined for the Overview (All Accounts). */
  account: Account | undefined;
  subTab: SubTab;
  onSubTabChange: (tab: SubTab) => void;
  labelOf: (accountId: string) => string;
  currencyOf: (accountId: string) => string | undefined;
}

/**
 * §4 one analytics view (range × account tab): the account header on an account tab, the four
 * summary cards and the Performance / Latency / Slippage / Execution sub-tabs. An account tab
 * passes accountId, so every figure is that account's.
 */
export function AnalyticsView({ range, account, subTab, onSubTabChange, labelOf, currencyOf }: AnalyticsViewProps) {
  const { performance, latency, slippage } = useAnalyticsData(range, account?.id);
  const summary = performance.data?.summary;
  return (
    <div className="flex flex-col gap-4">
      {account ? <AccountHeader account={account} /> : null}
      <SummaryCards
        accounts={account ? 1 : (summary?.totalAccounts ?? null)}
        performance={summary}
        latency={latency.data?.summary}
      />
      <Tabs value={subTab} onValueChange={(value) => onSubTabChange(value as SubTab)}>
        <TabsList aria-label="Analytics sections">
          {SUB_TABS.map((tab) => (
            <TabsTrigger key={tab} value={tab} data-testid={`subtab-${tab}`}>
              {SUB_TAB_LABELS[tab]}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="performance">
          <QueryState query={performance}>{(data) => <PerformancePanel data={data} range={range} labelOf={labelOf} currencyOf={currencyOf} />}</QueryState>
        </TabsContent>
        <TabsContent value="latency">
          <div className="flex flex-col gap-4">
            <QueryState query={latency}>{(data) => <LatencyPanel data={data} />}</QueryState>
            <LatencyHopsPanel range={range} accountId={account?.id} />
          </div>
        </TabsContent>
        <TabsContent value="slippage">
          <QueryState query={slippage}>{(data) => <SlippagePanel data={data} />}</QueryState>
        </TabsContent>
        <TabsContent value="execution">
          <QueryState query={latency}>{(latencyData) => <QueryState query={slippage}>{(slippageData) => <ExecutionPanel latency={latencyData} slippage={slippageData} />}</QueryState>}</QueryState>
        </TabsContent>
      </Tabs>
    </div>
  );
}
