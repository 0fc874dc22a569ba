import type { AnalyticsRange } from "#contract";
import { useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useAccountsWithDeleted, useSlaveAccounts } from "@/lib/account-queries";
import { cn } from "@/lib/utils";
import { useLiveAnalytics } from "../api/use-live-analytics";
import { accountLabel } from "../lib/chart-series";
import { AnalyticsView, type SubTab } from "./analytics-view";
import { DEFAULT_RANGE, RangeSelect } from "./range-select";

const OVERVIEW = "overview";

/**
 * §2 /analytics Analytics Dashboard: range selector (default 24h), Overview (All Accounts) and one
 * tab per slave (alias or number; dot white when active, grey otherwise), then the §4 view of
 * the chosen range and tab. Sub-tab and range survive switching account tabs.
 */
export function AnalyticsPage() {
  const [range, setRange] = useState<AnalyticsRange>(DEFAULT_RANGE);
  const [tab, setTab] = useState(OVERVIEW);
  const [subTab, setSubTab] = useState<SubTab>("performance");
  const { slaves } = useSlaveAccounts();
  useLiveAnalytics();

  const account = slaves.find((s) => s.id === tab);
  const active = account ? tab : OVERVIEW;
  // Deleted slaves keep their analytics (issue 13 soft delete): named "<alias> (deleted)".
  const { byId } = useAccountsWithDeleted();
  const labelOf = (id: string) => {
    const a = byId.get(id);
    const label = accountLabel(id, a?.alias);
    return a?.deletedAt ? `${label} (deleted)` : label;
  };
  const currencyOf = (id: string) => byId.get(id)?.currency || undefined;

  return (
    <div className="flex flex-col gap-6" data-testid="page-analytics">
      <PageHeader title="Analytics Dashboard" description="Copy performance, latency and slippage across your accounts" actions={<RangeSelect value={range} onChange={setRange} />} />
      <Tabs value={active} onValueChange={setTab}>
        <TabsList aria-label="Accounts" className="max-w-full">
          <TabsTrigger value={OVERVIEW} data-testid="tab-analytics-overview" title="All Accounts">
            Overview
          </TabsTrigger>
          {slaves.map((slave) => {
            const isActive = slave.status === "active";
            const label = slave.alias || slave.accountNumber;
            return (
              <TabsTrigger key={slave.id} value={slave.id} data-testid={`tab-analytics-${slave.id}`} title={label}>
                <span
                  className={cn("size-2 shrink-0 rounded-full", isActive ? "bg-white ring-1 ring-black/50 dark:ring-white/30" : "bg-muted-foreground/50")}
                  role="img"
                  aria-label={isActive ? "Active" : "Not active"}
                  data-active={isActive}
                  data-testid={`dot-analytics-${slave.id}`}
                />
                <span className="max-w-40 truncate">{label}</span>
              </TabsTrigger>
            );
          })}
        </TabsList>
        <TabsContent value={active}>
          <AnalyticsView range={range} account={account} subTab={subTab} onSubTabChange={setSubTab} labelOf={labelOf} currencyOf={currencyOf} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
